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
import KeychainCore

/// The SQL of one item table (`genp`, `inet`, `cert`, `keys`): the queries the item operations,
/// the duplicate checks and re-keying run, inside the caller's transaction.
///
/// Every value it compares is a keyed hash or a random identifier; the callers compute them.
struct ItemTable {
    // MARK: Properties

    /// The class whose items the table holds.
    let itemClass: ItemClass
    /// The table's name, the class code.
    let name: String

    private var sql: RowSQL { RowSQL.of(itemClass) }
    private var schema: ItemSchema { ItemSchema.of(itemClass) }

    // MARK: Initialization

    init(_ itemClass: ItemClass) {
        self.itemClass = itemClass
        name = itemClass.tableName
    }

    // MARK: Counting and checking

    /// How many rows the table holds.
    func count(in db: Database) throws(KeychainError) -> Int {
        try run("cannot count the items") { try Int.fetchOne(db, sql: "SELECT count(*) FROM \(name)") ?? 0 }
    }

    /// Whether a row other than `rowID` has the primary-key hash `hash`.
    func containsPrimaryKey(_ hash: Data, excluding rowID: Int64? = nil, in db: Database) throws(KeychainError) -> Bool
    {
        try run("cannot check for a duplicate item") {
            let statement = try db.cachedStatement(
                sql: "SELECT EXISTS (SELECT 1 FROM \(name) WHERE pkey = ? AND rowid IS NOT ?)"
            )
            return try Bool.fetchOne(statement, arguments: [hash, rowID]) ?? false
        }
    }

    /// Whether a row has a class tag other than `tags`.
    func containsRows(taggedOutside tags: [Data], in db: Database) throws(KeychainError) -> Bool {
        try run("cannot inspect the keychain") {
            try Bool.fetchOne(
                db,
                sql: "SELECT EXISTS (SELECT 1 FROM \(name) WHERE pdmn NOT IN (\(Self.placeholders(tags.count))))",
                arguments: StatementArguments(tags)
            ) ?? false
        }
    }

    // MARK: Reading rows

    /// Every row's `rowid`, in insertion order.
    func rowIDs(in db: Database) throws(KeychainError) -> [Int64] {
        try run("cannot read the items") { try Int64.fetchAll(db, sql: "SELECT rowid FROM \(name) ORDER BY rowid") }
    }

    /// The row `rowID`, if it exists and reads.
    func row(_ rowID: Int64, in db: Database) throws(KeychainError) -> ItemRow? {
        try run("cannot read an item") {
            let statement = try db.cachedStatement(sql: sql.select + " WHERE rowid = ?")
            return try Row.fetchOne(statement, arguments: [rowID]).flatMap { ItemRow(row: $0, schema: schema) }
        }
    }

    /// The row with the primary-key hash `hash`, if it exists and reads.
    func row(primaryKeyHash hash: Data, in db: Database) throws(KeychainError) -> ItemRow? {
        try run("cannot check for a duplicate item") {
            try Row.fetchOne(db, sql: sql.select + " WHERE pkey = ?", arguments: [hash])
                .flatMap { ItemRow(row: $0, schema: schema) }
        }
    }

    /// The row with the identifier `identifier`, if it exists and reads.
    func row(identifier: Data, in db: Database) throws(KeychainError) -> ItemRow? {
        try run("cannot read an item") {
            let statement = try db.cachedStatement(sql: sql.select + " WHERE uuid = ?")
            return try Row.fetchOne(statement, arguments: [identifier]).flatMap { ItemRow(row: $0, schema: schema) }
        }
    }

    /// Calls `body` with each row's `rowid`, identifier and class tag, in insertion order.
    func forEachTag(in db: Database, _ body: (Int64, Data, Data) throws(KeychainError) -> Void) throws(KeychainError) {
        try run("cannot read the items") {
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid, uuid, pdmn FROM \(name) ORDER BY rowid")
            while let row = try rows.next() {
                guard let rowID = row[0] as Int64?, let identifier = row[1] as Data?, let tag = row[2] as Data? else {
                    continue
                }
                try body(rowID, identifier, tag)
            }
        }
    }

    /// Calls `body` with each row that `filter` selects, in insertion order, while it returns `true`.
    ///
    /// A row that does not read (a column missing or of the wrong type) is skipped.
    func forEachRow(
        matching filter: RowFilter,
        in db: Database,
        _ body: (ItemRow) throws(KeychainError) -> Bool
    ) throws(KeychainError) {
        let (statementSQL, arguments) = Self.search(filter, from: sql.select)
        try run("cannot search the keychain") {
            let statement = try db.cachedStatement(sql: statementSQL)
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            while let raw = try cursor.next() {
                guard let row = ItemRow(row: raw, schema: schema) else { continue }
                guard try body(row) else { return }
            }
        }
    }

