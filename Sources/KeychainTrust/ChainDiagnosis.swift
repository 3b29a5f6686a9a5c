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
@_spi(FixedExpiryValidationTime) import X509

/// Why a chain the verifier refused is refused: the chain built as far as it goes, and the checks
/// its certificates fail, named as Apple names them.
///
/// It never decides trust: it runs only after the verifier found no trusted chain, and always
/// names at least one failure.
struct ChainDiagnosis {
    /// The longest chain a refused trust reports: the diagnosis stops building there.
    static let maximumLength = 16

    /// The chain built, leaf first.
    let chain: [Certificate]
    /// Whether the chain ends in an anchor.
    let isAnchored: Bool

    /// Builds the leaf's chain, preferring anchors, through issuers whose signature verifies.
    ///
    /// - Parameters:
    ///   - leaf: The leaf.
    ///   - candidates: Certificates that may issue others in the chain.
    ///   - anchors: The trusted anchors.
    init(leaf: Certificate, candidates: [Certificate], anchors: [Certificate]) {
        var chain = [leaf]
        var anchored = anchors.contains(leaf)
        while !anchored, chain.count < Self.maximumLength, let tip = chain.last, tip.subject != tip.issuer {
            let next = (anchors + candidates).first { candidate in
                candidate.subject == tip.issuer && !chain.contains(candidate)
                    && candidate.publicKey.isValidSignature(tip.signature, for: tip)
            }
            guard let next else { break }
            chain.append(next)
            anchored = anchors.contains(next)
        }
        self.chain = chain
        self.isAnchored = anchored
    }

    /// The leaf alone, for its own checks.
    ///
    /// - Parameter leaf: The leaf.
    init(leaf: Certificate) {
        self.chain = [leaf]
        self.isAnchored = false
    }

    /// The checks the leaf alone fails for `policies` on `date`: its validity, its critical
    /// extensions and each policy's checks of a leaf (Apple's leaf-only evaluation).
    ///
    /// - Parameters:
    ///   - policies: The policies of the trust.
    ///   - date: The date the leaf must be valid on.
    /// - Returns: The failed checks, empty when the leaf passes.
    func leafFailures(_ policies: [TrustPolicy], on date: Date) -> [TrustFailure] {
        let leaf = chain[0]
        var failures: [TrustFailure] = []
        if date < leaf.notValidBefore || date > leaf.notValidAfter {
            failures.append(TrustFailure(index: 0, check: .temporalValidity))
        }
        if Self.hasUnknownCriticalExtension(leaf) {
            failures.append(TrustFailure(index: 0, check: .criticalExtensions))
        }
        for policy in policies {
            failures += PurposePolicy.failures(of: [leaf], for: policy)
        }
        return failures
    }

    /// The checks the chain fails for `policies` on `date`; never empty.
    ///
    /// - Parameters:
    ///   - policies: The policies of the trust.
    ///   - date: The date the certificates must be valid on.
    /// - Returns: The failed checks, by position in the chain.
    func failures(_ policies: [TrustPolicy], on date: Date) -> [TrustFailure] {
        var failures: [TrustFailure] = []
        let last = chain.count - 1
        if !isAnchored {
            let tip = chain[last]
            let isRoot = tip.subject == tip.issuer && tip.publicKey.isValidSignature(tip.signature, for: tip)
            failures.append(TrustFailure(index: last, check: isRoot ? .anchorTrusted : .missingIntermediate))
        }
        for (index, certificate) in chain.enumerated() {
            if date < certificate.notValidBefore || date > certificate.notValidAfter {
                failures.append(TrustFailure(index: index, check: .temporalValidity))
            }
            if Self.hasUnknownCriticalExtension(certificate) {
                failures.append(TrustFailure(index: index, check: .criticalExtensions))
            }
            if index > 0, let check = Self.issuingFailure(of: certificate, below: index - 1) {
                failures.append(TrustFailure(index: index, check: check))
            }
        }
        for policy in policies {
            failures += PurposePolicy.failures(of: chain, for: policy)
        }
        if failures.isEmpty {
            // The verifier refused the chain for a rule the diagnosis does not single out (a name
            // constraint, most likely): the chain is not trusted, whatever else holds.
            failures.append(TrustFailure(index: last, check: isAnchored ? .nameConstraints : .anchorTrusted))
        }
        return failures
    }

    /// The extensions the evaluator's policies enforce; any other critical one refuses a chain.
    private static let enforced: Set<ASN1ObjectIdentifier> = [
        .X509ExtensionID.basicConstraints, .X509ExtensionID.nameConstraints, .X509ExtensionID.keyUsage,
        .X509ExtensionID.extendedKeyUsage, .X509ExtensionID.subjectAlternativeName,
    ]

    private static func hasUnknownCriticalExtension(_ certificate: Certificate) -> Bool {
        certificate.extensions.contains { $0.critical && !enforced.contains($0.oid) }
    }

    /// Why an issuer may not issue the certificate below it, with `intermediates` certificate
    /// authorities between it and the leaf; `nil` when it may (Apple's checks of a parent).
    private static func issuingFailure(of issuer: Certificate, below intermediates: Int) -> TrustCheck? {
        guard issuer.extensions[oid: .X509ExtensionID.basicConstraints] != nil else {
            // Version 1 roots carry no extensions; a version 3 issuer must say it is an authority.
            return issuer.version == .v1 ? nil : .basicConstraints
        }
        guard case .isCertificateAuthority(let maximum)? = try? issuer.extensions.basicConstraints else {
            return .basicConstraintsCA
        }
        if let maximum, intermediates > maximum { return .basicConstraintsPathLength }
        if issuer.extensions[oid: .X509ExtensionID.keyUsage] != nil {
            guard let usage = try? issuer.extensions.keyUsage, usage.keyCertSign else { return .keyUsage }
        }
        return nil
    }
}
