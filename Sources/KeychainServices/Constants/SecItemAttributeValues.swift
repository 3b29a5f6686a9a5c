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
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlocked:                   CFString = "ak"

/// Readable after the first unlock since boot; migrates to new devices.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlock:               CFString = "ck"

/// Readable regardless of lock state; deprecated by Apple.
nonisolated(unsafe) public let kSecAttrAccessibleAlways:                         CFString = "dk"

/// Readable only while unlocked and only if a passcode is set; never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly:  CFString = "akpu"

/// Readable only while the device is unlocked; never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleWhenUnlockedThisDeviceOnly:     CFString = "aku"

/// Readable after the first unlock since boot; never leaves this device.
nonisolated(unsafe) public let kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly: CFString = "cku"

/// Readable regardless of lock state, never leaves this device; deprecated by Apple.
nonisolated(unsafe) public let kSecAttrAccessibleAlwaysThisDeviceOnly:           CFString = "dku"

// MARK: - Protocol values

/// The FTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolFTP:                              CFString = "ftp "

/// An FTP account.
nonisolated(unsafe) public let kSecAttrProtocolFTPAccount:                       CFString = "ftpa"

/// The HTTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolHTTP:                             CFString = "http"

/// The IRC protocol.
nonisolated(unsafe) public let kSecAttrProtocolIRC:                              CFString = "irc "

/// The NNTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolNNTP:                             CFString = "nntp"

/// The POP3 protocol.
nonisolated(unsafe) public let kSecAttrProtocolPOP3:                             CFString = "pop3"

/// The SMTP protocol.
nonisolated(unsafe) public let kSecAttrProtocolSMTP:                             CFString = "smtp"

/// The SOCKS protocol.
nonisolated(unsafe) public let kSecAttrProtocolSOCKS:                            CFString = "sox "

/// The IMAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolIMAP:                             CFString = "imap"

/// The LDAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolLDAP:                             CFString = "ldap"

/// The AppleTalk protocol.
nonisolated(unsafe) public let kSecAttrProtocolAppleTalk:                        CFString = "atlk"

/// The AFP protocol.
nonisolated(unsafe) public let kSecAttrProtocolAFP:                              CFString = "afp "

/// The Telnet protocol.
nonisolated(unsafe) public let kSecAttrProtocolTelnet:                           CFString = "teln"

/// The SSH protocol.
nonisolated(unsafe) public let kSecAttrProtocolSSH:                              CFString = "ssh "

/// FTP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolFTPS:                             CFString = "ftps"

/// HTTP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolHTTPS:                            CFString = "htps"

/// An HTTP proxy.
nonisolated(unsafe) public let kSecAttrProtocolHTTPProxy:                        CFString = "htpx"

/// An HTTPS proxy.
nonisolated(unsafe) public let kSecAttrProtocolHTTPSProxy:                       CFString = "htsx"

/// An FTP proxy.
nonisolated(unsafe) public let kSecAttrProtocolFTPProxy:                         CFString = "ftpx"

/// The SMB protocol.
nonisolated(unsafe) public let kSecAttrProtocolSMB:                              CFString = "smb "

/// The RTSP protocol.
nonisolated(unsafe) public let kSecAttrProtocolRTSP:                             CFString = "rtsp"

/// An RTSP proxy.
nonisolated(unsafe) public let kSecAttrProtocolRTSPProxy:                        CFString = "rtsx"

/// The DAAP protocol.
nonisolated(unsafe) public let kSecAttrProtocolDAAP:                             CFString = "daap"

/// Remote Apple Events (EPPC).
nonisolated(unsafe) public let kSecAttrProtocolEPPC:                             CFString = "eppc"

/// The IPP printing protocol.
nonisolated(unsafe) public let kSecAttrProtocolIPP:                              CFString = "ipp "

/// NNTP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolNNTPS:                            CFString = "ntps"

/// LDAP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolLDAPS:                            CFString = "ldps"

/// Telnet over TLS.
nonisolated(unsafe) public let kSecAttrProtocolTelnetS:                          CFString = "tels"

/// IMAP over TLS.
nonisolated(unsafe) public let kSecAttrProtocolIMAPS:                            CFString = "imps"

/// IRC over TLS.
nonisolated(unsafe) public let kSecAttrProtocolIRCS:                             CFString = "ircs"

/// POP3 over TLS.
nonisolated(unsafe) public let kSecAttrProtocolPOP3S:                            CFString = "pops"

// MARK: - Authentication type values

/// Windows NTLM authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeNTLM:                   CFString = "ntlm"

/// Microsoft Network authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeMSN:                    CFString = "msna"

/// Distributed Password authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDPA:                    CFString = "dpaa"

/// Remote Password authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeRPA:                    CFString = "rpaa"

/// HTTP Basic authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPBasic:              CFString = "http"

/// HTTP Digest authentication.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTTPDigest:             CFString = "httd"

/// Authentication through an HTML form.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeHTMLForm:               CFString = "form"

/// The default authentication scheme.
nonisolated(unsafe) public let kSecAttrAuthenticationTypeDefault:                CFString = "dflt"

// MARK: - Key class values

/// The public half of a key pair.
nonisolated(unsafe) public let kSecAttrKeyClassPublic:                           CFString = "0"

/// The private half of a key pair.
nonisolated(unsafe) public let kSecAttrKeyClassPrivate:                          CFString = "1"

/// A symmetric key.
nonisolated(unsafe) public let kSecAttrKeyClassSymmetric:                        CFString = "2"

// MARK: - Key type values

/// An RSA key.
nonisolated(unsafe) public let kSecAttrKeyTypeRSA:                               CFString = "42"

/// A DSA key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeDSA:                               CFString = "43"

/// An AES key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeAES:                               CFString = "2147483649"

/// A DES key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeDES:                               CFString = "14"

/// A triple-DES key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyType3DES:                              CFString = "17"

/// An RC4 key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeRC4:                               CFString = "25"

/// An RC2 key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeRC2:                               CFString = "23"

/// A CAST key (macOS only).
nonisolated(unsafe) public let kSecAttrKeyTypeCAST:                              CFString = "56"

/// An elliptic-curve key, legacy macOS name for the prime-curve type.
nonisolated(unsafe) public let kSecAttrKeyTypeECDSA:                             CFString = "73"

/// An elliptic-curve key, legacy name for the prime-curve type.
nonisolated(unsafe) public let kSecAttrKeyTypeEC:                                CFString = "73"

/// An elliptic-curve key on a NIST prime curve.
nonisolated(unsafe) public let kSecAttrKeyTypeECSECPrimeRandom:                  CFString = "73"

// MARK: - Key derivation PRF values

/// HMAC-SHA1 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA1:                           CFString = "hsha1"

/// HMAC-SHA224 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA224:                         CFString = "hsha224"

/// HMAC-SHA256 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA256:                         CFString = "hsha256"

/// HMAC-SHA384 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA384:                         CFString = "hsha384"

/// HMAC-SHA512 as the key derivation PRF (macOS only).
nonisolated(unsafe) public let kSecAttrPRFHmacAlgSHA512:                         CFString = "hsha512"

// MARK: - Token and access group values

/// The token ID of keys held in the Secure Enclave.
nonisolated(unsafe) public let kSecAttrTokenIDSecureEnclave:                     CFString = "com.apple.setoken"

/// The access group of items provided by external tokens such as smart cards.
nonisolated(unsafe) public let kSecAttrAccessGroupToken:                         CFString = "com.apple.token"

#endif
