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
import Foundation
package import KeychainCore

extension KeybagService {
    // MARK: Blob keys

    /// The key that seals new key blobs of `protection`, and its generation; the first is made (and
    /// stored, wrapped by the class key) the first time one is needed.
    ///
    /// It is available exactly when the class key is, so a blob follows its class: a `WhenUnlocked` blob
    /// opens only while the keychain is unlocked, a `WhenPasscodeSet` blob dies with the passcode.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the class is locked,
    ///   ``KeychainError/Code/decode`` if the stored blob key does not open.
    package func currentBlobKey(
        for protection: ProtectionClass
    ) throws(KeychainError) -> (generation: Int, key: SymmetricKey) {
        if let current = try newestBlobKey(protection, in: try currentRecord()) { return current }
        let (_, current) = try writeKeybag {
            (_, latest) throws(KeychainError) -> (KeybagRecord, (generation: Int, key: SymmetricKey)) in
            // Another process may have made it meanwhile: that one is the key.
            if let current = try newestBlobKey(protection, in: latest.record) { return (latest.record, current) }
            guard let classKey = keybag.classKey(protection) else {
                throw KeychainError(.interactionNotAllowed, "the \(protection.rawValue) class is locked")
            }
            let key = SymmetricKey(size: .bits256)
            var updated = latest.record
            updated.wrappedBlobKeys[protection] = [
                try AtRestCipher.wrap(
                    key,
                    using: classKey,
                    binding: KeybagRecord.blobKeyBinding(protection, generation: 0).bytes
                )
            ]
            return (updated, (0, key))
        }
        return current
    }

    /// The blob key of `protection` of `generation`; `nil` if there is none (no blob of it can exist).
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the class is locked,
    ///   ``KeychainError/Code/decode`` if it does not open.
    package func blobKey(for protection: ProtectionClass, generation: Int) throws(KeychainError) -> SymmetricKey? {
        do {
            return try openBlobKey(protection, generation: generation, in: try currentRecord())
        } catch  where error.code == .decode {
            // Another thread may have followed newer class keys between the read and the unwrap: once more.
            return try openBlobKey(protection, generation: generation, in: try currentRecord())
        }
    }

    // MARK: Private

    private func newestBlobKey(
        _ protection: ProtectionClass,
        in record: KeybagRecord
    ) throws(KeychainError) -> (generation: Int, key: SymmetricKey)? {
        guard let generations = record.wrappedBlobKeys[protection], !generations.isEmpty else { return nil }
        let generation = generations.count - 1
        guard let key = try openBlobKey(protection, generation: generation, in: record) else { return nil }
        return (generation, key)
    }

    private func openBlobKey(
        _ protection: ProtectionClass,
        generation: Int,
        in record: KeybagRecord
    ) throws(KeychainError) -> SymmetricKey? {
        guard let generations = record.wrappedBlobKeys[protection], generations.indices.contains(generation) else {
            return nil
        }
        guard let classKey = keybag.classKey(protection) else {
            throw KeychainError(.interactionNotAllowed, "the \(protection.rawValue) class is locked")
        }
        do {
            return try AtRestCipher.unwrap(
                generations[generation],
                using: classKey,
                binding: KeybagRecord.blobKeyBinding(protection, generation: generation).bytes
            )
        } catch {
            throw KeychainError(.decode, "a \(protection.rawValue) blob key is damaged")
        }
    }
}
