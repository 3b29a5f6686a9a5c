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

package import KeychainCore

/// The statements of one item table, built once: the hot paths run them as cached statements.
package struct RowSQL: Sendable {
    /// The column list that ``ItemRow/init(row:schema:)`` reads, in its order.
    package let columns: String
    /// `SELECT` of ``columns`` from the table, to which a search appends its conditions.
    package let select: String
    /// `INSERT` of every column but `rowid`.
    package let insert: String
    /// `UPDATE` of every column but `rowid` and `uuid`, by `rowid`.
    package let update: String
    /// `DELETE` by `rowid`.
    package let deleteByRowID: String

    private init(_ itemClass: ItemClass) {
        let table = itemClass.tableName
        let keyCodes = ItemSchema.of(itemClass).primaryKey.map(\.code)
        let stored = ["uuid", "pdmn", "pkey"] + keyCodes + ["mkey", "data", "skey", "v_Data"]
        columns = (["rowid", "uuid", "pdmn", "pkey", "mkey", "data", "skey", "v_Data"] + keyCodes).joined(
            separator: ", "
        )
        select = "SELECT \(columns) FROM \(table)"
        let placeholders = Array(repeating: "?", count: stored.count).joined(separator: ", ")
        insert = "INSERT INTO \(table) (\(stored.joined(separator: ", "))) VALUES (\(placeholders))"
        let assignments = stored.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")
        update = "UPDATE \(table) SET \(assignments) WHERE rowid = ?"
        deleteByRowID = "DELETE FROM \(table) WHERE rowid = ?"
    }

    private static let all: [ItemClass: RowSQL] = Dictionary(
        uniqueKeysWithValues: ItemClass.storedClasses.map { ($0, RowSQL($0)) }
    )

    /// The statements of `itemClass`'s table.
    package static func of(_ itemClass: ItemClass) -> RowSQL {
        all[itemClass] ?? RowSQL(itemClass)
    }
}
