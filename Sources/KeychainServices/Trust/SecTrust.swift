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

/// A certificate chain to evaluate (Apple's `SecTrustRef`): the certificates, the policies they
/// must satisfy, the anchors they may chain to and the date they must be valid on, and, once
/// evaluated, the chain built and what it failed.
///
/// Like Apple's, a trust may be shared between threads: its state is behind a lock, and changing
/// any input forgets the last evaluation.
public final class SecTrust: Hashable, Sendable {
    /// What a trust is made of and what its last evaluation found.
    struct State {
        /// The leaf, then the certificates that may help build its chain.
        var certificates: [SecCertificate]
        /// The policies; all must be satisfied.
        var policies: [SecPolicy]
        /// The caller's anchors, if set.
        var anchors: [SecCertificate]?
        /// Whether only the caller's anchors are trusted (set with the anchors, as Apple does).
        var anchorsOnly = false
        /// The date to evaluate on; the time of evaluation when `nil`.
        var verifyDate: Date?
        /// Whether the keychain's and the user's certificates take part (``SecTrustSetKeychainsAllowed(_:_:)``).
        var keychainsAllowed = true
        /// `SecTrustSetNetworkFetchAllowed`, if called: recorded; nothing is fetched on Linux.
        var networkFetchAllowed: Bool?
        /// The failures the caller accepts for this leaf (`SecTrustSetExceptions`).
        var exceptions: TrustExceptions?
        /// The last evaluation, until an input changes.
        var evaluation: TrustEvaluationResult?
        /// How many times an input changed: an evaluation made before a change is not kept.
        var generation = 0
    }

    let state: LockedState<State>

    init(certificates: [SecCertificate], policies: [SecPolicy]) {
        state = LockedState(State(certificates: certificates, policies: policies))
    }

    /// Changes an input and forgets the last evaluation.
    func change(_ body: (inout State) -> Void) {
        state.withLock { state in
            body(&state)
            state.evaluation = nil
            state.generation += 1
        }
    }

    public static func == (lhs: SecTrust, rhs: SecTrust) -> Bool {
        lhs === rhs
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}

/// The certificates in `value`: one certificate, or an array of nothing else; `nil` otherwise.
private func certificates(in value: CFTypeRef) -> [SecCertificate]? {
    if let certificate = value as? SecCertificate { return [certificate] }
    guard let array = value as? [AnyObject], !array.isEmpty else { return nil }
    let certificates = array.compactMap { $0 as? SecCertificate }
    return certificates.count == array.count ? certificates : nil
}

/// The policies in `value`: one policy, or a non-empty array of nothing else; `nil` otherwise.
private func policies(in value: CFTypeRef) -> [SecPolicy]? {
    if let policy = value as? SecPolicy { return [policy] }
    guard let array = value as? [AnyObject], !array.isEmpty else { return nil }
    let policies = array.compactMap { $0 as? SecPolicy }
    return policies.count == array.count ? policies : nil
}

/// Creates a trust from a certificate or an array of certificates (the leaf first) and a policy or
/// an array of policies.
///
/// - Parameters:
///   - certificates: The certificate to evaluate, or an array whose first element it is, followed
///     by certificates that may help build its chain.
///   - policies: A policy, a non-empty array of policies, or `nil` for the basic X.509 policy.
///   - trust: On return, the trust.
/// - Returns: `errSecSuccess`, or `errSecParam` when an argument is empty or holds anything else.
@discardableResult
public func SecTrustCreateWithCertificates(
    _ certificates: CFTypeRef,
    _ policies: CFTypeRef?,
    _ trust: UnsafeMutablePointer<SecTrust?>
) -> OSStatus {
    guard let chain = KeychainServices.certificates(in: certificates),
        let policies = policies.map(KeychainServices.policies(in:)) ?? [SecPolicyCreateBasicX509()]
    else {
        trust.pointee = nil
        return errSecParam
    }
    trust.pointee = SecTrust(certificates: chain, policies: policies)
    return errSecSuccess
}

/// Replaces the policies of a trust.
///
/// - Parameters:
///   - trust: The trust.
///   - policies: A policy or a non-empty array of policies.
/// - Returns: `errSecSuccess`, or `errSecParam` when `policies` is empty or holds anything else
///   (the trust keeps its policies, and must be evaluated again, as Apple's does).
@discardableResult
public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus {
    guard let policies = KeychainServices.policies(in: policies) else {
        trust.change { _ in }
        return errSecParam
    }
    trust.change { $0.policies = policies }
    return errSecSuccess
}

/// Copies the policies of a trust.
///
/// - Parameters:
///   - trust: The trust.
///   - policies: On return, the policies.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustCopyPolicies(_ trust: SecTrust, _ policies: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    policies.pointee = trust.state.withLock { $0.policies } as NSArray
    return errSecSuccess
}

