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

public import Crypto
public import Foundation
public import GRDB

/// A lock of the keybag: a key pair whose public half seals items and whose private half is
/// wrapped by what the lock stands for (the passcode key, or a class key for biometry).
///
/// Stored in the `lock_key` table, one row per ``AccessPolicy/Lock``. Replacing a row (a new
/// biometric enrolment, a removed passcode) destroys the old private key, and with it every
/// item alternative sealed to it.
package struct LockKeyRecord: Sendable {
    // MARK: Properties

    package var lock: AccessPolicy.Lock
    /// A random identifier that item envelopes name, so a replaced lock is recognised.
    package var identifier: Data
    package var publicKey: Curve25519.KeyAgreement.PublicKey
    package var wrappedPrivateKey: Data
    /// For ``AccessPolicy/Lock/biometryCurrentSet``: the hash of the enrolment set it belongs to.
    package var domainHash: Data?

    // MARK: Making

    /// A fresh lock whose private key is wrapped by `wrappingKey`.
    package static func make(
        _ lock: AccessPolicy.Lock,
        wrappingKey: SymmetricKey,
        domainHash: Data? = nil
    ) throws(KeychainCoreError) -> LockKeyRecord {
        let privateKey = Curve25519.KeyAgreement.PrivateKey()
        let identifier = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        return LockKeyRecord(
            lock: lock,
            identifier: identifier,
            publicKey: privateKey.publicKey,
            wrappedPrivateKey: try SealedBox.seal(
                privateKey.rawRepresentation,
                using: wrappingKey,
                binding: binding(lock: lock, identifier: identifier).bytes
            ),
            domainHash: domainHash
        )
    }

    /// The private key, unwrapped with `wrappingKey`.
    ///
    /// - Throws: ``KeychainCoreError/Code/authenticationFailed`` if `wrappingKey` is not the one
    ///   that wrapped it (a wrong passcode), or the row was altered.
    package func privateKey(using wrappingKey: SymmetricKey) throws(KeychainCoreError) -> Curve25519.KeyAgreement.PrivateKey {
        let raw: Data
        do {
            raw = try SealedBox.open(
                wrappedPrivateKey,
                using: wrappingKey,
                binding: Self.binding(lock: lock, identifier: identifier).bytes
            )
        } catch {
            throw KeychainCoreError(.authenticationFailed, "the \(lock) lock does not open with this key")
        }
        do {
            let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw)
            guard key.publicKey.rawRepresentation == publicKey.rawRepresentation else {
                throw KeychainCoreError(.decode, "the \(lock) lock's key pair does not match")
            }
            return key
        } catch let error as KeychainCoreError {
            throw error
        } catch {
            throw KeychainCoreError(.decode, "the \(lock) lock's private key is damaged", cause: SendableDescription(error))
        }
    }

    /// The same lock, with its private key re-wrapped by `newKey` (a passcode change).
    package func rewrapped(from oldKey: SymmetricKey, to newKey: SymmetricKey) throws(KeychainCoreError) -> LockKeyRecord {
        let key = try privateKey(using: oldKey)
        var copy = self
        copy.wrappedPrivateKey = try SealedBox.seal(
            key.rawRepresentation,
            using: newKey,
            binding: Self.binding(lock: lock, identifier: identifier).bytes
        )
        return copy
    }

    private static func binding(lock: AccessPolicy.Lock, identifier: Data) -> AssociatedData {
        AssociatedData("swift-keychain/v1/lock-key").appending([lock.rawValue]).appending(Array(identifier))
    }
}

// MARK: - Database

extension LockKeyRecord {
    /// Every lock in the keybag, by kind.
    package static func fetchAll(_ db: Database) throws(KeychainCoreError) -> [AccessPolicy.Lock: LockKeyRecord] {
        do {
            var locks: [AccessPolicy.Lock: LockKeyRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT * FROM lock_key") {
                guard let raw = row["kind"] as Int?, let byte = UInt8(exactly: raw),
                    let lock = AccessPolicy.Lock(rawValue: byte),
                    let identifier = row["key_id"] as Data?,
                    let publicData = row["public_key"] as Data?,
                    let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicData),
                    let wrapped = row["wrapped_private"] as Data?
                else {
                    throw KeychainCoreError(.decode, "the keybag holds a damaged lock key")
                }
                locks[lock] = LockKeyRecord(
                    lock: lock,
                    identifier: identifier,
                    publicKey: publicKey,
                    wrappedPrivateKey: wrapped,
                    domainHash: row["domain_hash"]
                )
            }
            return locks
        } catch let error as KeychainCoreError {
            throw error
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the keybag's locks")
        }
    }

    /// Writes this lock, replacing (and so destroying) any previous lock of the same kind.
    package func save(_ db: Database) throws(KeychainCoreError) {
        do {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO lock_key (kind, key_id, public_key, wrapped_private, domain_hash)
                    VALUES (?, ?, ?, ?, ?)
                    """,
                arguments: [Int(lock.rawValue), identifier, publicKey.rawRepresentation, wrappedPrivateKey, domainHash]
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot write a lock key")
        }
    }

    /// Destroys the locks of the given kinds.
    package static func delete(_ locks: [AccessPolicy.Lock], in db: Database) throws(KeychainCoreError) {
        do {
            for lock in locks {
                try db.execute(sql: "DELETE FROM lock_key WHERE kind = ?", arguments: [Int(lock.rawValue)])
            }
        } catch {
            throw SQLiteItemStore.translate(error, "cannot delete a lock key")
        }
    }
}
