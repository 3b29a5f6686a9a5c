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
        let certificates = Array(chain)
        let failures = policies.flatMap { Self.failures(of: certificates, for: $0) }
        guard let first = failures.first else { return .meetsPolicy }
        return .failsToMeetPolicy(reason: "certificate \(first.index) fails \(first.check.rawValue)")
    }

    /// The checks of `policy` the chain fails: the leaf's fitness for the purpose, and for a TLS
    /// server the signatures of its certificates.
    ///
    /// - Parameters:
    ///   - chain: The chain, leaf first (the leaf alone for Apple's leaf-only evaluation).
    ///   - policy: The policy.
    /// - Returns: The failed checks by position, empty when the chain is fit for the policy's purpose.
    static func failures(of chain: [Certificate], for policy: TrustPolicy) -> [TrustFailure] {
        guard let leaf = chain.first else { return [] }
        var failures: [TrustCheck] = []
        if let usage = requiredUsage(policy.purpose), !permits(leaf, usage) {
            failures.append(.extendedKeyUsage)
        }
        if policy.purpose == .smime, !permitsSMIME(leaf) {
            failures.append(.keyUsage)
        }
        switch policy.purpose {
        case .sslServer, .ipsec, .eap:
            if !policy.names.isEmpty, !policy.names.contains(where: { HostNameMatch.leaf(leaf, names: $0) }) {
                failures.append(.sslHostname)
            }
        case .smime:
            if let address = policy.names.first, !carries(chain, emailAddress: address) {
                failures.append(.email)
            }
        case .basic, .sslClient, .codeSigning, .timeStamping, .revocation:
            break
        }
        var found = failures.map { TrustFailure(index: 0, check: $0) }
        if policy.purpose == .sslServer {
            // Apple's SSL policy refuses SHA-1 and MD5 signatures but on a self-signed root.
            for (index, certificate) in chain.enumerated()
            where certificate.subject != certificate.issuer && weakSignatures.contains(certificate.signatureAlgorithm) {
                found.append(TrustFailure(index: index, check: .signatureHashAlgorithms))
            }
        }
        return found
    }

    /// The signature algorithms a TLS server's chain may not use.
    private static let weakSignatures: Set<Certificate.SignatureAlgorithm> = [.sha1WithRSAEncryption]

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

    /// Whether the leaf carries `address`, in any case: in its alternative names, or — when it has
    /// no e-mail name and no issuer in the chain constrains names — in its subject's `emailAddress`
    /// (Apple's check; swift-certificates holds only alternative names to name constraints, so a
    /// constrained issuer's subject address would otherwise pass unchecked).
    private static func carries(_ chain: [Certificate], emailAddress address: String) -> Bool {
        guard let leaf = chain.first else { return false }
        let wanted = address.lowercased()
        var alternativeAddresses: [String] = []
        if let names = try? leaf.extensions.subjectAlternativeNames {
            for name in names {
                if case .rfc822Name(let value) = name { alternativeAddresses.append(value.lowercased()) }
            }
        }
        if !alternativeAddresses.isEmpty { return alternativeAddresses.contains(wanted) }
        let constrained = chain.dropFirst().contains { $0.extensions[oid: .X509ExtensionID.nameConstraints] != nil }
        guard !constrained else { return false }
        for relative in leaf.subject {
            for attribute in relative where attribute.type == .RDNAttributeType.emailAddress {
                if String(attribute.value)?.lowercased() == wanted { return true }
            }
        }
        return false
    }
}
