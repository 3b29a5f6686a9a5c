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

public import Foundation
public import GRDB

/// The keybag as stored: salts, KDF parameters, the sealed look-up key and the wrapped class keys.
package struct KeybagRecord: Sendable {
    package static let currentVersion = 1

    package var deviceSalt: Data
    package var passcodeSalt: Data?
    package var kdf: PasscodeKDF
    package var hasPasscode: Bool
    package var sealedLookupKey: Data
    /// The protected tier's look-up key, sealed by the `cku` class key; `nil` in a keychain from
    /// before the tiers, until its first unlock (see ``LookupTier``).
    package var sealedProtectedLookupKey: Data?
    /// Class keys wrapped by the device key (`dk`, `dku`, and the others while no passcode is set)
    /// or by the passcode key.
    package var wrappedClassKeys: [ProtectionClass: Data]

    // MARK: Database

    /// Reads the keybag, or `nil` for a new database.
    package static func fetch(_ db: Database) throws(KeychainCoreError) -> KeybagRecord? {
        do {
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM keybag WHERE id = 1") else { return nil }
            var keys: [ProtectionClass: Data] = [:]
            for keyRow in try Row.fetchAll(db, sql: "SELECT pdmn, wrapped FROM class_key") {
                guard let protection = ProtectionClass(rawValue: keyRow["pdmn"] ?? ""),
                    let wrapped = keyRow["wrapped"] as Data?
                else {
                    throw KeychainCoreError(.decode, "the keybag holds a damaged class key")
                }
                keys[protection] = wrapped
            }
            guard let version = row["version"] as Int?, version == currentVersion,
                let deviceSalt = row["device_salt"] as Data?,
                let rounds = row["kdf_rounds"] as Int?, let blockSize = row["kdf_block_size"] as Int?,
                let parallelism = row["kdf_parallelism"] as Int?,
                let hasPasscode = row["has_passcode"] as Bool?,
                let lookup = row["lookup_key"] as Data?
            else {
                throw KeychainCoreError(.decode, "the keybag is damaged or of an unknown version")
            }
            return KeybagRecord(
                deviceSalt: deviceSalt,
                passcodeSalt: row["passcode_salt"],
                kdf: PasscodeKDF(rounds: rounds, blockSize: blockSize, parallelism: parallelism),
                hasPasscode: hasPasscode,
                sealedLookupKey: lookup,
                sealedProtectedLookupKey: row["protected_lookup_key"],
                wrappedClassKeys: keys
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the keybag")
        }
    }

    /// Writes the whole keybag, replacing what was there.
    package func save(_ db: Database) throws(KeychainCoreError) {
        do {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO keybag
                        (id, version, device_salt, passcode_salt, kdf_rounds, kdf_block_size, kdf_parallelism,
                         has_passcode, lookup_key, protected_lookup_key)
                    VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    Self.currentVersion, deviceSalt, passcodeSalt, kdf.rounds, kdf.blockSize, kdf.parallelism,
                    hasPasscode, sealedLookupKey, sealedProtectedLookupKey,
                ]
            )
            try db.execute(sql: "DELETE FROM class_key")
            for (protection, wrapped) in wrappedClassKeys {
                try db.execute(
                    sql: "INSERT INTO class_key (pdmn, wrapped) VALUES (?, ?)",
                    arguments: [protection.rawValue, wrapped]
                )
            }
        } catch {
            throw SQLiteItemStore.translate(error, "cannot write the keybag")
        }
    }

    // MARK: Associated data

    static func classKeyBinding(_ protection: ProtectionClass) -> AssociatedData {
        AssociatedData("swift-keychain/v1/class-key").appending(protection.rawValue)
    }

    static let lookupKeyBinding = AssociatedData("swift-keychain/v1/lookup-key")

    static let protectedLookupKeyBinding = AssociatedData("swift-keychain/v1/protected-lookup-key")
}
