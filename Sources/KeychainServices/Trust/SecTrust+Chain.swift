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

extension SecTrust {
    /// The chain: the one built, evaluating the trust first if it was not since it changed.
    var chain: [SecCertificate] {
        evaluated().chain
    }
}

/// The certificate chain of a trust, leaf first, evaluating the trust if needed.
///
/// - Parameter trust: The trust.
/// - Returns: The chain built (as far as it could be built, when it is not trusted).
@discardableResult
public func SecTrustCopyCertificateChain(_ trust: SecTrust) -> CFArray? {
    trust.chain as NSArray
}

/// The number of certificates in the chain, evaluating the trust if needed.
///
/// - Parameter trust: The trust.
/// - Returns: The number of certificates.
@discardableResult
public func SecTrustGetCertificateCount(_ trust: SecTrust) -> CFIndex {
    trust.chain.count
}

/// One certificate of the chain (Apple's older call; prefer ``SecTrustCopyCertificateChain(_:)``).
///
/// - Parameters:
///   - trust: The trust.
///   - ix: The index, 0 being the leaf.
/// - Returns: The certificate, or `nil` when the index is outside the chain.
@available(*, deprecated, renamed: "SecTrustCopyCertificateChain")
@discardableResult
public func SecTrustGetCertificateAtIndex(_ trust: SecTrust, _ ix: CFIndex) -> SecCertificate? {
    if ix == 0 { return trust.state.withLock { $0.certificates[0] } }
    let chain = trust.chain
    return chain.indices.contains(ix) ? chain[ix] : nil
}

/// The public key of the leaf certificate.
///
/// - Parameter trust: The trust.
/// - Returns: The key, or `nil` when it is of a kind this platform does not read.
@discardableResult
public func SecTrustCopyKey(_ trust: SecTrust) -> SecKey? {
    let leaf = trust.state.withLock { $0.certificates[0] }
    return SecCertificateCopyKey(leaf)
}

/// The public key of the leaf certificate (Apple's older call; prefer ``SecTrustCopyKey(_:)``).
///
/// - Parameter trust: The trust.
/// - Returns: The key, or `nil` when it is of a kind this platform does not read.
@available(*, deprecated, renamed: "SecTrustCopyKey")
@discardableResult
public func SecTrustCopyPublicKey(_ trust: SecTrust) -> SecKey? {
    SecTrustCopyKey(trust)
}

/// The result of the last evaluation as a dictionary: `kSecTrustResultValue`,
/// `kSecTrustEvaluationDate`, and per certificate the checks it failed
/// (`kSecTrustResultDetails`).
///
/// - Parameter trust: The trust, evaluated first if it changed since its last evaluation.
/// - Returns: The result.
@discardableResult
public func SecTrustCopyResult(_ trust: SecTrust) -> CFDictionary? {
    let evaluation = trust.evaluated()
    var details = Array(repeating: [String: Any](), count: evaluation.chain.count)
    for failure in evaluation.failures where details.indices.contains(failure.index) {
        details[failure.index][failure.check.rawValue] = false
    }
    let result: [String: Any] = [
        kSecTrustResultValue as String: NSNumber(value: evaluation.result.rawValue),
        kSecTrustEvaluationDate as String: evaluation.date,
        kSecTrustResultDetails as String: details,
        kSecTrustRevocationChecked as String: false,
    ]
    return result as NSDictionary
}
#endif
