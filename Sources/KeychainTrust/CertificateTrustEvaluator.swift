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

/// Evaluates trusts with swift-certificates' `Verifier`: RFC 5280's checks on the date asked,
/// then each policy's checks of the leaf.
///
/// The verifier alone decides that a chain is trusted. When it finds none, ``ChainDiagnosis``
/// builds the chain as far as it goes and names the checks it fails, for Apple's error codes; the
/// verifier then checks that those failures are the whole story (see ``completed(_:leaf:supplied:anchors:policies:date:)``).
struct CertificateTrustEvaluator: TrustEvaluator {
    /// The most certificates a trust may offer as issuers (the trust's own and the keychain's);
    /// more are ignored, so that a peer cannot make chain building explore without end.
    static let maximumCandidates = 64

    func evaluate(_ request: TrustRequest) -> TrustOutcome {
        guard let leafDER = request.certificates.first else {
            return TrustOutcome(chain: [], failures: [TrustFailure(index: 0, check: .missingIntermediate)])
        }
        guard let leaf = Self.certificate(leafDER) else {
            return TrustOutcome(chain: [leafDER], failures: [TrustFailure(index: 0, check: .unreadable)])
        }
        let policies = request.policies.isEmpty ? [TrustPolicy(.basic)] : request.policies
        // Revocation is never checked here: a policy that requires a positive answer is never met.
        let unmetRevocation =
            policies.contains(where: \.requiresRevocationResponse)
            ? [TrustFailure(index: 0, check: .revocationResponseRequired)] : []
        // The leaf alone: for a search's leaf-only evaluation, and for a leaf that is itself an
        // anchor (a pinned server certificate), trusted as it is once fit for the purpose on the
        // date — whatever its basic constraints say.
        let leafAlone = {
            TrustOutcome(
                chain: [leafDER],
                failures: ChainDiagnosis(leaf: leaf).leafFailures(policies, on: request.date) + unmetRevocation
            )
        }
        if request.leafOnly { return leafAlone() }
        var anchors = request.anchors.compactMap(Self.certificate)
        if request.trustsSystemAnchors { anchors += SystemAnchors.certificates }
        if anchors.contains(leaf) { return leafAlone() }
        var seen: Set<Data> = [leafDER]
        let offered = (request.certificates.dropFirst() + request.candidateIssuers).filter { seen.insert($0).inserted }
        let supplied = offered.prefix(Self.maximumCandidates).compactMap(Self.certificate)
        let result = Self.verify(leaf, supplied: supplied, anchors: anchors, policies: policies, on: request.date)
        if case .validCertificate(let chain) = result {
            return TrustOutcome(chain: chain.map(Self.der), failures: unmetRevocation)
        }
        let diagnosis = ChainDiagnosis(leaf: leaf, candidates: supplied, anchors: anchors)
        let failures = Self.completed(
            diagnosis.failures(policies, on: request.date),
            diagnosis: diagnosis,
            supplied: supplied,
            anchors: anchors,
            policies: policies,
            date: request.date
        )
        return TrustOutcome(chain: diagnosis.chain.map(Self.der), failures: failures + unmetRevocation)
    }

    /// The verifier's answer for `leaf`: RFC 5280 on `date`, and the purposes' checks unless `purposes` is false.
    private static func verify(
        _ leaf: Certificate,
        supplied: [Certificate],
        anchors: [Certificate],
        policies: [TrustPolicy],
        on date: Date,
        purposes: Bool = true
    ) -> CertificateValidationResult {
        let checked = purposes ? policies : [TrustPolicy(.basic)]
        return CallingThreadExecutor.run {
            var verifier = Verifier(rootCertificates: CertificateStore(anchors)) {
                RFC5280Policy(fixedExpiryValidationTime: date)
                PurposePolicy(policies: checked)
            }
            let intermediates = CertificateStore(custom: BudgetedCertificateStore(supplied))
            return await verifier.validate(leaf: leaf, intermediates: intermediates)
        }
    }

    /// The diagnosed failures, with one more when they do not explain the verifier's refusal.
    ///
    /// The verifier runs again with each diagnosed failure forgiven — a date within every
    /// certificate's validity, the chain's last certificate as an anchor, no purpose — and if it
    /// still refuses, something the diagnosis cannot name (a name constraint, most likely) is
    /// wrong too: an exception made for the named failures must not accept it.
    private static func completed(
        _ failures: [TrustFailure],
        diagnosis: ChainDiagnosis,
        supplied: [Certificate],
        anchors: [Certificate],
        policies: [TrustPolicy],
        date: Date
    ) -> [TrustFailure] {
        let forgivable: Set<TrustCheck> = [
            .temporalValidity, .anchorTrusted, .missingIntermediate, .sslHostname, .email, .extendedKeyUsage,
            .keyUsage, .signatureHashAlgorithms,
        ]
        guard failures.allSatisfy({ forgivable.contains($0.check) }) else { return failures }
        let chain = diagnosis.chain
        var forgivenDate = date
        if failures.contains(where: { $0.check == .temporalValidity }) {
            let start = chain.map(\.notValidBefore).max() ?? date
            let end = chain.map(\.notValidAfter).min() ?? date
            guard start <= end else { return failures }  // no date suits them all: the dates are the story
            forgivenDate = start
        }
        var forgivenAnchors = anchors
        if failures.contains(where: { $0.check == .anchorTrusted || $0.check == .missingIntermediate }),
            let last = chain.last
        {
            // A lone leaf as its own anchor is judged by its own checks, which the diagnosis made.
            guard chain.count > 1 else { return failures }
            forgivenAnchors.append(last)
        }
        let purposes = !failures.contains {
            ![.temporalValidity, .anchorTrusted, .missingIntermediate].contains($0.check)
        }
        let again = verify(
            chain[0],
            supplied: Array(chain.dropFirst()) + supplied,
            anchors: forgivenAnchors,
            policies: policies,
            on: forgivenDate,
            purposes: purposes
        )
        if case .validCertificate = again { return failures }
        return failures + [TrustFailure(index: chain.count - 1, check: .nameConstraints)]
    }

    func systemAnchors() -> [Data] {
        SystemAnchors.certificates.map(Self.der)
    }

    /// The certificate in `der`, or `nil` when swift-certificates cannot read it.
    static func certificate(_ der: Data) -> Certificate? {
        try? Certificate(derEncoded: Array(der))
    }

    /// The DER encoding of a certificate the verifier read (and so can write).
    static func der(_ certificate: Certificate) -> Data {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate)) != nil else { return Data() }
        return Data(serializer.serializedBytes)
    }
}
