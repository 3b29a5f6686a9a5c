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
import KeychainContract
package import KeychainCore
import KeychainSync

extension Keychain {
    /// The group of the circle's own items (the device's identity, the circle's keys): no client
    /// names or reaches it, nothing synchronises or restores into it.
    package static let syncGroup = AccessGroups.synchronizationGroup

    /// Reads up to `limit` journaled changes, as the circle will see them.
    ///
    /// A change of an item that may leave the device (synchronizable, not `…ThisDeviceOnly`, no
    /// access control constraints, not a token key) is sent as its record; an item that was
    /// deleted, stopped being synchronizable, or moved to another primary key (under another
    /// name) is sent as a deletion of the name the circle knew it by.
    ///
    /// - Parameters:
    ///   - limit: The most journal entries to read.
    ///   - naming: The circle's keyed hash of an item's class and primary key.
    /// - Returns: The changes, and the journal entries they settle (``settleSyncChanges(_:)``).
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the keychain is locked.
    package func pendingSyncChanges(limit: Int, naming: (Data) -> Data) throws(KeychainError) -> PendingSyncChanges {
        try store.read { db throws(KeychainError) in
            let tiers = try refreshLookupTiers(in: db)
            guard keybag.classKey(.whenUnlocked) != nil else {
                throw KeychainError(.interactionNotAllowed, "the keychain is locked")
            }
            var pending = PendingSyncChanges()
            let rows = try SyncJournal.run("cannot read the synchronisation journal") {
                try Row.fetchAll(
                    db,
                    sql: "SELECT tbl, uuid, version FROM sync_journal ORDER BY version LIMIT ?",
                    arguments: [limit]
                )
            }
            for row in rows {
                guard let table = row[0] as String?, let identifier = row[1] as Data?, let raw = row[2] as Data?,
                    let version = try? SyncVersion(encoded: raw),
                    let itemClass = ItemClass.storedClasses.first(where: { $0.tableName == table })
                else { continue }
                let known = try SyncJournal.run("cannot read the circle's items") {
                    try Data.fetchOne(
                        db.cachedStatement(
                            sql: "SELECT item FROM sync_items WHERE tbl = ? AND uuid = ? AND deleted = 0"
                        ),
                        arguments: [table, identifier]
                    )
                }
                var changes: [SyncItemChange] = []
                switch try syncRecord(of: itemClass, identifier: identifier, tiers: tiers, in: db) {
                case .leaves(let item, let syncClass):
                    let itemID = naming(Self.syncIdentity(of: item))
                    changes.append(
                        SyncItemChange(
                            itemID: itemID,
                            version: version,
                            content: .item(record: item.encoded(), syncClass: syncClass)
                        )
                    )
                    if let known, known != itemID {
                        changes.append(SyncItemChange(itemID: known, version: version, content: .deleted))
                    }
                case .stays:
                    if let known { changes.append(SyncItemChange(itemID: known, version: version, content: .deleted)) }
                case .unreadable:
                    pending.deferred += 1
                    continue
                }
                pending.entries.append((table, identifier, version, changes))
            }
            return pending
        }
    }

    /// Marks changes as sent: their journal entries go (unless a newer change of the same item
    /// was journaled meanwhile) and the circle's names of the items are remembered.
    package func settleSyncChanges(_ pending: PendingSyncChanges) throws(KeychainError) {
        guard !pending.isEmpty else { return }
        try store.write { db throws(KeychainError) in
            for entry in pending.entries {
                try SyncJournal.run("cannot settle the synchronisation journal") {
                    try db.cachedStatement(sql: "DELETE FROM sync_journal WHERE tbl = ? AND uuid = ? AND version = ?")
                        .execute(arguments: [entry.table, entry.identifier, entry.version.encoded])
                }
            }
            for entry in pending.entries {
                for change in entry.changes {
                    let identifier: Data? = if case .item = change.content { entry.identifier } else { nil }
                    try remember(
                        change.itemID,
                        table: entry.table,
                        identifier: identifier,
                        version: change.version,
                        in: db
                    )
                }
            }
        }
    }

