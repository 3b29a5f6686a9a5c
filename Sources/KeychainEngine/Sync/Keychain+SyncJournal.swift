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
import KeychainSync

extension Keychain {
    /// Journals a change of the item `identifier` when it is (or was, before the change)
    /// synchronizable and the keychain is in a circle; nothing otherwise.
    ///
    /// Runs inside the change's own transaction: the change and its journal entry are written
    /// together or not at all.
    func journalChange(
        of itemClass: ItemClass,
        identifier: Data,
        synchronizable: Bool,
        in db: Database
    ) throws(KeychainError) {
        guard synchronizable, let version = try syncJournal.stamp(now: clock(), in: db) else { return }
        try SyncJournal.run("cannot record a change for synchronisation") {
            try db.cachedStatement(sql: "INSERT OR REPLACE INTO sync_journal (tbl, uuid, version) VALUES (?, ?, ?)")
                .execute(arguments: [itemClass.tableName, identifier, version.encoded])
        }
        syncJournal.noteChange(in: db)
    }

    /// How many items have changes journaled and not sent yet; readable while the keychain is
    /// locked (the journal names rows, nothing of their content).
    ///
    /// - Returns: The number of journal entries.
    /// - Throws: ``KeychainError`` when the database cannot be read.
    package func unsentSyncChangeCount() throws(KeychainError) -> Int {
        try store.read { db throws(KeychainError) in
            try SyncJournal.run("cannot read the synchronisation journal") {
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_journal") ?? 0
            }
        }
    }

    /// Calls `body` after every committed change that the circle should hear of; `nil` stops.
    package func onSynchronizableChange(_ body: (@Sendable () -> Void)?) { syncJournal.onChange(body) }

    /// Whether attributes mark an item `kSecAttrSynchronizable`.
    static func isSynchronizable(_ attributes: [String: AttributeValue]) -> Bool {
        attributes[QueryKey.synchronizable] == .bool(true)
    }
}
