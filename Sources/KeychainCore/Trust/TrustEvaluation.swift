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

package import Foundation

/// A trust to evaluate: the certificates, what they are trusted for, and what they may chain to.
package struct TrustRequest: Sendable {
    /// The DER of the leaf, then of any certificates that may help build its chain.
    package var certificates: [Data]
    /// The DER of the caller's anchors.
    package var anchors: [Data] = []
    /// Whether the system's anchors are trusted besides the caller's.
    package var trustsSystemAnchors = true
    /// The policies, all of which the chain must satisfy; none is the basic policy.
    package var policies: [TrustPolicy] = []
    /// The date the certificates must be valid on.
    package var date = Date()
    /// More candidate issuers (the keychain's certificates).
    package var candidateIssuers: [Data] = []
    /// Whether only the leaf's own checks count (its validity and each policy's checks), not its
    /// chain: Apple's leaf-only evaluation, with which a certificate search applies a policy.
    package var leafOnly = false

    package init(certificates: [Data]) {
        self.certificates = certificates
    }
}

/// What an evaluation found: the chain it built and the checks it failed.
package struct TrustOutcome: Sendable {
    /// The DER of the chain built, leaf first; as far as it could be built when there is no anchor.
    package var chain: [Data]
    /// The checks failed; empty when the chain is trusted for every policy.
    package var failures: [TrustFailure]

    package init(chain: [Data], failures: [TrustFailure]) {
        self.chain = chain
        self.failures = failures
    }
}

/// Evaluates trusts: the X.509 verifier linked into the program.
package protocol TrustEvaluator: Sendable {
    /// Builds the leaf's chain and checks it against the request's policies.
    ///
    /// - Parameter request: The certificates, anchors, policies and date.
    /// - Returns: The chain built and the checks failed.
    func evaluate(_ request: TrustRequest) -> TrustOutcome

    /// The DER of the system's anchors (the distribution's bundle).
    ///
    /// - Returns: The anchors, none when the system has no bundle.
    func systemAnchors() -> [Data]
}

/// The trust evaluator linked into this program, introduced when the program loads.
///
/// The evaluator stands on swift-certificates, which imports `Security` when it can: the mirror
/// modules cannot import it, so it registers itself here, as the engine does with `LinkedEngine`.
package enum LinkedTrustEvaluator {
    private static let registered = LockedState<(any TrustEvaluator)?>(nil)

    /// Makes `evaluator` the one trusts are evaluated with.
    ///
    /// - Parameter evaluator: The evaluator.
    package static func register(_ evaluator: any TrustEvaluator) {
        registered.withLock { $0 = evaluator }
    }

    /// The linked evaluator, or `nil` when the program was linked without it.
    package static var evaluator: (any TrustEvaluator)? {
        registered.withLock { $0 }
    }
}
