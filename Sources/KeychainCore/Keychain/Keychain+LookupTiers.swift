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

import Crypto
import Foundation
import GRDB
import Logging

extension Keychain {
    // MARK: Primary keys across tiers

    /// The hash that `attributes`' primary key has in the tier that does not hash `protection`,
    /// where an item with the same primary key would also be a duplicate (Apple's primary keys
    /// leave the class out); `nil` when one tier hashes every class.
    ///
    /// - Throws: ``KeychainCoreError/Code/interactionNotAllowed`` before the first unlock when the
    ///   table holds passcode-protected rows: they cannot be ruled out, and a duplicate is refused
    ///   rather than risked.
    func otherTierPrimaryKeyHash(
        of attributes: [String: AttributeValue],
        protection: ProtectionClass,
        schema: ItemSchema,
        tiers: LookupTiers,
        in db: Database
    ) throws(KeychainCoreError) -> Data? {
        guard tiers.areSeparate else { return nil }
        let other: LookupTier
        if protection.isPasscodeProtected {
            other = tiers.device
        } else if let protected = tiers.protected {
            other = protected
        } else {
            if try hasLockedRows(schema.itemClass, tiers: tiers, in: db) {
                throw KeychainCoreError(
                    .interactionNotAllowed,
                    "the passcode-protected items cannot be checked for a duplicate before the first unlock"
                )
            }
            return nil
        }
        return codec.primaryKeyHash(of: attributes, schema: schema, tier: other)
    }

