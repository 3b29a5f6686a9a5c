//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keychain open source project
//
// Copyright (c) 2026 the swift-keychain project authors
// Licensed under Apache License v2.0
//
// See LICENSE.txt for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import Security
#else
public import Foundation

// Values for the accessibility, protocol, authentication type, key class, key type, PRF,
// token ID and access group attributes. Raw values match Apple's Security framework;
// several are shared (the three elliptic-curve key types are all "73", and HTTP Basic
// authentication and the HTTP protocol are both "http"). Protocol codes are four
// characters wide, so some end in a space.

// MARK: - Accessibility values

/// Readable only while the device is unlocked; migrates to new devices.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked: CFString = SecConstantString("ak")

/// Readable after the first unlock since boot; migrates to new devices.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock: CFString = SecConstantString("ck")

/// Readable regardless of lock state; deprecated by Apple.
nonisolated(unsafe) public let kSecAttrAccessibleAlways: CFString = SecConstantString("dk")

/// Readable only while unlocked and only if a passcode is set; never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly: CFString = SecConstantString("akpu")

/// Readable only while the device is unlocked; never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString = SecConstantString("aku")

/// Readable after the first unlock since boot; never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = SecConstantString("cku")

/// Readable regardless of lock state, never leaves this device; deprecated by Apple.
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly: CFString = SecConstantString("dku")

// MARK: - Protocol values

/// The FTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTP: CFString = SecConstantString("ftp ")

/// An FTP account.
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount: CFString = SecConstantString("ftpa")

/// The HTTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTP: CFString = SecConstantString("http")

/// The IRC protocol.
nonisolated(unsafe) public let kSecAttrProtocolIRC: CFString = SecConstantString("irc ")

/// The NNTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolNNTP: CFString = SecConstantString("nntp")

/// The POP3 protocol.
nonisolated(unsafe) public let kSecAttrProtocolPOP3: CFString = SecConstantString("pop3")

/// The SMTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolSMTP: CFString = SecConstantString("smtp")

/// The SOCKS protocol.
nonisolated(unsafe) public let kSecAttrProtocolSOCKS: CFString = SecConstantString("sox ")

/// The IMAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolIMAP: CFString = SecConstantString("imap")

/// The LDAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolLDAP: CFString = SecConstantString("ldap")

/// The AppleTalk protocol.
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk: CFString = SecConstantString("atlk")

/// The AFP protocol.
nonisolated(unsafe) public let kSecAttrProtocolAFP: CFString = SecConstantString("afp ")

/// The Telnet protocol.
nonisolated(unsafe) public let kSecAttrProtocolTelnet: CFString = SecConstantString("teln")

/// The SSH protocol.
nonisolated(unsafe) public let kSecAttrProtocolSSH: CFString = SecConstantString("ssh ")

/// FTP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolFTPS: CFString = SecConstantString("ftps")

/// HTTP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolHTTPS: CFString = SecConstantString("htps")

/// An HTTP proxy.
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy: CFString = SecConstantString("htpx")

/// An HTTPS proxy.
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy: CFString = SecConstantString("htsx")

/// An FTP proxy.
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy: CFString = SecConstantString("ftpx")

/// The SMB protocol.
nonisolated(unsafe) public let kSecAttrProtocolSMB: CFString = SecConstantString("smb ")

/// The RTSP protocol.
nonisolated(unsafe) public let kSecAttrProtocolRTSP: CFString = SecConstantString("rtsp")

/// An RTSP proxy.
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy: CFString = SecConstantString("rtsx")

/// The DAAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolDAAP: CFString = SecConstantString("daap")

/// Remote Apple Events (EPPC).
nonisolated(unsafe) public let kSecAttrProtocolEPPC: CFString = SecConstantString("eppc")

/// The IPP printing protocol.
nonisolated(unsafe) public let kSecAttrProtocolIPP: CFString = SecConstantString("ipp ")

/// NNTP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolNNTPS: CFString = SecConstantString("ntps")

/// LDAP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolLDAPS: CFString = SecConstantString("ldps")

/// Telnet over TLS.
nonisolated(unsafe) public let kSecAttrProtocolTelnetS: CFString = SecConstantString("tels")

/// IMAP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolIMAPS: CFString = SecConstantString("imps")

/// IRC over TLS.
nonisolated(unsafe) public let kSecAttrProtocolIRCS: CFString = SecConstantString("ircs")

/// POP3 over TLS.
nonisolated(unsafe) public let kSecAttrProtocolPOP3S: CFString = SecConstantString("pops")

// MARK: - Authentication type values

/// Windows NTLM authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM: CFString = SecConstantString("ntlm")

/// Microsoft Network authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN: CFString = SecConstantString("msna")

/// Distributed Password authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA: CFString = SecConstantString("dpaa")

/// Remote Password authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA: CFString = SecConstantString("rpaa")

/// HTTP Basic authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic: CFString = SecConstantString("http")

/// HTTP Digest authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest: CFString = SecConstantString("httd")

/// Authentication through an HTML form.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm: CFString = SecConstantString("form")

/// The default authentication scheme.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault: CFString = SecConstantString("dflt")

// MARK: - Key class values

/// The public half of a key pair.
nonisolated(unsafe) public let kSecAttrKeyClassPublic: CFString = SecConstantString("0")

/// The private half of a key pair.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate: CFString = SecConstantString("1")

/// A symmetric key.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric: CFString = SecConstantString("2")

// MARK: - Key type values

/// An RSA key.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA: CFString = SecConstantString("42")

/// A DSA key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeDSA: CFString = SecConstantString("43")

/// An AES key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeAES: CFString = SecConstantString("2147483649")

/// A DES key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeDES: CFString = SecConstantString("14")

/// A triple-DES key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyType3DES: CFString = SecConstantString("17")

/// An RC4 key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeRC4: CFString = SecConstantString("25")

/// An RC2 key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeRC2: CFString = SecConstantString("23")

/// A CAST key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeCAST: CFString = SecConstantString("56")

/// An elliptic-curve key, legacy macOS name for the prime-curve type.
nonisolated(unsafe) public let kSecAttrKeyTypeECDSA: CFString = SecConstantString("73")

/// An elliptic-curve key, legacy name for the prime-curve type.
nonisolated(unsafe) public let kSecAttrKeyTypeEC: CFString = SecConstantString("73")

/// An elliptic-curve key on a NIST prime curve.
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom: CFString = SecConstantString("73")

// MARK: - Key derivation PRF values

/// HMAC-SHA1 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA1: CFString = SecConstantString("hsha1")

/// HMAC-SHA224 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA224: CFString = SecConstantString("hsha224")

/// HMAC-SHA256 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA256: CFString = SecConstantString("hsha256")

/// HMAC-SHA384 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA384: CFString = SecConstantString("hsha384")

/// HMAC-SHA512 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA512: CFString = SecConstantString("hsha512")

// MARK: - Token and access group values

/// The token ID of keys held in the Secure Enclave.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave: CFString = SecConstantString("com.apple.setoken")

/// The access group of items provided by external tokens such as smart cards.
nonisolated(unsafe) public let kSecAttrAccessGroupToken: CFString = SecConstantString("com.apple.token")

#endif
