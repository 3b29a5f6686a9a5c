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
import KeychainCore

/// The error of a trust that is not trusted, as Apple's `SecTrustEvaluateWithError` makes it
/// (`SecTrust.c`, `SecPolicyChecks.list`): the status of the most serious failure — by kind, then
/// nearest the leaf — a description naming the certificate that failed it, and an underlying error
/// listing every certificate's failures.
enum TrustErrors {
    /// Apple's kinds of failure, the most serious first (`SecTrustInternal.h`).
    enum Kind: Int, Comparable {
        case weakHash = 3
        case compliance = 5
        case pinning = 6
        case trust = 7
        case usage = 8
        case name = 9
        case expired = 10

        static func < (lhs: Kind, rhs: Kind) -> Bool {
            lhs.rawValue < rhs.rawValue
        }

        /// What the description says of the certificate.
        var phrase: String {
            switch self {
            case .weakHash: "certificate is using a broken signature algorithm"
            case .pinning: "certificates do not meet pinning requirements"
            case .compliance: "certificate is not standards compliant"
            case .trust: "certificate is not trusted"
            case .usage: "certificate is not permitted for this usage"
            case .name: "certificate name does not match input"
            case .expired: "certificate is expired"
            }
        }
    }

    /// The kind of a failed check.
    static func kind(of check: TrustCheck) -> Kind {
        switch check {
        case .temporalValidity: .expired
        case .anchorTrusted, .missingIntermediate: .trust
        case .basicConstraints, .basicConstraintsCA, .basicConstraintsPathLength, .criticalExtensions,
            .nameConstraints, .unreadable:
            .compliance
        case .sslHostname, .email: .name
        case .extendedKeyUsage, .keyUsage: .usage
        case .signatureHashAlgorithms: .weakHash
        case .revocationResponseRequired: .pinning
        }
    }

    /// Apple's status for a failed check.
    static func status(for check: TrustCheck) -> OSStatus {
        switch check {
        case .temporalValidity: errSecCertificateExpired
        case .anchorTrusted: errSecNotTrusted
        case .missingIntermediate: errSecCreateChainFailed
        case .basicConstraints: errSecNoBasicConstraints
        case .basicConstraintsCA: errSecNoBasicConstraintsCA
        case .basicConstraintsPathLength: errSecPathLengthConstraintExceeded
        case .criticalExtensions: errSecUnknownCriticalExtensionFlag
        case .nameConstraints: errSecInvalidName
        case .unreadable: errSecInvalidCertificateRef
        case .sslHostname: errSecHostNameMismatch
        case .email: errSecSMIMEEmailAddressesNotFound
        case .extendedKeyUsage: errSecInvalidExtendedKeyUsage
        case .keyUsage: errSecInvalidKeyUsageForPolicy
        case .signatureHashAlgorithms: errSecInvalidDigestAlgorithm
        case .revocationResponseRequired: errSecIncompleteCertRevocationCheck
        }
    }

    /// Apple's words for a failed check, in the underlying error.
    static func detail(of check: TrustCheck) -> String {
        switch check {
        case .temporalValidity: "Certificate is not temporally valid"
        case .anchorTrusted: "Root is not trusted"
        case .missingIntermediate: "Unable to build chain to root (possible missing intermediate)"
        case .basicConstraints: "Basic constraints are required but missing"
        case .basicConstraintsCA: "Non-CA certificate used as a CA"
        case .basicConstraintsPathLength: "Chain exceeded constrained path length"
        case .criticalExtensions: "Found unknown critical extensions"
        case .nameConstraints: "Name constraints violated"
        case .unreadable: "Certificate cannot be parsed"
        case .sslHostname: "SSL hostname does not match name(s) in certificate"
        case .email: "Email address does not match name(s) in certificate"
        case .extendedKeyUsage: "Extended key usage does not match certificate usage"
        case .keyUsage: "Key usage does not match certificate usage"
        case .signatureHashAlgorithms: "Signature hash algorithm is not permitted for this use"
        case .revocationResponseRequired: "Failed to check revocation"
        }
    }

    /// The error for `failures` (not empty) of `chain`.
    static func error(for failures: [TrustFailure], chain: [SecCertificate]) -> NSError {
        let worst = failures.min { (kind(of: $0.check), $0.index) < (kind(of: $1.check), $1.index) }
        let failure = worst ?? TrustFailure(index: 0, check: .anchorTrusted)
        let code = Int(status(for: failure.check))
        let description = "“\(name(at: failure.index, in: chain))” \(kind(of: failure.check).phrase)"
        var details = ""
        for index in Set(failures.map(\.index)).sorted() {
            let checks = failures.filter { $0.index == index }.map { detail(of: $0.check) }
            details += "Certificate \(index) “\(name(at: index, in: chain))” has errors: "
            details += checks.joined(separator: ", ") + ";"
        }
        let underlying = NSError(
            domain: NSOSStatusErrorDomain,
            code: code,
            userInfo: [NSLocalizedDescriptionKey: details]
        )
        return NSError(
            domain: NSOSStatusErrorDomain,
            code: code,
            userInfo: [NSLocalizedDescriptionKey: description, NSUnderlyingErrorKey: underlying]
        )
    }

    /// The subject summary of the certificate at `index`.
    private static func name(at index: Int, in chain: [SecCertificate]) -> String {
        guard chain.indices.contains(index) else { return "certificate" }
        return (SecCertificateCopySubjectSummary(chain[index]) as String?) ?? "certificate"
    }
}
#endif
