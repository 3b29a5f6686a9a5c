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

package import Foundation
import GRDB
package import KeychainCore
import KeychainSync
import Logging

extension Keychain {
    /// Applies changes received from the circle, in one transaction.
    ///
    /// The rule every device follows: of two changes of an item, the greater version wins. A
    /// change older than what this device holds (received, or made here and not sent yet) leaves
    /// the item as it is; a newer one replaces it — an item keeps its row identifier, so that this
    /// device's persistent references still find it — or deletes it. Applied changes are not
    /// journaled again. An item no circle may carry (see ``maySynchronize(_:attributes:)``) or
    /// whose name does not match its content is refused, whoever signed it.
    ///
    /// - Parameters:
    ///   - changes: Opened and checked by the caller (signature, circle).
    ///   - naming: The circle's keyed hash of an item's class and primary key.
    /// - Returns: What happened to each change, in order.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the keychain is locked (nothing
    ///   is applied then).
    package func applySyncChanges(
        _ changes: [SyncItemChange],
        naming: (Data) -> Data
    ) throws(KeychainError) -> [SyncApplyOutcome] {
        var erased = false
        defer { if erased { store.noteErasure() } }
        let outcomes = try store.write(erasing: false) { db throws(KeychainError) in
            let tiers = try refreshLookupTiers(in: db)
            guard keybag.classKey(.whenUnlocked) != nil, tiers.tier(for: .whenUnlocked) != nil else {
                throw KeychainError(.interactionNotAllowed, "the keychain is locked")
            }
            var outcomes: [SyncApplyOutcome] = []
            for change in changes {
                // Each change in a savepoint of its own: one that cannot be written here (a store
                // error on that item) is refused alone, and never holds back the others for good.
                var outcome = SyncApplyOutcome.refused
                let written = Result { () throws(KeychainError) in
                    try SyncJournal.run("cannot apply a synchronised change") {
                        try db.inSavepoint {
                            outcome = try self.apply(change, naming: naming, tiers: tiers, in: db)
                            return .commit
                        }
                    }
                }
                if case .failure(let error) = written {
                    if error.code == .interactionNotAllowed { throw error }
                    logger.warning(
                        "could not apply a synchronised change",
                        metadata: ["keychain.error": "\(error.code)"]
                    )
                    outcome = .refused
                }
                if outcome == .applied { erased = true }
                // Inside the transaction: a local change made right after it is stamped later.
                syncJournal.observe(change.version, now: clock())
                outcomes.append(outcome)
            }
            return outcomes
        }
        return outcomes
    }

    private func apply(
        _ change: SyncItemChange,
        naming: (Data) -> Data,
        tiers: LookupTiers,
        in db: Database
    ) throws(KeychainError) -> SyncApplyOutcome {
        // A version more than a day ahead of this device's clock would win every later change of
        // the item for as long: refused (a device whose clock is wrong, or a forged one).
        let horizon = UInt64(max(0, clock().timeIntervalSince1970 * 1000)) &+ 86_400_000
        guard change.version.milliseconds <= horizon else { return .refused }
        let known = try knownSyncItem(change.itemID, in: db)
        if let known, known.version >= change.version { return .stale }
        switch change.content {
        case .deleted:
            if let known, let identifier = known.identifier,
                let itemClass = ItemClass.storedClasses.first(where: { $0.tableName == known.table })
            {
                if let pending = try journaled(known.table, identifier, in: db), pending > change.version {
                    return .keptNewer
                }
                if let row = try ItemTable(itemClass).row(identifier: identifier, in: db), let rowID = row.rowID {
                    // A row the user has since kept to this device (not sent yet) is not the circle's.
                    guard let current = try? codec.openMetadata(row, itemClass: itemClass, tiers: tiers),
                        Self.maySynchronize(current.accessControl, attributes: current.attributes)
                    else { return .refused }
                    try ItemTable(itemClass).deleteRow(rowID, identifier: identifier, in: db)
                }
                try forgetJournal(known.table, identifier, in: db)
            }
            try remember(change.itemID, table: known?.table ?? "", identifier: nil, version: change.version, in: db)
            return .applied
        case .item(let encoded, _):
            guard let record = try? BackupItem(decoding: encoded),
                Self.maySynchronize(record.accessControl, attributes: record.attributes),
                naming(Self.syncIdentity(of: record)) == change.itemID
            else { return .refused }
            return try write(record, change: change, known: known, tiers: tiers, in: db)
        }
    }

