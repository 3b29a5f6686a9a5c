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
import KeychainCore
import KeychainDevice

/// What one evaluation of a trust found.
struct TrustEvaluationResult: Sendable {
    /// The chain built, leaf first.
    var chain: [SecCertificate]
    /// The checks failed, accepted ones included.
    var failures: [TrustFailure]
    /// The result.
    var result: SecTrustResultType
    /// The date the certificates were checked on.
    var date: Date
    /// Why the chain is not trusted; `nil` when it is.
    var error: NSError?
}

extension SecTrust {
    /// The last evaluation, or a new one when an input changed since.
    func evaluated() -> TrustEvaluationResult {
        let snapshot = state.withLock { $0 }
        if let evaluation = snapshot.evaluation { return evaluation }
        let evaluation = Self.evaluate(snapshot)
        state.withLock { state in
            if state.generation == snapshot.generation { state.evaluation = evaluation }
        }
        return evaluation
    }

    private static func evaluate(_ state: State) -> TrustEvaluationResult {
        let date = state.verifyDate ?? Date()
        guard let evaluator = LinkedTrustEvaluator.evaluator else {
            let error = NSError(
                domain: NSOSStatusErrorDomain,
                code: Int(errSecUnimplemented),
                userInfo: [NSLocalizedDescriptionKey: "no trust evaluator is linked into this program"]
            )
            return TrustEvaluationResult(
                chain: state.certificates,
                failures: [],
                result: .otherError,
                date: date,
                error: error
            )
        }
        var request = TrustRequest(certificates: state.certificates.map(\.der))
        request.anchors = (state.anchors ?? []).map(\.der)
        request.trustsSystemAnchors = !state.anchorsOnly
        request.policies = state.policies.map(\.trustPolicy)
        request.date = date
        var outcome = evaluator.evaluate(request)
        if state.keychainsAllowed, outcome.failures.contains(where: { $0.check == .missingIntermediate }) {
            // As on macOS, the keychain's certificates may complete a chain the trust's own cannot.
            let held = keychainCertificates()
            if !held.isEmpty {
                request.candidateIssuers = held
                outcome = evaluator.evaluate(request)
            }
        }
        var userTrusted = false
        if !state.anchorsOnly, state.keychainsAllowed,
            outcome.failures.contains(where: { $0.check == .anchorTrusted || $0.check == .missingIntermediate })
        {
            // The user's trust settings (`security add-trusted-cert`): read only when the system's
            // and the caller's anchors do not do, so that a trust that needs none touches no keychain.
            let userAnchors = UserTrustSettings.anchors(for: state.policies)
            if !userAnchors.isEmpty {
                var withUser = request
                withUser.anchors += userAnchors
                let second = evaluator.evaluate(withUser)
                if second.failures.count < outcome.failures.count || second.failures.isEmpty {
                    userTrusted = second.chain.last.map(userAnchors.contains) ?? false
                    outcome = second
                }
            }
        }
        // One certificate per position, so that failures and exceptions name the right one.
        let chain = outcome.chain.map { der in
            state.certificates.first { $0.der == der } ?? SecCertificateCreateWithData(nil, der as NSData)
                ?? state.certificates[0]
        }
        // Exceptions remove the failures they accept; any exceptions set turn a trusted result
        // into "proceed", as Apple's trustd does. Every failure found here is recoverable in
        // Apple's table (the fatal ones — revoked, blocked, weak keys — are not checked on Linux).
        let remaining = state.exceptions.map { $0.remaining(outcome.failures, chain: chain) } ?? outcome.failures
        let result: SecTrustResultType
        if outcome.failures.contains(where: { $0.check == .unreadable }) {
            // A certificate that could not be read was never checked: no exception accepts it.
            result = .fatalTrustFailure
        } else if !remaining.isEmpty {
            result = .recoverableTrustFailure
        } else {
            // Apple's trustd: the user's anchors and any exceptions give "proceed".
            result = state.exceptions == nil && !userTrusted ? .unspecified : .proceed
        }
        let error =
            result == .fatalTrustFailure || !remaining.isEmpty
            ? TrustErrors.error(for: result == .fatalTrustFailure ? outcome.failures : remaining, chain: chain) : nil
        return TrustEvaluationResult(chain: chain, failures: outcome.failures, result: result, date: date, error: error)
    }

    /// The DER of every certificate in the caller's keychain; none when it cannot be searched.
    private static func keychainCertificates() -> [Data] {
        guard Device.hasKeychainWithoutCreating else { return [] }
        return KeychainCertificates.all(returning: kSecReturnData).compactMap { $0 as? Data }
    }
}

/// Whether the keychain's certificates and the user's trusted certificates take part (Apple's
/// private `SecTrustSetKeychainsAllowed`; `security verify-cert -N` turns them off).
///
/// - Parameters:
///   - trust: The trust.
///   - allowed: Whether the keychain is consulted.
package func SecTrustSetKeychainsAllowed(_ trust: SecTrust, _ allowed: Bool) {
    trust.change { $0.keychainsAllowed = allowed }
}

/// Evaluates a trust: builds its chain and checks it against its policies.
///
/// - Parameters:
///   - trust: The trust.
///   - error: On failure, why the chain is not trusted: an error in `NSOSStatusErrorDomain` whose
///     code is Apple's (`errSecNotTrusted`, `errSecCertificateExpired`, `errSecHostNameMismatch`, …)
///     and whose description names the certificate.
/// - Returns: Whether the chain is trusted for every policy.
@discardableResult
public func SecTrustEvaluateWithError(_ trust: SecTrust, _ error: UnsafeMutablePointer<CFError?>?) -> Bool {
    let evaluation = trust.evaluated()
    error?.pointee = evaluation.error
    return evaluation.error == nil
}

/// Evaluates a trust on another thread and calls `result` on `queue`.
///
/// - Parameters:
///   - trust: The trust.
///   - queue: The queue `result` is called on.
///   - result: Called with the trust, whether it is trusted, and why not.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustEvaluateAsyncWithError(
    _ trust: SecTrust,
    _ queue: DispatchQueue,
    _ result: @escaping SecTrustWithErrorCallback
) -> OSStatus {
    // Evaluated away from `queue` (often the main queue), answered on it.
    DispatchQueue.global(qos: .userInitiated).async {
        let evaluation = trust.evaluated()
        queue.async { result(trust, evaluation.error == nil, evaluation.error) }
    }
    return errSecSuccess
}

/// Evaluates a trust and reports its result (Apple's older call; prefer ``SecTrustEvaluateWithError(_:_:)``).
///
/// - Parameters:
///   - trust: The trust.
///   - result: On return, the result.
/// - Returns: `errSecSuccess`, or another status when the evaluation itself failed.
@available(*, deprecated, renamed: "SecTrustEvaluateWithError")
@discardableResult
public func SecTrustEvaluate(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    let evaluation = trust.evaluated()
    result.pointee = evaluation.result
    return evaluation.result == .otherError
        ? OSStatus(evaluation.error?.code ?? Int(errSecInternalError)) : errSecSuccess
}

/// The result of the last evaluation, evaluating the trust first if it changed since (as Apple's
/// has done since macOS 10.13, whatever its header says).
///
/// - Parameters:
///   - trust: The trust.
///   - result: On return, the result.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustGetTrustResult(_ trust: SecTrust, _ result: UnsafeMutablePointer<SecTrustResultType>) -> OSStatus {
    result.pointee = trust.evaluated().result
    return errSecSuccess
}
#endif