    /// Whether the row with primary-key hash `hash` exists (other than `rowID`).
    func primaryKeyExists(_ hash: Data, itemClass: ItemClass, excluding rowID: Int64? = nil, in db: Database) throws(KeychainCoreError) -> Bool {
        do {
            let statement = try db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM \(itemClass.tableName) WHERE pkey = ? AND rowid IS NOT ?)"
            )
            return try Bool.fetchOne(statement, arguments: [hash, rowID]) ?? false
        } catch {
            throw SQLiteItemStore.translate(error, "cannot check for a duplicate item")
        }
    }

    /// Whether `itemClass`'s table has rows that only the locked protected tier can tell apart.
    private func hasLockedRows(_ itemClass: ItemClass, tiers: LookupTiers, in db: Database) throws(KeychainCoreError) -> Bool {
        let table = itemClass.tableName
        let deviceTags = tiers.deviceTags(table: table)
        do {
            return try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM \(table) WHERE pdmn NOT IN (\(deviceTags.map { _ in "?" }.joined(separator: ", "))))",
                arguments: StatementArguments(deviceTags)
            ) ?? false
        } catch {
            throw SQLiteItemStore.translate(error, "cannot inspect the keychain")
        }
    }

    // MARK: Moving a keychain to separate tiers

    /// Gives a keychain from before the tiers its protected look-up key, and re-hashes its
    /// passcode-protected rows under it, in one transaction. Runs when every class key is
    /// available (on opening a keychain without a passcode, at the first unlock); a failure is
    /// logged and the keychain keeps working with one tier until the next try.
    func separateLookupTiersIfNeeded() {
        guard !keybag.lookupTiers.areSeparate, keybag.isUnlocked else { return }
        let result = Result { () throws(KeychainCoreError) in
            let record = try store.write { db throws(KeychainCoreError) -> KeybagRecord in
                guard var record = try KeybagRecord.fetch(db) else {
                    throw KeychainCoreError(.decode, "the keybag is missing")
                }
                // Done by another process, or some class still locked: nothing to do now.
                guard record.sealedProtectedLookupKey == nil,
                    record.wrappedClassKeys.keys.allSatisfy({ !$0.isPasscodeProtected || keybag.classKey($0) != nil }),
                    let classKey = keybag.classKey(Keybag.protectedLookupWrappingClass)
                else { return record }
                let old = keybag.lookupTiers
                record.sealedProtectedLookupKey = try Keybag.sealProtectedLookupKey(SymmetricKey(size: .bits256), classKey: classKey)
                let tiers = try keybag.lookupTiers(of: record, classKeys: [Keybag.protectedLookupWrappingClass: classKey])
                for itemClass in ItemClass.storedClasses {
                    try rehashRows(of: itemClass, from: old, to: tiers, in: db)
                }
                try record.save(db)
                return record
            }
            try keybag.adoptLookupTiers(from: record)
        }
        switch result {
        case .success:
            // The write-ahead log may still hold pages with the old hashes: fold it in and empty it.
            _ = try? store.writeWithoutTransaction { db throws(KeychainCoreError) in
                do { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } catch {
                    throw SQLiteItemStore.translate(error, "cannot checkpoint the keychain database")
                }
            }
        case .failure(let error):
            logger.error("cannot give the passcode-protected items their own look-up key", metadata: ["keychain.error": "\(error)"])
        }
    }

    /// The tiers an operation uses from start to end: the keybag's, after picking up the protected
    /// look-up key that another process may have given a keychain from before the tiers (a read
    /// only while this process still hashes every class in one tier).
    func refreshLookupTiers(in db: Database) throws(KeychainCoreError) -> LookupTiers {
        let tiers = keybag.lookupTiers
        guard !tiers.areSeparate else { return tiers }
        let hasProtectedKey: Bool
        do {
            hasProtectedKey = try Bool.fetchOne(db, sql: "SELECT protected_lookup_key IS NOT NULL FROM keybag") ?? false
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the keybag")
        }
        guard hasProtectedKey, let record = try KeybagRecord.fetch(db) else { return tiers }
        try keybag.adoptLookupTiers(from: record)
        return keybag.lookupTiers
    }

    private func rehashRows(
        of itemClass: ItemClass,
        from old: LookupTiers,
        to tiers: LookupTiers,
        in db: Database
    ) throws(KeychainCoreError) {
        let schema = ItemSchema.of(itemClass)
        let table = itemClass.tableName
        // Row by row, by rowid: a large keychain is never held in memory at once.
        var rowIDs: [Int64] = []
        do {
            // A row whose tag names no class was hashed with a protected key this keybag lost (the
            // column was emptied): re-hashing now would strand it for good. Stay as is, loudly.
            let tags = try Row.fetchCursor(db, sql: "SELECT rowid, uuid, pdmn FROM \(table) ORDER BY rowid")
            while let tag = try tags.next() {
                guard let rowID = tag[0] as Int64?, let identifier = tag[1] as Data?, let value = tag[2] as Data?,
                    old.protection(forTag: value, table: table, identifier: identifier) != nil
                else {
                    throw KeychainCoreError(.decode, "\(table) holds rows of no known class; the keybag's protected look-up key may be missing")
                }
                rowIDs.append(rowID)
            }
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the items to re-hash")
        }
        let select = "SELECT \(RowSQL.of(itemClass).columns) FROM \(table) WHERE rowid = ?"
        func row(_ rowID: Int64) throws(KeychainCoreError) -> ItemRow? {
            do {
                return try Row.fetchOne(db.cachedStatement(sql: select), arguments: [rowID]).flatMap { ItemRow(row: $0, schema: schema) }
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read an item to re-hash")
            }
        }
        var damaged = 0
        for rowID in rowIDs {
            guard let row = try row(rowID) else { continue }
            let moved = Result { () throws(KeychainCoreError) in
                try codec.rehashed(row, itemClass: itemClass, from: old, to: tiers)
            }
            switch moved {
            case .success(let rehashed?):
                try rehashed.update(in: db, schema: schema)
            case .success(nil):
                continue
            case .failure(let error) where error.code == .decode:
                // Undecryptable before and after; its old hashes would let the device key confirm its
                // attributes, so they are replaced by random bytes (the ciphertexts stay as they were).
                try scrambleLookupColumns(of: row, schema: schema, in: db)
                damaged += 1
            case .failure(let error):
                throw error
            }
        }
        if damaged > 0 {
            logger.warning(
                "replaced the look-up hashes of undecryptable items by random bytes",
                metadata: ["keychain.item.class": "\(itemClass.rawValue)", "keychain.item.count": "\(damaged)"]
            )
        }
    }

    /// Replaces a row's class tag and look-up hashes by random bytes.
    private func scrambleLookupColumns(of row: ItemRow, schema: ItemSchema, in db: Database) throws(KeychainCoreError) {
        func random() -> Data { SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) } }
        var scrambled = row
        scrambled.protectionTag = random()
        scrambled.primaryKeyHash = random()
        for code in row.keyColumns.keys {
            scrambled.keyColumns[code] = random()
        }
        try scrambled.update(in: db, schema: schema)
    }
}
