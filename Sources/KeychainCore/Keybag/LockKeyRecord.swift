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
    /// Whether the row's integrity code matched when it was read. A damaged lock must not pass
    /// for a replaced one: items sealed to a replaced lock are deleted, items of a damaged one only refused.
    package var isIntact = true

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
    /// Every lock in the keybag, by kind; rows whose integrity code does not match are returned
    /// with ``isIntact`` false (rows written before the code existed have none and are trusted).
    package static func fetchAll(_ db: Database, integrityKey: SymmetricKey) throws(KeychainCoreError) -> [AccessPolicy.Lock: LockKeyRecord] {
        do {
            var locks: [AccessPolicy.Lock: LockKeyRecord] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT kind, key_id, public_key, wrapped_private, domain_hash, mac FROM lock_key") {
                guard let raw = row["kind"] as Int?, let byte = UInt8(exactly: raw),
                    let lock = AccessPolicy.Lock(rawValue: byte),
                    let identifier = row["key_id"] as Data?,
                    let publicData = row["public_key"] as Data?,
                    let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicData),
                    let wrapped = row["wrapped_private"] as Data?
                else {
                    throw KeychainCoreError(.decode, "the keybag holds a damaged lock key")
                }
                var record = LockKeyRecord(
                    lock: lock,
                    identifier: identifier,
                    publicKey: publicKey,
                    wrappedPrivateKey: wrapped,
                    domainHash: row["domain_hash"]
                )
                if let stored = row["mac"] as Data? {
                    record.isIntact = stored == record.integrityCode(integrityKey)
                }
                locks[lock] = record
            }
            return locks
        } catch let error as KeychainCoreError {
            throw error
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the keybag's locks")
        }
    }

    /// Writes this lock, replacing (and so destroying) any previous lock of the same kind.
    package func save(_ db: Database, integrityKey: SymmetricKey) throws(KeychainCoreError) {
        do {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO lock_key (kind, key_id, public_key, wrapped_private, domain_hash, mac)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Int(lock.rawValue), identifier, publicKey.rawRepresentation, wrappedPrivateKey, domainHash,
                    integrityCode(integrityKey),
                ]
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot write a lock key")
        }
    }

    /// HMAC-SHA-256 over every field of the row, keyed by the keybag's integrity key.
    private func integrityCode(_ key: SymmetricKey) -> Data {
        var fields = AssociatedData("swift-keychain/v1/lock-key-row")
            .appending([lock.rawValue])
            .appending(Array(identifier))
            .appending(Array(publicKey.rawRepresentation))
            .appending(Array(wrappedPrivateKey))
        fields.append(domainHash.map { [1] + Array($0) } ?? [0])
        return Data(HMAC<SHA256>.authenticationCode(for: fields.bytes, using: key))
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