    /// A page of the table after row id `rowID`, in insertion order: up to `limit` rows, fewer
    /// once they hold `maximumBytes` of ciphertext (one at least), for a scan of the whole table in
    /// pages each read in a transaction of its own.
    ///
    /// - Returns: The rows that read, how many did not (a column missing or of the wrong type),
    ///   and the last row id of the page, read or not (`nil` past the end).
    func page(
        after rowID: Int64,
        limit: Int,
        maximumBytes: Int,
        in db: Database
    ) throws(KeychainError) -> (rows: [ItemRow], unreadable: Int, last: Int64?) {
        try run("cannot read the keychain") {
            let statement = try db.cachedStatement(sql: sql.select + " WHERE rowid > ? ORDER BY rowid LIMIT ?")
            let cursor = try Row.fetchCursor(statement, arguments: [rowID, limit])
            var rows: [ItemRow] = []
            var unreadable = 0
            var last: Int64?
            var bytes = 0
            while let raw = try cursor.next() {
                last = raw[0] as Int64?
                if let row = ItemRow(row: raw, schema: schema) {
                    bytes += row.metadata.count + row.secret.count + row.secretKeyEnvelope.count
                    rows.append(row)
                } else {
                    unreadable += 1
                }
                if bytes >= maximumBytes { break }
            }
            return (rows, unreadable, last)
        }
    }

    // MARK: Deleting rows

    /// Deletes the rows `rowIDs`.
    func deleteRows(_ rowIDs: [Int64], in db: Database) throws(KeychainError) {
        try run("cannot delete items") {
            let statement = try db.cachedStatement(sql: sql.deleteByRowID)
            for rowID in rowIDs {
                try statement.execute(arguments: [rowID])
            }
        }
    }

    /// Erases the keys and ciphertexts of the rows `rowIDs`, keeping their look-up columns: the
    /// rows become tombstones (``ItemRow/isTombstone``) that a later operation meets and removes.
    func bury(_ rowIDs: [Int64], in db: Database) throws(KeychainError) {
        try run("cannot erase items") {
            let statement = try db.cachedStatement(sql: "UPDATE \(name) SET \(Self.erasedColumns) WHERE rowid = ?")
            for rowID in rowIDs {
                try statement.execute(arguments: [rowID])
            }
        }
    }

    /// Erases the keys and ciphertexts of every row tagged `tag` (see ``bury(_:in:)``).
    func bury(tagged tag: Data, in db: Database) throws(KeychainError) {
        try run("cannot erase items") {
            try db.execute(sql: "UPDATE \(name) SET \(Self.erasedColumns) WHERE pdmn = ?", arguments: [tag])
        }
    }

    /// The assignments that leave a row's look-up columns and nothing else.
    private static let erasedColumns = "mkey = x'', data = x'', skey = x'', v_Data = x''"

    /// Deletes the row `rowID` if it is still the item `identifier`.
    func deleteRow(_ rowID: Int64, identifier: Data, in db: Database) throws(KeychainError) {
        try run("cannot delete an item") {
            try db.execute(sql: "DELETE FROM \(name) WHERE rowid = ? AND uuid = ?", arguments: [rowID, identifier])
        }
    }

    // MARK: Private

    /// Runs `body`, translating a database error into ``KeychainError`` with `message`.
    private func run<T>(_ message: String, _ body: () throws -> T) throws(KeychainError) -> T {
        do {
            return try body()
        } catch let error as KeychainError {
            throw error
        } catch {
            throw SQLiteItemStore.translate(error, message)
        }
    }

    private static func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }

    /// The statement that reads the rows `filter` selects, in insertion order, and its arguments.
    ///
    /// Written into one string: every search renders it (the statement itself is cached), and
    /// joining it from pieces cost 5 µs of a 70 µs look-up (measured in-process, release).
    private static func search(_ filter: RowFilter, from select: String) -> (String, StatementArguments) {
        var sql = select
        sql.reserveCapacity(select.utf8.count + 64 + 48 * filter.alternatives.count)
        var arguments: [(any DatabaseValueConvertible)?] = []
        var hasClause = false
        if let identifier = filter.identifier {
            sql += " WHERE uuid = ?"
            arguments.append(identifier)
            hasClause = true
        }
        let alternatives = filter.alternatives
        if alternatives.count != 1 || !alternatives[0].isEmpty {
            sql += hasClause ? " AND " : " WHERE "
            if alternatives.isEmpty { sql += "0" }
            let grouped = alternatives.count > 1
            if grouped { sql += "(" }
            for (index, conditions) in alternatives.enumerated() {
                if index > 0 { sql += " OR " }
                if grouped { sql += "(" }
                if conditions.isEmpty { sql += "1" }
                for (position, condition) in conditions.enumerated() {
                    if position > 0 { sql += " AND " }
                    switch condition {
                    case .equals(let column, let value):
                        sql += column
                        sql += " = ?"
                        arguments.append(value)
                    case .isIn(let column, let values), .notIn(let column, let values):
                        sql += column
                        if case .notIn = condition { sql += " NOT" }
                        sql += " IN ("
                        for offset in values.indices {
                            sql += offset == values.startIndex ? "?" : ", ?"
                            arguments.append(values[offset])
                        }
                        sql += ")"
                    }
                }
                if grouped { sql += ")" }
            }
            if grouped { sql += ")" }
        }
        sql += " ORDER BY rowid"
        return (sql, StatementArguments(arguments))
    }
}

/// Which rows of an item table a search reads: those of `identifier` (if given) that satisfy
/// every condition of at least one alternative.
struct RowFilter {
    /// One comparison of a column with keyed hashes.
    enum Condition {
        case equals(column: String, Data)
        case isIn(column: String, [Data])
        case notIn(column: String, [Data])
    }

    /// The item identifier (`uuid`) the rows must have.
    var identifier: Data?
    /// The alternatives, joined by `OR`; an empty alternative selects every row, none selects none.
    var alternatives: [[Condition]] = []
}
