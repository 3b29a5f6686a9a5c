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

import GRDB

/// A transaction begun and ended with prepared statements, kept by the connection.
///
/// GRDB's `read` and `write` compile `BEGIN` and `COMMIT` anew for every transaction (each
/// through its statement authorizer): an empty read transaction cost 36 µs in the daemon, and 10
/// with these (BENCHMARKS.md, "Where a look-up's time goes, phase by phase").
enum StoreTransaction {
    /// Its raw value is the statement that begins it (kept whole: every transaction runs it).
    enum Kind: String {
        /// Takes the snapshot at the first read: what every read transaction is.
        case deferred = "BEGIN DEFERRED TRANSACTION"
        /// Takes the write lock at once, so that a write never fails upgrading a read.
        case immediate = "BEGIN IMMEDIATE TRANSACTION"
    }

    /// Runs `body` in a transaction of `kind` on `db` (which is outside of any): all of it is
    /// committed, or none of it.
    ///
    /// `body` must pass database errors on, as every body of the store does (through
    /// ``SQLiteItemStore/translate(_:_:)``): after an error SQLite may have rolled the transaction
    /// back itself, and unlike GRDB's own transactions nothing here refuses the statements a body
    /// would run after catching it (each would commit on its own). Such a body still gets an error
    /// from `run`, but not its earlier statements back.
    static func run<T>(_ kind: Kind, in db: Database, _ body: (Database) throws -> T) throws -> T {
        try db.cachedStatement(sql: kind.rawValue).execute()
        do {
            let result = try body(db)
            guard db.isInsideTransaction else {
                // SQLite ended the transaction itself (a full disk, an I/O error): none of it holds.
                throw DatabaseError(resultCode: .SQLITE_ABORT, message: "the transaction was rolled back")
            }
            try db.cachedStatement(sql: "COMMIT TRANSACTION").execute()
            return result
        } catch {
            if db.isInsideTransaction {
                try? db.cachedStatement(sql: "ROLLBACK TRANSACTION").execute()
            }
            throw error
        }
    }
}
