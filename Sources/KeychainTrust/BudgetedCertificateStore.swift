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
import X509

/// The candidate issuers of one chain building, answering a bounded number of look-ups.
///
/// swift-certificates' verifier explores every path through the issuers it is given; certificates
/// that all name one another (the same subject and issuer, different contents) make those paths
/// factorial in number. After ``budget`` look-ups the store finds nothing more, and the chain is
/// not trusted — as Go and webpki bound their path building.
struct BudgetedCertificateStore: CustomCertificateStore {
    /// The look-ups one evaluation may make: far more than any real chain needs (one per certificate).
    static let budget = 128

    private var certificates: [DistinguishedName: [Certificate]]
    private let remaining: LockedState<Int>
    /// Tells stores apart (the protocol wants them hashable).
    private let identity = UUID()

    init(_ certificates: [Certificate]) {
        self.certificates = Dictionary(grouping: certificates, by: \.subject)
        remaining = LockedState(Self.budget)
    }

    subscript(subject: DistinguishedName) -> [Certificate]? {
        get async {
            let allowed = remaining.withLock { count in
                count -= 1
                return count >= 0
            }
            return allowed ? certificates[subject] : nil
        }
    }

    func contains(_ certificate: Certificate) async -> Bool {
        certificates[certificate.subject]?.contains(certificate) ?? false
    }

    mutating func append(contentsOf certificates: some Sequence<Certificate>) {
        for certificate in certificates { self.certificates[certificate.subject, default: []].append(certificate) }
    }

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.identity == rhs.identity
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }
}
