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

import Foundation
import GRDB
package import KeychainCore
package import KeychainSync

extension Keychain {
    private static let circleService = "circle"
    private static let stateAccount = "state"
    private static let keysAccount = "keys"

    /// Keeps `record` in the keychain's own group: the part needed to exchange while locked
    /// `AfterFirstUnlockThisDeviceOnly`, the circle's `whenUnlocked` keys `WhenUnlockedThisDeviceOnly`
    /// (written only when they are held), and starts journaling as the record's device.
    ///
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the keychain is locked.
    package func saveCircle(_ record: SyncCircleRecord) throws(KeychainError) {
        try store(
            record.afterFirstUnlockPart(),
            account: Self.stateAccount,
            protection: .afterFirstUnlockThisDeviceOnly
        )
        if let keys = record.whenUnlockedPart() {
            try store(keys, account: Self.keysAccount, protection: .whenUnlockedThisDeviceOnly)
        }
        try store.write { db throws(KeychainError) in
            guard try syncJournal.device(in: db) != record.state.identity.id else { return }
            try syncJournal.setDevice(record.state.identity.id, in: db)
        }
    }

    /// Whether the keychain is in a circle: readable at any time, even before the first unlock
    /// (the device's id in the circle is no secret).
    package func isInCircle() throws(KeychainError) -> Bool {
        try store.read { db throws(KeychainError) in try syncJournal.device(in: db) != nil }
    }

    /// The circle the keychain is in, `nil` when none; its `whenUnlocked` keys stand in as
    /// unavailable while the keychain is locked.
    ///
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` before the first unlock.
    package func loadCircle() throws(KeychainError) -> SyncCircleRecord? {
        guard let state = try stored(account: Self.stateAccount) else { return nil }
        let keys: Data?
        do {
            keys = try stored(account: Self.keysAccount)
        } catch  where error.code == .interactionNotAllowed {
            keys = nil
        }
        return try SyncCircleRecord(afterFirstUnlock: state, whenUnlocked: keys, deviceKeys: deviceKeyUser)
    }

    /// Where the device is in the server's stream of its circle's records.
    package func syncCursor() throws(KeychainError) -> RelayCursor {
        try store.read { db throws(KeychainError) in
            try SyncJournal.run("cannot read the circle's cursor") {
                try String.fetchOne(db, sql: "SELECT cursor FROM sync_device WHERE id = 1").flatMap(RelayCursor.init)
                    ?? .start
            }
        }
    }

    /// Records where the device is in the server's stream.
    package func setSyncCursor(_ cursor: RelayCursor) throws(KeychainError) {
        try store.write { db throws(KeychainError) in
            try SyncJournal.run("cannot record the circle's cursor") {
                try db.execute(sql: "UPDATE sync_device SET cursor = ? WHERE id = 1", arguments: [cursor.description])
            }
        }
    }

    /// Leaves the circle: its records and the journal go; the items stay.
    package func leaveCircle() throws(KeychainError) {
        for account in [Self.stateAccount, Self.keysAccount] {
            do {
                try delete(Self.circleQuery(account: account))
            } catch  where error.code == .itemNotFound {}
        }
        try store.write { db throws(KeychainError) in try syncJournal.setDevice(nil, in: db) }
    }

    /// Journals every item that may travel, as changed when it was last modified: what a device
    /// does on making or joining a circle, so that its items reach the others (and an item changed
    /// later elsewhere wins).
    ///
    /// - Returns: How many items were journaled.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the keychain is locked.
    @discardableResult
    package func journalEveryItemThatMayTravel() throws(KeychainError) -> Int {
        try store.write { db throws(KeychainError) in
            let tiers = try refreshLookupTiers(in: db)
            guard keybag.classKey(.whenUnlocked) != nil, let device = try syncJournal.device(in: db) else {
                throw KeychainError(.interactionNotAllowed, "unlock the keychain to synchronise it")
            }
            var count = 0
            for itemClass in Self.backedUpClasses {
                var after: Int64 = 0
                while true {
                    let page = try ItemTable(itemClass).page(after: after, limit: 512, maximumBytes: 64 << 20, in: db)
                    guard let last = page.last else { break }
                    after = last
                    for row in page.rows {
                        guard let item = try? codec.openMetadata(row, itemClass: itemClass, tiers: tiers),
                            Self.maySynchronize(item.accessControl, attributes: item.attributes)
                        else { continue }
                        var modified = Date(timeIntervalSince1970: 0)
                        if case .date(let date)? = item.attributes["mdat"] { modified = date }
                        let version = SyncVersion(
                            milliseconds: UInt64(max(0, modified.timeIntervalSince1970 * 1000)),
                            counter: 0,
                            device: device
                        )
                        try SyncJournal.run("cannot record a change for synchronisation") {
                            try db.cachedStatement(
                                sql: "INSERT OR IGNORE INTO sync_journal (tbl, uuid, version) VALUES (?, ?, ?)"
                            )
                            .execute(arguments: [itemClass.tableName, item.identifier, version.encoded])
                        }
                        count += 1
                    }
                }
            }
            return count
        }
    }

    // MARK: The records' items

    private static func circleQuery(account: String) -> ItemQuery {
        var query = ItemQuery(itemClass: .genericPassword)
        query.accessGroups = AccessGroups([syncGroup])
        query.attributes[QueryKey.accessGroup] = .string(syncGroup)
        query.attributes["svce"] = .string(circleService)
        query.attributes["acct"] = .string(account)
        query.attributes[QueryKey.synchronizable] = .bool(false)
        return query
    }

    private func store(_ data: Data, account: String, protection: ProtectionClass) throws(KeychainError) {
        var add = Self.circleQuery(account: account)
        add.protection = protection
        add.valueData = data
        do {
            try self.add(add)
        } catch  where error.code == .duplicateItem {
            // The protection is set again: a record that is not this device's alone is never kept.
            var changes = ItemUpdate()
            changes.valueData = data
            changes.protection = protection
            try update(Self.circleQuery(account: account), with: changes)
        }
    }

    private func stored(account: String) throws(KeychainError) -> Data? {
        var query = Self.circleQuery(account: account)
        query.returnTypes = [.data]
        query.matchLimit = .one
        do {
            return try search(query).first?.data
        } catch  where error.code == .itemNotFound {
            return nil
        }
    }
}
