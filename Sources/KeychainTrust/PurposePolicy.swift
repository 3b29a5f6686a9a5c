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

import Foundation
import KeychainCore
import SwiftASN1
import X509

/// The checks of Apple's policies beyond RFC 5280's, as a verifier policy: the leaf's extended
/// key usage, host name or e-mail address.
struct PurposePolicy: VerifierPolicy, Sendable {
    /// The policies checked, all of which the leaf must satisfy.
    let policies: [TrustPolicy]

    /// The purposes' checks read the extended key usage and the alternative names.
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = [
        .X509ExtensionID.extendedKeyUsage, .X509ExtensionID.subjectAlternativeName,
    ]

    mutating func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        let failures = policies.flatMap { Self.failures(of: chain, for: $0) }
        guard let first = failures.first else { return .meetsPolicy }
        return .failsToMeetPolicy(reason: "the leaf fails \(first.rawValue)")
    }

    /// The checks of `policy` the chain's leaf fails.
    ///
    /// - Parameters:
    ///   - chain: The chain, of which only the leaf is checked.
    ///   - policy: The policy.
    /// - Returns: The failed checks, empty when the leaf is fit for the policy's purpose.
    static func failures(of chain: UnverifiedCertificateChain, for policy: TrustPolicy) -> [TrustCheck] {
        let leaf = chain.leaf
        var failures: [TrustCheck] = []
        if let usage = requiredUsage(policy.purpose), !permits(leaf, usage) {
            failures.append(.extendedKeyUsage)
        }
        if policy.purpose == .smime, !permitsSMIME(leaf) {
            failures.append(.keyUsage)
        }
        switch policy.purpose {
        case .sslServer, .ipsec, .eap:
            if !policy.names.isEmpty, !policy.names.contains(where: { carries(chain, hostName: $0) }) {
                failures.append(.sslHostname)
            }
        case .smime:
            if let address = policy.names.first, !carries(leaf, emailAddress: address) {
                failures.append(.email)
            }
        case .basic, .sslClient, .codeSigning, .timeStamping, .revocation:
            break
        }
        return failures
    }

    /// The extended key usage a purpose needs when the leaf restricts its usage.
    private static func requiredUsage(_ purpose: TrustPolicy.Purpose) -> ExtendedKeyUsage.Usage? {
        switch purpose {
        case .sslServer: .serverAuth
        case .sslClient: .clientAuth
        case .smime: .emailProtection
        case .codeSigning: .codeSigning
        case .timeStamping: .timeStamping
        case .basic, .ipsec, .eap, .revocation: nil
        }
    }

    /// Whether a leaf without the extension, with the usage or with any usage, may serve `usage`.
    private static func permits(_ leaf: Certificate, _ usage: ExtendedKeyUsage.Usage) -> Bool {
        guard leaf.extensions[oid: .X509ExtensionID.extendedKeyUsage] != nil else { return true }
        guard let extended = try? leaf.extensions.extendedKeyUsage else { return false }
        // S/MIME wants the usage itself; the others take "any usage" too (Apple's policies).
        return extended.contains(usage) || (usage != .emailProtection && extended.contains(.any))
    }

    /// Whether a leaf without key usage, or with one that signs or encrypts mail, may serve S/MIME
    /// (Apple's S/MIME policy accepts any of signing, key or data encipherment and key agreement).
    private static func permitsSMIME(_ leaf: Certificate) -> Bool {
        guard leaf.extensions[oid: .X509ExtensionID.keyUsage] != nil else { return true }
        guard let usage = try? leaf.extensions.keyUsage else { return false }
        return usage.digitalSignature || usage.keyEncipherment || usage.dataEncipherment || usage.keyAgreement
    }

    /// Whether the leaf names `hostName` (a DNS name, with a wildcard in its first label, or an IP address).
    ///
    /// swift-certificates' server identity policy decides, as a TLS client on Linux does.
    private static func carries(_ chain: UnverifiedCertificateChain, hostName: String) -> Bool {
        // Apple matches alternative names only: a leaf without them names no host (no fallback to
        // the common name, which swift-certificates still makes).
        guard chain.leaf.extensions[oid: .X509ExtensionID.subjectAlternativeName] != nil else { return false }
        let isAddress = hostName.contains(":") || hostName.allSatisfy { $0.isNumber || $0 == "." }
        var identity = ServerIdentityPolicy(
            serverHostname: isAddress ? nil : hostName,
            serverIP: isAddress ? hostName : nil
        )
        if case .meetsPolicy = identity.chainMeetsPolicyRequirements(chain: chain) { return true }
        return false
    }

    /// Whether the leaf carries `address` in its alternative names or its subject's e-mail attribute
    /// (compared without regard to case, as Apple does).
    private static func carries(_ leaf: Certificate, emailAddress address: String) -> Bool {
        let wanted = address.lowercased()
        if let names = try? leaf.extensions.subjectAlternativeNames {
            for name in names {
                if case .rfc822Name(let value) = name, value.lowercased() == wanted { return true }
            }
        }
        for relative in leaf.subject {
            for attribute in relative where attribute.type == .RDNAttributeType.emailAddress {
                if String(describing: attribute.value).lowercased() == wanted { return true }
            }
        }
        return false
    }
}
