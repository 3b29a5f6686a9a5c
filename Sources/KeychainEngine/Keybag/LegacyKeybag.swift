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
package import GRDB
package import KeychainCore

/// The keybag as keychains before the sealed keybag stored it: the `keybag`, `class_key` and
/// `lock_key` tables, each field in the clear beside the items.
///
/// Such a keychain is converted when it is first opened (``Keychain``): its record is sealed into
/// `sealed_keybag`, these tables are emptied, and — if it has a passcode — its class keys are
/// replaced at its next unlock, since a copy of these tables from before the passcode would
/// otherwise open items added since.
package enum LegacyKeybag {
    /// Reads the legacy keybag, or `nil` if the tables hold none.
    ///
    /// Lock rows are checked against their integrity code (keyed by the device key); a row whose
    /// code is missing or wrong comes back marked damaged, so that its items are refused and never
    /// deleted.
    package static func fetch(_ db: Database, deviceSecret: SymmetricKey) throws(KeychainError) -> KeybagRecord? {
        do {
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM keybag WHERE id = 1") else { return nil }
            var keys: [ProtectionClass: Data] = [:]
            for keyRow in try Row.fetchAll(db, sql: "SELECT pdmn, wrapped FROM class_key") {
                guard let protection = ProtectionClass(rawValue: keyRow["pdmn"] ?? ""),
                    let wrapped = keyRow["wrapped"] as Data?
                else {
                    throw KeychainError(.decode, "the keybag holds a damaged class key")
                }
                keys[protection] = wrapped
            }
            guard let version = row["version"] as Int?, version == 1,
                let deviceSalt = row["device_salt"] as Data?,
                let rounds = row["kdf_rounds"] as Int?, let blockSize = row["kdf_block_size"] as Int?,
                let parallelism = row["kdf_parallelism"] as Int?,
                let hasPasscode = row["has_passcode"] as Bool?,
                let lookup = row["lookup_key"] as Data?
            else {
                throw KeychainError(.decode, "the keybag is damaged or of an unknown version")
            }
            let kdf = PasscodeKDF(rounds: rounds, blockSize: blockSize, parallelism: parallelism)
            let deviceKey = PasscodeKDF.deviceKey(deviceSecret: deviceSecret, salt: deviceSalt)
            return KeybagRecord(
                deviceSalt: deviceSalt,
                passcodeSalt: row["passcode_salt"],
                kdf: kdf,
                hasPasscode: hasPasscode,
                sealedLookupKey: lookup,
                sealedProtectedLookupKey: row["protected_lookup_key"],
                wrappedClassKeys: keys,
                constraints: try constraints(db, deviceKey: deviceKey),
                legacyApplicationPassword: LegacyApplicationPassword(
                    kdf: kdf,
                    salt: Data("swift-keychain/v1/application-password".utf8) + deviceSalt
                ),
                needsClassKeyRotation: hasPasscode
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the keybag")
        }
    }

    /// Empties the legacy tables (after their content was sealed).
    package static func erase(_ db: Database) throws(KeychainError) {
        do {
            try db.execute(sql: "DELETE FROM keybag; DELETE FROM class_key; DELETE FROM lock_key")
        } catch {
            throw SQLiteItemStore.translate(error, "cannot empty the old keybag tables")
        }
    }

    /// Writes `record` in the legacy layout (for tests of the conversion).
    package static func save(_ record: KeybagRecord, deviceSecret: SymmetricKey, in db: Database) throws(KeychainError)
    {
        let deviceKey = PasscodeKDF.deviceKey(deviceSecret: deviceSecret, salt: record.deviceSalt)
        do {
            try db.execute(
                sql: """
                    INSERT OR REPLACE INTO keybag
                        (id, version, device_salt, passcode_salt, kdf_rounds, kdf_block_size, kdf_parallelism,
                         has_passcode, lookup_key, protected_lookup_key)
                    VALUES (1, 1, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    record.deviceSalt, record.passcodeSalt, record.kdf.rounds, record.kdf.blockSize,
                    record.kdf.parallelism,
                    record.hasPasscode, record.sealedLookupKey, record.sealedProtectedLookupKey,
                ]
            )
            try db.execute(sql: "DELETE FROM class_key; DELETE FROM lock_key")
            for (protection, wrapped) in record.wrappedClassKeys {
                try db.execute(
                    sql: "INSERT INTO class_key (pdmn, wrapped) VALUES (?, ?)",
                    arguments: [protection.rawValue, wrapped]
                )
            }
            for key in record.constraints.values {
                try db.execute(
                    sql:
                        "INSERT INTO lock_key (kind, key_id, public_key, wrapped_private, domain_hash, mac) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [
                        Int(key.constraint.rawValue), key.identifier, key.publicKey.rawRepresentation,
                        key.wrappedPrivateKey,
                        key.domainHash, integrityCode(key, deviceKey: deviceKey),
                    ]
                )
            }
        } catch {
            throw SQLiteItemStore.translate(error, "cannot write the old keybag tables")
        }
    }

    // MARK: Private

    private static func constraints(
        _ db: Database,
        deviceKey: SymmetricKey
    ) throws -> [AccessPolicy.Constraint: ConstraintKeyRecord] {
        var constraints: [AccessPolicy.Constraint: ConstraintKeyRecord] = [:]
        for row in try Row.fetchAll(
            db,
            sql: "SELECT kind, key_id, public_key, wrapped_private, domain_hash, mac FROM lock_key"
        ) {
            guard let raw = row["kind"] as Int?, let byte = UInt8(exactly: raw),
                let constraint = AccessPolicy.Constraint(rawValue: byte),
                let identifier = row["key_id"] as Data?,
                let publicData = row["public_key"] as Data?,
                let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicData),
                let wrapped = row["wrapped_private"] as Data?
            else {
                throw KeychainError(.decode, "the keybag holds a damaged constraint key")
            }
            var record = ConstraintKeyRecord(
                constraint: constraint,
                identifier: identifier,
                publicKey: publicKey,
                wrappedPrivateKey: wrapped,
                domainHash: row["domain_hash"]
            )
            // A missing code is damage, not trust.
            record.isDamaged = (row["mac"] as Data?) != integrityCode(record, deviceKey: deviceKey)
            constraints[constraint] = record
        }
        return constraints
    }

    /// The legacy integrity code: HMAC-SHA-256 over the row, keyed from the device key.
    private static func integrityCode(_ record: ConstraintKeyRecord, deviceKey: SymmetricKey) -> Data {
        let key = SymmetricKey(
            data: HMAC<SHA256>.authenticationCode(for: Array("swift-keychain/v1/integrity".utf8), using: deviceKey)
        )
        var fields = AssociatedData("swift-keychain/v1/lock-key-row")
            .appending([record.constraint.rawValue])
            .appending(Array(record.identifier))
            .appending(Array(record.publicKey.rawRepresentation))
            .appending(Array(record.wrappedPrivateKey))
        fields.append(record.domainHash.map { [1] + Array($0) } ?? [0])
        return Data(HMAC<SHA256>.authenticationCode(for: fields.bytes, using: key))
    }
}
