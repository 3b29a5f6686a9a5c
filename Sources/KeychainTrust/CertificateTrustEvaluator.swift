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
/// builds the chain as far as it goes and names the checks it fails, for Apple's error codes.
struct CertificateTrustEvaluator: TrustEvaluator {
    func evaluate(_ request: TrustRequest) -> TrustOutcome {
        guard let leafDER = request.certificates.first else {
            return TrustOutcome(chain: [], failures: [TrustFailure(index: 0, check: .missingIntermediate)])
        }
        guard let leaf = Self.certificate(leafDER) else {
            return TrustOutcome(chain: [leafDER], failures: [TrustFailure(index: 0, check: .unreadable)])
        }
        let policies = request.policies.isEmpty ? [TrustPolicy(.basic)] : request.policies
        if request.leafOnly {
            let diagnosis = ChainDiagnosis(leaf: leaf)
            return TrustOutcome(chain: [leafDER], failures: diagnosis.leafFailures(policies, on: request.date))
        }
        let supplied = (request.certificates.dropFirst() + request.candidateIssuers).compactMap(Self.certificate)
        var anchors = request.anchors.compactMap(Self.certificate)
        if request.trustsSystemAnchors { anchors += SystemAnchors.certificates }
        let date = request.date
        let roots = anchors
        let result = CallingThreadExecutor.run {
            var verifier = Verifier(rootCertificates: CertificateStore(roots)) {
                RFC5280Policy(fixedExpiryValidationTime: date)
                PurposePolicy(policies: policies)
            }
            return await verifier.validate(leaf: leaf, intermediates: CertificateStore(supplied))
        }
        if case .validCertificate(let chain) = result {
            return TrustOutcome(chain: chain.map(Self.der), failures: [])
        }
        let diagnosis = ChainDiagnosis(leaf: leaf, candidates: supplied, anchors: anchors)
        return TrustOutcome(chain: diagnosis.chain.map(Self.der), failures: diagnosis.failures(policies, on: date))
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
