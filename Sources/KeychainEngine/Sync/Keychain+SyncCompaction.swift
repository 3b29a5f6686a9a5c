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
package import KeychainSync

extension Keychain {
    /// How long a deletion is kept on the server before its row is removed.
    ///
    /// A device that comes back after longer keeps the items deleted meanwhile (README,
    /// "Synchronising"). Here, the deletion's name and version stay (a few dozen bytes each).
    package static let deletionLifetime: TimeInterval = 180 * 86_400

    /// The deletions this device knows of that are older than `horizon`: their names and versions.
    package func deletions(olderThan horizon: Date) throws(KeychainError) -> [(itemID: Data, version: SyncVersion)] {
        try store.read { db throws(KeychainError) in
            try SyncJournal.run("cannot read the circle's items") {
                try Row.fetchAll(
                    db,
                    sql: "SELECT item, version FROM sync_items WHERE deleted = 1 AND version < ? LIMIT 1000",
                    arguments: [Self.version(at: horizon).encoded]
                )
                .compactMap { row -> (Data, SyncVersion)? in
                    guard let item = row[0] as Data?, let raw = row[1] as Data?,
                        let version = try? SyncVersion(encoded: raw)
                    else { return nil }
                    return (item, version)
                }
            }
        }
    }

    /// Marks deletions whose server rows are gone (unless a newer change came): they are not
    /// looked for again, but stay known here, so that a replay of the item's older row is stale.
    package func forgetDeletions(_ deletions: [(itemID: Data, version: SyncVersion)]) throws(KeychainError) {
        guard !deletions.isEmpty else { return }
        try store.write { db throws(KeychainError) in
            for deletion in deletions {
                try SyncJournal.run("cannot forget a deletion") {
                    try db.execute(
                        sql: "UPDATE sync_items SET deleted = 2 WHERE item = ? AND version = ? AND deleted = 1",
                        arguments: [deletion.itemID, deletion.version.encoded]
                    )
                }
            }
        }
    }

    /// The smallest version of any device at `date`: versions sort by time first.
    private static func version(at date: Date) -> SyncVersion {
        SyncVersion(milliseconds: UInt64(max(0, date.timeIntervalSince1970 * 1000)), counter: 0, device: .lowest)
    }
}
