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
import Foundation

// The policy identifiers: Apple's object identifiers, as strings (SecPolicy.c).

/// The basic X.509 policy: a chain to a trusted anchor, each certificate valid on the date.
nonisolated(unsafe) public let kSecPolicyAppleX509Basic: CFString = SecConstantString("1.2.840.113635.100.1.2")
/// TLS: the basic policy, the server (or client) authentication purpose and the host name.
nonisolated(unsafe) public let kSecPolicyAppleSSL: CFString = SecConstantString("1.2.840.113635.100.1.3")
/// S/MIME: the basic policy, the e-mail protection purpose and the e-mail address.
nonisolated(unsafe) public let kSecPolicyAppleSMIME: CFString = SecConstantString("1.2.840.113635.100.1.8")
/// EAP (802.1X): the basic policy and the trusted server names.
nonisolated(unsafe) public let kSecPolicyAppleEAP: CFString = SecConstantString("1.2.840.113635.100.1.9")
/// IPsec: the basic policy and the host name.
nonisolated(unsafe) public let kSecPolicyAppleIPsec: CFString = SecConstantString("1.2.840.113635.100.1.11")
/// Kerberos PKINIT, client side (Apple's own; not created here).
nonisolated(unsafe) public let kSecPolicyApplePKINITClient: CFString = SecConstantString("1.2.840.113635.100.1.14")
/// Kerberos PKINIT, server side (Apple's own; not created here).
nonisolated(unsafe) public let kSecPolicyApplePKINITServer: CFString = SecConstantString("1.2.840.113635.100.1.15")
/// Code signing: the basic policy and the code-signing purpose.
nonisolated(unsafe) public let kSecPolicyAppleCodeSigning: CFString = SecConstantString("1.2.840.113635.100.1.16")
/// Apple ID validation (Apple's own roots; not created here).
nonisolated(unsafe) public let kSecPolicyAppleIDValidation: CFString = SecConstantString("1.2.840.113635.100.1.18")
/// Mac App Store receipts (Apple's own roots; not created here).
nonisolated(unsafe) public let kSecPolicyMacAppStoreReceipt: CFString = SecConstantString("1.2.840.113635.100.1.19")
/// Time stamping: the basic policy and the time-stamping purpose.
nonisolated(unsafe) public let kSecPolicyAppleTimeStamping: CFString = SecConstantString("1.2.840.113635.100.1.20")
/// Revocation checking.
nonisolated(unsafe) public let kSecPolicyAppleRevocation: CFString = SecConstantString("1.2.840.113635.100.1.21")
/// Wallet passes (Apple's own roots; not created here).
nonisolated(unsafe) public let kSecPolicyApplePassbookSigning: CFString = SecConstantString("1.2.840.113635.100.1.22")

// The keys of a policy's properties (SecPolicyCreateWithProperties, SecPolicyCopyProperties).

/// The policy's identifier, one of the constants above.
nonisolated(unsafe) public let kSecPolicyOid: CFString = SecConstantString("SecPolicyOid")
/// The name the leaf must carry: a host name (SSL, IPsec), an e-mail address (S/MIME), the
/// trusted server names (EAP, an array).
nonisolated(unsafe) public let kSecPolicyName: CFString = SecConstantString("SecPolicyName")
/// Whether the policy evaluates a client's certificate (SSL, IPsec, EAP), not a server's.
nonisolated(unsafe) public let kSecPolicyClient: CFString = SecConstantString("SecPolicyClient")
/// A revocation policy's flags.
nonisolated(unsafe) public let kSecPolicyRevocationFlags: CFString = SecConstantString("SecPolicyRevocationFlags")
/// A team identifier (Wallet passes).
nonisolated(unsafe) public let kSecPolicyTeamIdentifier: CFString = SecConstantString("SecPolicyTeamIdentifier")

// The flags of SecPolicyCreateRevocation. Revocation is not checked on Linux (no OCSP or CRL
// fetching): the policy is accepted and says so in its properties, and evaluations ignore it.

/// Check with OCSP.
public let kSecRevocationOCSPMethod: Int = 1 << 0
/// Check with CRLs.
public let kSecRevocationCRLMethod: Int = 1 << 1
/// Prefer CRLs to OCSP.
public let kSecRevocationPreferCRL: Int = 1 << 2
/// Fail without a positive answer.
public let kSecRevocationRequirePositiveResponse: Int = 1 << 3
/// Use no network: cached answers only.
public let kSecRevocationNetworkAccessDisabled: Int = 1 << 4
/// Check online now, not from a cache.
public let kSecRevocationOnlineCheck: Int = 1 << 5
/// Check only once the chain is trusted.
public let kSecRevocationCheckIfTrusted: Int = 1 << 6
/// OCSP or CRLs, whichever is available.
public let kSecRevocationUseAnyAvailableMethod: Int = kSecRevocationOCSPMethod | kSecRevocationCRLMethod
#endif