    /// Records that the circle's item `itemID` is the local row `identifier` (`nil`: deleted) at
    /// `version`, unless a greater version of it is known; another name the row had is forgotten.
    func remember(
        _ itemID: Data,
        table: String,
        identifier: Data?,
        version: SyncVersion,
        in db: Database
    ) throws(KeychainError) {
        try SyncJournal.run("cannot record the circle's item") {
            if let identifier {
                try db.cachedStatement(
                    sql: "UPDATE sync_items SET uuid = NULL, deleted = 1 WHERE tbl = ? AND uuid = ? AND item != ?"
                )
                .execute(arguments: [table, identifier, itemID])
            }
            try db.cachedStatement(
                sql: """
                    INSERT INTO sync_items (item, tbl, uuid, version, deleted) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (item) DO UPDATE SET tbl = excluded.tbl, uuid = excluded.uuid,
                        version = excluded.version, deleted = excluded.deleted
                    WHERE excluded.version > sync_items.version
                    """
            )
            .execute(arguments: [itemID, table, identifier, version.encoded, identifier == nil])
        }
    }

    /// The bytes the circle names an item by: its class and its primary key's attributes.
    static func syncIdentity(of item: BackupItem) -> Data {
        var key: [String: AttributeValue] = [:]
        for descriptor in ItemSchema.of(item.itemClass).primaryKey {
            key[descriptor.code] = item.attributes[descriptor.code]
        }
        var identity = Data(item.itemClass.rawValue.utf8)
        identity.append(0)
        identity.append(MetadataCodec.encode(key))
        return identity
    }

    /// Whether an item may travel in a circle: synchronizable, able to leave the device, no
    /// access control constraints, not in a reserved group.
    static func maySynchronize(_ accessControl: AccessControl, attributes: [String: AttributeValue]) -> Bool {
        guard isSynchronizable(attributes), omission(of: accessControl, attributes: attributes) == nil,
            !accessControl.hasConstraints, case .string(let group)? = attributes[QueryKey.accessGroup]
        else { return false }
        return group != syncGroup && group != ApplicationRegistry.recordsGroup && !AccessGroups.readOnly.contains(group)
    }

    private enum SyncReading {
        case leaves(BackupItem, SyncClass)
        case stays
        case unreadable
    }

    /// The record of the row `identifier` if it may travel, or why not.
    private func syncRecord(
        of itemClass: ItemClass,
        identifier: Data,
        tiers: LookupTiers,
        in db: Database
    ) throws(KeychainError) -> SyncReading {
        guard let row = try ItemTable(itemClass).row(identifier: identifier, in: db), !row.isTombstone else {
            return .stays
        }
        let item: StoredItem
        do throws(KeychainError) {
            item = try codec.openMetadata(row, itemClass: itemClass, tiers: tiers)
        } catch {
            return error.code == .interactionNotAllowed ? .unreadable : .stays
        }
        guard Self.maySynchronize(item.accessControl, attributes: item.attributes) else { return .stays }
        let secret: Data
        do throws(KeychainError) {
            secret = try codec.openSecret(
                row,
                item: item,
                credentials: AuthenticationCredentials(),
                operation: .useItem,
                currentConstraints: { () throws(KeychainError) in [:] }
            )
        } catch {
            return error.code == .interactionNotAllowed ? .unreadable : .stays
        }
        var attributes = item.attributes
        attributes[StoredItem.publicKeyMark] = nil
        let record = BackupItem(
            itemClass: itemClass,
            identifier: item.identifier,
            accessControl: item.accessControl,
            attributes: attributes,
            secret: secret
        )
        return .leaves(record, item.protection == .whenUnlocked ? .whenUnlocked : .afterFirstUnlock)
    }
}