/// Sets the anchors a chain may end in, and trusts only them until
/// ``SecTrustSetAnchorCertificatesOnly(_:_:)`` says otherwise.
///
/// - Parameters:
///   - trust: The trust.
///   - anchorCertificates: The anchors; an empty array trusts nothing, `nil` the system's anchors again.
/// - Returns: `errSecSuccess`, or `errSecParam` when the array holds anything but certificates.
@discardableResult
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    guard let anchorCertificates else {
        trust.change {
            $0.anchors = nil
            $0.anchorsOnly = false
        }
        return errSecSuccess
    }
    let array = anchorCertificates as [AnyObject]
    let anchors = array.compactMap { $0 as? SecCertificate }
    guard anchors.count == array.count else { return errSecParam }
    trust.change {
        $0.anchors = anchors
        $0.anchorsOnly = true
    }
    return errSecSuccess
}

/// Whether only the anchors set trust a chain, or the system's anchors as well.
///
/// - Parameters:
///   - trust: The trust.
///   - anchorCertificatesOnly: Whether only the anchors set trust a chain.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    trust.change { $0.anchorsOnly = anchorCertificatesOnly }
    return errSecSuccess
}

/// Copies the anchors set on a trust.
///
/// - Parameters:
///   - trust: The trust.
///   - anchors: On return, the anchors set, or `nil` when none is.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustCopyCustomAnchorCertificates(
    _ trust: SecTrust,
    _ anchors: UnsafeMutablePointer<CFArray?>
) -> OSStatus {
    anchors.pointee = trust.state.withLock { $0.anchors }.map { $0 as NSArray }
    return errSecSuccess
}

/// Sets the date the certificates must be valid on, instead of the time of evaluation.
///
/// - Parameters:
///   - trust: The trust.
///   - verifyDate: The date.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus {
    let date = verifyDate as Date
    trust.change { $0.verifyDate = date }
    return errSecSuccess
}

/// The date the trust is evaluated on, in seconds since 2001-01-01.
///
/// - Parameter trust: The trust.
/// - Returns: The date set; when none is, the date of the last evaluation, else the current time.
@discardableResult
public func SecTrustGetVerifyTime(_ trust: SecTrust) -> Double {
    trust.state.withLock { state in
        (state.verifyDate ?? state.evaluation?.date ?? Date()).timeIntervalSinceReferenceDate
    }
}

/// Accepted and ignored, as on macOS since 10.12: the caller's keychain always helps build a chain.
///
/// - Parameters:
///   - trust: The trust.
///   - keychainOrArray: A keychain, an array of keychains, or `nil`.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustSetKeychains(_ trust: SecTrust, _ keychainOrArray: CFTypeRef?) -> OSStatus {
    errSecSuccess
}

/// Records whether the trust may fetch missing intermediates and revocation status from the network.
///
/// Nothing is fetched on Linux: certificates missing from the trust and the keychain are missing.
///
/// - Parameters:
///   - trust: The trust.
///   - allowFetch: Whether fetching is allowed.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustSetNetworkFetchAllowed(_ trust: SecTrust, _ allowFetch: Bool) -> OSStatus {
    trust.change { $0.networkFetchAllowed = allowFetch }
    return errSecSuccess
}

/// Whether the trust may fetch from the network: as last set, or by default unless a policy is the
/// basic X.509 policy (Apple's basic policy forbids it, its SSL policy allows it).
///
/// - Parameters:
///   - trust: The trust.
///   - allowFetch: On return, whether fetching is allowed.
/// - Returns: `errSecSuccess`.
@discardableResult
public func SecTrustGetNetworkFetchAllowed(
    _ trust: SecTrust,
    _ allowFetch: UnsafeMutablePointer<DarwinBoolean>
) -> OSStatus {
    let allowed = trust.state.withLock { state in
        state.networkFetchAllowed
            ?? !state.policies.contains { $0.identifier == kSecPolicyAppleX509Basic as String }
    }
    allowFetch.pointee = DarwinBoolean(allowed)
    return errSecSuccess
}
#endif
