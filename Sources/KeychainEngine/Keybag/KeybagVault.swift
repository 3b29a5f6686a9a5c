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
package import GRDB
package import KeychainCore

/// The keybag in the database, sealed as one box under a key derived from the device secret and
/// the current keybag secret.
///
/// Every write seals the keybag under a fresh ``KeybagSecret`` and erases the previous one (see
/// ``KeybagSecretStore``): an older copy of the keybag — from a backup, a snapshot, or pages left
/// in the write-ahead log — stays sealed under a secret that no longer exists, and grafting it
/// into today's database opens nothing. The box's associated data binds its generation (which only
/// grows) and the identifier of its secret.
///
/// ```swift
/// let stored = try vault.stored(db, isWriting: true)        // in a write transaction
/// let staged = try vault.save(updated, generation: stored.generation + 1, in: db)
/// // … commit, fold the write-ahead log …
/// try vault.promote(staged)                                  // erases the previous secret
/// ```
package final class KeybagVault: Sendable {
    // MARK: Properties

    /// The device secret (`device.key`).
    package let deviceSecret: SymmetricKey
    /// Where the keybag secrets are kept (another store once the keychain moved to or from a TPM).
    package var secrets: any KeybagSecretStore { store.withLock { $0 } }

    private let store: LockedState<any KeybagSecretStore>

    private struct Cache {
        var sealed: Data?
        var stored: StoredKeybag?
        var bagKey: (identifier: Data, key: SymmetricKey)?
    }

    private let cache = LockedState(Cache())

    // MARK: Initialization

    package init(deviceSecret: SymmetricKey, secrets: any KeybagSecretStore) {
        self.deviceSecret = deviceSecret
        store = LockedState(secrets)
    }

    /// Keeps the keybag secrets in `secrets` from now on (the keychain moved there).
    func move(to secrets: any KeybagSecretStore) {
        store.withLock { $0 = secrets }
    }

    // MARK: Reading

    /// Whether the database holds a sealed keybag.
    package static func exists(_ db: Database) throws(KeychainError) -> Bool {
        do {
            return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sealed_keybag)") ?? false
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the keybag")
        }
    }

    /// The keybag as stored, opened; `nil` for a database without one.
    ///
    /// - Parameters:
    ///   - db: The database connection to read the keybag with.
    ///   - isWriting: Whether `db` is in a write transaction, which sees the latest keybag:
    ///     its secret must then exist. A read transaction may see a keybag that another process has
    ///     replaced (and whose secret it has erased) since the transaction began:
    ///     ``KeychainError/Code/staleSnapshot`` asks for the read to run again.
    /// - Returns: The keybag, or `nil` when the database holds none.
    /// - Throws: ``KeychainError/Code/decode`` when the box does not open (damaged, replaced,
    ///   or sealed with another device secret).
    package func stored(_ db: Database, isWriting: Bool) throws(KeychainError) -> StoredKeybag? {
        let row: Row?
        do {
            row = try Row.fetchOne(
                db.cachedStatement(sql: "SELECT generation, secret_id, sealed FROM sealed_keybag WHERE id = 1")
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the keybag")
        }
        guard let row else { return nil }
        guard let generation = row[0] as Int64?, let identifier = row[1] as Data?, let sealed = row[2] as Data?,
            identifier.count == KeybagSecret.identifierLength
        else {
            throw KeychainError(.decode, "the keybag is damaged")
        }
        if let cached = cache.withLock({ $0.sealed == sealed ? $0.stored : nil }) {
            return cached
        }
        let key = try bagKey(identifier: identifier, isWriting: isWriting)
        var plaintext: [UInt8]
        do {
            plaintext = Array(
                try AtRestCipher.open(
                    sealed,
                    using: key,
                    binding: Self.binding(generation: generation, identifier: identifier).bytes
                )
            )
        } catch {
            throw KeychainError(
                .decode,
                "the keybag is damaged, or was sealed with another device secret or keybag secret (\(secrets.location))"
            )
        }
        defer { PrivateFile.zero(&plaintext) }
        let stored = StoredKeybag(
            generation: generation,
            secretIdentifier: identifier,
            record: try KeybagRecord(serialized: plaintext)
        )
        cache.withLock { $0 = Cache(sealed: sealed, stored: stored, bagKey: $0.bagKey) }
        return stored
    }

    /// The generation of the stored keybag, without opening it (`nil` when there is none).
    package static func generation(_ db: Database) throws(KeychainError) -> Int64? {
        do {
            return try Int64.fetchOne(db.cachedStatement(sql: "SELECT generation FROM sealed_keybag WHERE id = 1"))
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the keybag")
        }
    }

    // MARK: Writing

    /// Inside a write transaction, before a keybag write: makes the stored keybag's secret the
    /// current one (a previous write may have committed without promoting it) and erases the
    /// secrets of writes that never committed.
    package func prepareWrite(_ current: StoredKeybag) throws(KeychainError) {
        try secrets.promote(current.secretIdentifier)
        secrets.discardStaged(except: current.secretIdentifier)
    }

    /// Seals `record` as `generation` under a new keybag secret, staged first, and writes it.
    ///
    /// The new secret becomes current with ``promote(_:)`` once the transaction has committed; if
    /// it does not, the next keybag write erases it (``prepareWrite(_:)``).
    package func save(_ record: KeybagRecord, generation: Int64, in db: Database) throws(KeychainError) -> KeybagSecret
    {
        let secret = KeybagSecret.make()
        try secrets.stage(secret)
        var plaintext = record.serialized
        defer { PrivateFile.zero(&plaintext) }
        let sealed = try AtRestCipher.seal(
            plaintext,
            using: Self.bagKey(deviceSecret: deviceSecret, secret: secret),
            binding: Self.binding(generation: generation, identifier: secret.identifier).bytes
        )
        do {
            try db.execute(
                sql: "INSERT OR REPLACE INTO sealed_keybag (id, generation, secret_id, sealed) VALUES (1, ?, ?, ?)",
                arguments: [generation, secret.identifier, sealed]
            )
        } catch {
            secrets.discard(secret.identifier)
            throw SQLiteItemStore.translate(error, "cannot write the keybag")
        }
        return secret
    }

    /// After the keybag sealed with `secret` committed: makes it current, erasing the previous one.
    package func promote(_ secret: KeybagSecret) throws(KeychainError) {
        try secrets.promote(secret.identifier)
        cache.withLock { $0.bagKey = (secret.identifier, Self.bagKey(deviceSecret: deviceSecret, secret: secret)) }
    }

    // MARK: Keys

    private func bagKey(identifier: Data, isWriting: Bool) throws(KeychainError) -> SymmetricKey {
        if let cached = cache.withLock({ $0.bagKey }), cached.identifier == identifier {
            return cached.key
        }
        guard let secret = try secrets.secret(identifiedBy: identifier) else {
            if isWriting {
                throw KeychainError(
                    .decode,
                    "the keybag secret \(secrets.location) is missing or belongs to another copy of the keychain"
                )
            }
            throw KeychainError(
                .staleSnapshot,
                "the keybag secret \(secrets.location) is missing, belongs to another copy of the keychain, or changed while it was read"
            )
        }
        let key = Self.bagKey(deviceSecret: deviceSecret, secret: secret)
        cache.withLock { $0.bagKey = (identifier, key) }
        return key
    }

    /// HKDF-SHA-256 of the device secret and the keybag secret, salted with the secret's identifier.
    private static func bagKey(deviceSecret: SymmetricKey, secret: KeybagSecret) -> SymmetricKey {
        var material = [UInt8]()
        deviceSecret.withUnsafeBytes { material.append(contentsOf: $0) }
        secret.key.withUnsafeBytes { material.append(contentsOf: $0) }
        defer { PrivateFile.zero(&material) }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: material),
            salt: secret.identifier,
            info: Data("swift-keychain keybag seal v2".utf8),
            outputByteCount: 32
        )
    }

    private static func binding(generation: Int64, identifier: Data) -> AssociatedData {
        withUnsafeBytes(of: generation.bigEndian) { bytes in
            AssociatedData("swift-keychain/v2/keybag").appending(Array(bytes)).appending(Array(identifier))
        }
    }
}

/// A keybag as read from the database: its record, its generation and its secret's identifier.
package struct StoredKeybag: Sendable {
    /// Counts the keybag's writes; a process never goes back to an older one.
    package var generation: Int64
    package var secretIdentifier: Data
    package var record: KeybagRecord
}