    private func write(
        _ record: BackupItem,
        change: SyncItemChange,
        known: (table: String, identifier: Data?, version: SyncVersion)?,
        tiers: LookupTiers,
        in db: Database
    ) throws(KeychainError) -> SyncApplyOutcome {
        var item = record
        let now = clock()
        for date in ["cdat", "mdat"] {
            if case .date(let value)? = item.attributes[date], value > now { item.attributes[date] = .date(now) }
        }
        let table = ItemTable(item.itemClass)
        let schema = ItemSchema.of(item.itemClass)
        // The row: the one the circle's name led to, else one with the same primary key.
        var existing: ItemRow?
        if let identifier = known?.identifier, known?.table == item.itemClass.tableName {
            existing = try table.row(identifier: identifier, in: db)
        }
        if existing == nil {
            let protection = item.accessControl.protection
            let tier = try codec.tier(for: protection, in: tiers)
            let hashes = [
                codec.primaryKeyHash(of: item.attributes, schema: schema, tier: tier),
                try otherTierPrimaryKeyHash(
                    of: item.attributes,
                    protection: protection,
                    schema: schema,
                    tiers: tiers,
                    in: db
                ),
            ]
            for hash in hashes.compactMap({ $0 }) where existing == nil {
                existing = try table.row(primaryKeyHash: hash, in: db)
            }
        }
        var identifier = item.identifier
        if let existing, let rowID = existing.rowID {
            if let pending = try journaled(item.itemClass.tableName, existing.identifier, in: db),
                pending > change.version
            {
                return .keptNewer
            }
            // What a circle never carries (a `…ThisDeviceOnly` item with this primary key, one the
            // user stopped synchronising, one that cannot be read) stays.
            guard let current = try? codec.openMetadata(existing, itemClass: item.itemClass, tiers: tiers),
                Self.maySynchronize(current.accessControl, attributes: current.attributes)
            else { return .refused }
            identifier = existing.identifier
            guard let row = try seal(item, identifier: identifier, constraints: [:], tiers: tiers) else {
                return .refused
            }
            try table.deleteRow(rowID, identifier: existing.identifier, in: db)
            try row.insert(into: db, schema: schema)
        } else {
            if try table.row(identifier: identifier, in: db) != nil { identifier = Self.makeIdentifier() }
            guard let row = try seal(item, identifier: identifier, constraints: [:], tiers: tiers) else {
                return .refused
            }
            try row.insert(into: db, schema: schema)
        }
        try forgetJournal(item.itemClass.tableName, identifier, in: db)
        try remember(
            change.itemID,
            table: item.itemClass.tableName,
            identifier: identifier,
            version: change.version,
            in: db
        )
        return .applied
    }

    /// What this device knows of the circle's item `itemID`.
    private func knownSyncItem(
        _ itemID: Data,
        in db: Database
    ) throws(KeychainError) -> (table: String, identifier: Data?, version: SyncVersion)? {
        try SyncJournal.run("cannot read the circle's items") {
            guard
                let row = try Row.fetchOne(
                    db.cachedStatement(sql: "SELECT tbl, uuid, version FROM sync_items WHERE item = ?"),
                    arguments: [itemID]
                ),
                let table = row[0] as String?, let raw = row[2] as Data?,
                let version = try? SyncVersion(encoded: raw)
            else { return nil }
            return (table, row[1] as Data?, version)
        }
    }

    /// The version of a change of the row `identifier` made here and not sent yet.
    private func journaled(_ table: String, _ identifier: Data, in db: Database) throws(KeychainError) -> SyncVersion? {
        try SyncJournal.run("cannot read the synchronisation journal") {
            try Data.fetchOne(
                db.cachedStatement(sql: "SELECT version FROM sync_journal WHERE tbl = ? AND uuid = ?"),
                arguments: [table, identifier]
            )
            .flatMap { try? SyncVersion(encoded: $0) }
        }
    }

    private func forgetJournal(_ table: String, _ identifier: Data, in db: Database) throws(KeychainError) {
        try SyncJournal.run("cannot settle the synchronisation journal") {
            try db.cachedStatement(sql: "DELETE FROM sync_journal WHERE tbl = ? AND uuid = ?")
                .execute(arguments: [table, identifier])
        }
    }
}
