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
import KeychainCrypto

/// The failures a caller accepts for one chain (`SecTrustCopyExceptions`, `SecTrustSetExceptions`).
///
/// As Apple's: a binary property list, an array with a dictionary per certificate of the chain
/// (the leaf's always; trailing certificates without failures left out), each holding the checks
/// that certificate failed (as `false`) and its SHA-1 under `SHA1Digest`. A failure is accepted
/// only for the same check of the same certificate at the same place: exceptions made for one
/// leaf accept nothing for another, and a certificate that fails something new is not trusted.
struct TrustExceptions: Sendable {
    /// The key of a certificate's SHA-1.
    static let digestKey = "SHA1Digest"

    /// One certificate's accepted checks.
    struct Entry: Sendable {
        /// The SHA-1 of the certificate's DER; `nil` for a certificate without failures.
        var digest: Data?
        /// The names of the checks accepted.
        var checks: Set<String>
    }

    /// The entries, by position in the chain.
    let entries: [Entry]

    /// The exceptions that accept `failures` of `chain`.
    init(accepting failures: [TrustFailure], chain: [SecCertificate]) {
        var entries: [Entry] = []
        for (index, certificate) in chain.enumerated() {
            let checks = Set(failures.filter { $0.index == index }.map(\.check.rawValue))
            let recorded = index == 0 || !checks.isEmpty
            entries.append(Entry(digest: recorded ? DigestKind.sha1.hash(certificate.der) : nil, checks: checks))
        }
        while let last = entries.last, entries.count > 1, last.digest == nil { entries.removeLast() }
        self.entries = entries
    }

    /// The exceptions in `data`, or `nil` when it is not a list of exceptions.
    init?(data: Data) {
        guard let list = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [Any] else {
            return nil
        }
        entries = list.map { element in
            let dictionary = element as? [String: Any] ?? [:]
            return Entry(
                digest: dictionary[Self.digestKey] as? Data,
                checks: Set(dictionary.keys.filter { $0 != Self.digestKey && $0 != "ExceptionResetCount" })
            )
        }
    }

    /// The exceptions as Apple's property list.
    var data: Data {
        let list: [[String: Any]] = entries.map { entry in
            var dictionary: [String: Any] = Dictionary(uniqueKeysWithValues: entry.checks.map { ($0, false as Any) })
            if let digest = entry.digest { dictionary[Self.digestKey] = digest }
            return dictionary
        }
        return (try? PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0)) ?? Data()
    }

    /// Whether the exceptions were made for this leaf.
    func apply(toLeaf leaf: SecCertificate) -> Bool {
        entries.first?.digest == DigestKind.sha1.hash(leaf.der)
    }

    /// The failures not accepted.
    func remaining(_ failures: [TrustFailure], chain: [SecCertificate]) -> [TrustFailure] {
        failures.filter { failure in
            guard entries.indices.contains(failure.index), chain.indices.contains(failure.index) else { return true }
            let entry = entries[failure.index]
            return entry.digest != DigestKind.sha1.hash(chain[failure.index].der)
                || !entry.checks.contains(failure.check.rawValue)
        }
    }
}

/// The failures of an evaluation, to accept them with ``SecTrustSetExceptions(_:_:)``.
///
/// - Parameter trust: The trust, evaluated without its exceptions.
/// - Returns: The exceptions: Apple's property list of the checks each certificate failed, with
///   their SHA-1.
@discardableResult
public func SecTrustCopyExceptions(_ trust: SecTrust) -> CFData? {
    let state = trust.state.withLock { $0 }
    let unfiltered = SecTrust(certificates: state.certificates, policies: state.policies)
    unfiltered.change { copy in
        copy = state
        copy.exceptions = nil
    }
    let evaluation = unfiltered.evaluated()
    return TrustExceptions(accepting: evaluation.failures, chain: evaluation.chain).data as NSData
}

/// Accepts the failures recorded in `exceptions`: a later evaluation that fails those checks
/// alone gives ``SecTrustResultType/proceed`` and no error.
///
/// - Parameters:
///   - trust: The trust.
///   - exceptions: What ``SecTrustCopyExceptions(_:)`` returned, or `nil` to accept nothing.
/// - Returns: Whether the exceptions were made for this trust's leaf; when not, they are discarded.
@discardableResult
public func SecTrustSetExceptions(_ trust: SecTrust, _ exceptions: CFData?) -> Bool {
    let leaf = trust.state.withLock { $0.certificates[0] }
    let parsed = exceptions.flatMap { TrustExceptions(data: $0 as Data) }.flatMap { $0.apply(toLeaf: leaf) ? $0 : nil }
    trust.change { $0.exceptions = parsed }
    return parsed != nil
}
#endif
