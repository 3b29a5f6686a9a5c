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

package import Crypto
package import Foundation
package import KeychainCore

/// AES-256-GCM sealing with associated data, the one cipher the keychain uses at rest.
///
/// The sealed form is `nonce (12 bytes) ‖ ciphertext ‖ tag (16 bytes)`. The associated data binds
/// a ciphertext to its place (table, item identity, purpose), so a blob moved to another row or
/// column fails to open instead of being misread.
package enum AtRestCipher {
    /// Bytes that a sealed box adds to its plaintext.
    package static let overhead = 12 + 16

    /// Encrypts and authenticates `plaintext`.
    package static func seal(
        _ plaintext: some DataProtocol,
        using key: SymmetricKey,
        binding associatedData: some DataProtocol
    ) throws(KeychainError) -> Data {
        do {
            let box = try AES.GCM.seal(plaintext, using: key, authenticating: associatedData)
            guard let combined = box.combined else {
                throw KeychainError(.internalInconsistency, "AES-GCM produced no combined representation")
            }
            return combined
        } catch let error as KeychainError {
            throw error
        } catch {
            throw KeychainError(.internalInconsistency, "encryption failed", cause: error)
        }
    }

    /// Authenticates and decrypts a sealed box.
    ///
    /// - Throws: ``KeychainError/Code/decode`` when the box was altered, moved, or sealed with another key.
    package static func open(
        _ sealed: some DataProtocol,
        using key: SymmetricKey,
        binding associatedData: some DataProtocol
    ) throws(KeychainError) -> Data {
        guard sealed.count >= overhead else {
            throw KeychainError(.decode, "sealed data is truncated")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            return try AES.GCM.open(box, using: key, authenticating: associatedData)
        } catch {
            throw KeychainError(.decode, "sealed data failed authentication", cause: error)
        }
    }

    /// Seals a key (its raw bytes) under another key.
    package static func wrap(
        _ key: SymmetricKey,
        using wrappingKey: SymmetricKey,
        binding associatedData: some DataProtocol
    ) throws(KeychainError) -> Data {
        var raw = key.withUnsafeBytes { Data($0) }
        defer { raw.resetBytes(in: 0..<raw.count) }
        return try seal(raw, using: wrappingKey, binding: associatedData)
    }

    /// Opens a key sealed by ``wrap(_:using:binding:)``.
    package static func unwrap(
        _ wrapped: some DataProtocol,
        using wrappingKey: SymmetricKey,
        binding associatedData: some DataProtocol
    ) throws(KeychainError) -> SymmetricKey {
        var raw = try open(wrapped, using: wrappingKey, binding: associatedData)
        defer { raw.resetBytes(in: 0..<raw.count) }
        guard raw.count == 32 else {
            throw KeychainError(.decode, "wrapped key has the wrong length")
        }
        return SymmetricKey(data: raw)
    }
}

/// Associated data: labelled, length-prefixed fields, so that no two field lists encode alike.
package struct AssociatedData: Sendable {
    package private(set) var bytes: [UInt8]

    package init(_ label: String) {
        bytes = []
        append(Array(label.utf8))
    }

    package mutating func append(_ field: some Collection<UInt8>) {
        var length = UInt32(field.count).bigEndian
        withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: field)
    }

    package func appending(_ field: some Collection<UInt8>) -> AssociatedData {
        var copy = self
        copy.append(field)
        return copy
    }

    package func appending(_ field: String) -> AssociatedData {
        appending(Array(field.utf8))
    }
}
