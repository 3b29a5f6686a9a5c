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

/// What a certificate chain is evaluated for (Apple's `SecPolicyRef`): a policy identifier, the
/// name the leaf must carry, and whether a client or a server presents it.
///
/// Policies compare equal when all of that is equal, as `CFEqual` compares two policies' object
/// identifier and options.
public final class SecPolicy: Hashable, Sendable {
    /// One of the `kSecPolicyApple…` identifiers.
    let identifier: String
    /// The host names (SSL, IPsec), e-mail address (S/MIME) or server names (EAP) the leaf must carry.
    let names: [String]
    /// Whether a client presents the certificate (SSL, IPsec, EAP); a server otherwise.
    let isClient: Bool
    /// A revocation policy's `kSecRevocation…` flags.
    let revocationFlags: CFOptionFlags?

    init(identifier: CFString, names: [String] = [], isClient: Bool = false, revocationFlags: CFOptionFlags? = nil) {
        self.identifier = String(identifier)
        self.names = names
        self.isClient = isClient
        self.revocationFlags = revocationFlags
    }

    public static func == (lhs: SecPolicy, rhs: SecPolicy) -> Bool {
        lhs.identifier == rhs.identifier && lhs.names == rhs.names && lhs.isClient == rhs.isClient
            && lhs.revocationFlags == rhs.revocationFlags
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identifier)
        hasher.combine(names)
        hasher.combine(isClient)
        hasher.combine(revocationFlags)
    }

    /// The policies whose leaf may carry a name, and the one the name's property is a list for.
    private static let named: Set<String> = [
        kSecPolicyAppleSSL as String, kSecPolicyAppleIPsec as String, kSecPolicyAppleSMIME as String,
        kSecPolicyAppleEAP as String,
    ]
    /// The policies a client or a server may present a certificate for.
    private static let sided: Set<String> = [
        kSecPolicyAppleSSL as String, kSecPolicyAppleIPsec as String, kSecPolicyAppleEAP as String,
    ]

    /// The policies `SecPolicyCreateWithProperties` makes: those of public roots and standard purposes.
    ///
    /// Apple's own (PKINIT, App Store receipts, Apple ID, Wallet) need Apple's roots and markers,
    /// and are not made here.
    static let created: Set<String> = named.union([
        kSecPolicyAppleX509Basic as String, kSecPolicyAppleRevocation as String,
        kSecPolicyAppleCodeSigning as String, kSecPolicyAppleTimeStamping as String,
    ])

    /// The properties, as `SecPolicyCopyProperties` reports them.
    var properties: [String: Any] {
        var properties: [String: Any] = [kSecPolicyOid as String: identifier]
        if let first = names.first {
            properties[kSecPolicyName as String] = identifier == kSecPolicyAppleEAP as String ? names : first
        }
        if isClient, Self.sided.contains(identifier) { properties[kSecPolicyClient as String] = true }
        return properties
    }

    /// A policy `identifier` with the properties Apple reads for it, or `nil` when it is not one
    /// made here or a property has the wrong type.
    static func make(_ identifier: String, _ properties: [String: Any]) -> SecPolicy? {
        guard created.contains(identifier) else { return nil }
        var names: [String] = []
        switch properties[kSecPolicyName as String] {
        case nil: break
        case let name as String where named.contains(identifier): names = [name]
        case let list as [String] where identifier == kSecPolicyAppleEAP as String: names = list
        default: if named.contains(identifier) { return nil }
        }
        let isClient = (properties[kSecPolicyClient as String] as? Bool) == true && sided.contains(identifier)
        if identifier == kSecPolicyAppleRevocation as String {
            return SecPolicy(
                identifier: kSecPolicyAppleRevocation,
                revocationFlags: CFOptionFlags(kSecRevocationUseAnyAvailableMethod)
            )
        }
        return SecPolicy(identifier: identifier as NSString, names: names, isClient: isClient)
    }
}

/// Returns a policy for the basic X.509 checks: a chain to a trusted anchor, every certificate
/// valid on the verification date.
@discardableResult
public func SecPolicyCreateBasicX509() -> SecPolicy {
    SecPolicy(identifier: kSecPolicyAppleX509Basic)
}

/// Returns a policy for TLS certificates.
///
/// - Parameters:
///   - server: `true` for a server's certificate (server authentication), `false` for a client's.
///   - hostname: The host name the leaf must carry, or `nil` for none.
/// - Returns: The policy.
@discardableResult
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy {
    SecPolicy(identifier: kSecPolicyAppleSSL, names: hostname.map { [$0 as String] } ?? [], isClient: !server)
}

/// Returns a revocation policy, or `nil` when `revocationFlags` is 0 or has a bit Apple does not define.
///
/// Revocation is not checked on Linux: the policy is accepted (so that code written for Apple
/// platforms runs), and an evaluation neither fetches OCSP answers nor CRLs.
@discardableResult
public func SecPolicyCreateRevocation(_ revocationFlags: CFOptionFlags) -> SecPolicy? {
    guard revocationFlags != 0, revocationFlags >> 7 == 0 else { return nil }
    return SecPolicy(identifier: kSecPolicyAppleRevocation, revocationFlags: revocationFlags)
}

/// Returns the policy `policyIdentifier` (a `kSecPolicyApple…` constant) with `properties`
/// (`kSecPolicyName`, `kSecPolicyClient`), or `nil` when it cannot be made here.
@discardableResult
public func SecPolicyCreateWithProperties(_ policyIdentifier: CFTypeRef, _ properties: CFDictionary?) -> SecPolicy? {
    guard let identifier = policyIdentifier as? String else { return nil }
    return SecPolicy.make(identifier, (properties as? [String: Any]) ?? [:])
}

/// Returns a policy's properties: `kSecPolicyOid`, and where they apply `kSecPolicyName` and `kSecPolicyClient`.
@discardableResult
public func SecPolicyCopyProperties(_ policyRef: SecPolicy) -> CFDictionary? {
    policyRef.properties as NSDictionary
}
#endif
