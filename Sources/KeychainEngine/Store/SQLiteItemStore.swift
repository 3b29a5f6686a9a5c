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
package import GRDB
package import KeychainCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The SQLite database of a keychain: one file, WAL, one writer and concurrent readers.
///
/// The connection exists only inside ``read(_:)`` and ``write(_:)`` closures; every `SecItem*` call
/// is one of those, hence one transaction. Commits are durable (`synchronous = FULL`): an
/// acknowledged write survives a crash of the process or the machine.
package final class SQLiteItemStore: Sendable {
    /// The database file name inside a keychain home.
    package static let fileName = "keychain.db"

    private let pool: DatabasePool
    private let readers: ReaderConnections
    private let scrubber: LogScrubber
    private let logPath: String
    /// The most bytes the database's pages in use may take; `nil` for no limit.
    private let quota: Int?

    // MARK: Initialization

    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    package init(url: URL, quota: Int? = nil) throws(KeychainError) {
        self.quota = quota
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.label = "swift-keychain"
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA secure_delete = ON")
            // A short write-ahead log: the first process to open the keychain replays the whole log,
            // so a log that only grew made every `security` process slower (measured in BENCHMARKS.md).
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 256")
            try db.execute(sql: "PRAGMA journal_size_limit = 1048576")
        }
        // SQLite opens the files by name: check them first (no link, the user's own, nobody else
        // can write), in a home that only the user can change, so that the names stay theirs.
        try PrivateFile.ensure(url.path)
        for suffix in ["-wal", "-shm"] {
            try PrivateFile.check(url.path + suffix)
        }
        let pool: DatabasePool
        do {
            try Self.refuseNewerSchema(url)
            pool = try DatabasePool(path: url.path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw Self.translate(error, "cannot open the keychain database \(url.path)")
        }
        self.pool = pool
        readers = ReaderConnections(path: url.path)
        logPath = url.path + "-wal"
        scrubber = LogScrubber { [weak pool] in
            guard let pool else { return true }
            return Self.truncateLog(of: pool, wait: 0.2)
        }
    }

    deinit {
        // Readers first: the writer, closing last, folds the write-ahead log in and removes it.
        readers.close()
    }

    /// Refuses a database that a newer version migrated, before anything writes to it (a
    /// read-only connection checks, so not even statistics are written).
    private static func refuseNewerSchema(_ url: URL) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        readOnly.busyMode = .timeout(30)
        let superseded: Bool
        do {
            let queue = try DatabaseQueue(path: url.path, configuration: readOnly)
            superseded = try queue.read { db in
                try db.tableExists("grdb_migrations") && migrator.hasBeenSuperseded(db)
            }
        } catch {
            // An empty or damaged file: the pool's own opening reports it.
            return
        }
        if superseded {
            throw KeychainError(
                .invalidKeychain,
                "the keychain database \(url.path) was written by a newer version of swift-keychain; update it to use this keychain"
            )
        }
    }

    // MARK: Transactions

    /// Runs `body` in a read transaction.
    ///
    /// A read that saw a keybag another process replaced meanwhile
    /// (``KeychainError/Code/staleSnapshot``) runs again on a newer snapshot, up to three times.
    package func read<T>(_ body: (Database) throws(KeychainError) -> T) throws(KeychainError) -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try readers.read { db in try StoreTransaction.run(.deferred, in: db) { db in try body(db) } }
            } catch let error as KeychainError where error.code == .staleSnapshot {
                guard attempt < 3 else {
                    throw KeychainError(.decode, error.message)
                }
            } catch {
                throw Self.translate(error, "cannot read the keychain database")
            }
        }
    }

    /// Runs `body` in a write transaction: all of it is committed, or none of it.
    ///
    /// A write that `erases` (deletes or overwrites stored data) has the log, which keeps earlier
    /// page versions, truncated within a second (see ``LogScrubber``). A write that only adds
    /// (a new item, a counter) leaves nothing behind that is not still stored, and skips it.
    package func write<T>(
        erasing: Bool = true,
        _ body: (Database) throws(KeychainError) -> T
    ) throws(KeychainError) -> T {
        do {
            let quota = quota
            let result = try pool.writeWithoutTransaction { db in
                try StoreTransaction.run(.immediate, in: db) { db in
                    guard let quota else { return try body(db) }
                    let before = try Self.bytesInUse(db)
                    let result = try body(db)
                    let after = try Self.bytesInUse(db)
                    // Only growth is refused: a delete or a shrinking update always goes through.
                    if after > quota && after > before {
                        throw KeychainError(
                            .quotaExceeded,
                            "the keychain would hold \(after) bytes, past its quota of \(quota); delete items to make room"
                        )
                    }
                    return result
                }
            }
            if erasing { scrubber.noteWrite() }
            return result
        } catch {
            throw Self.translate(error, "cannot write the keychain database")
        }
    }

    /// The bytes of the database's pages in use (free pages, which SQLite reuses, not counted).
    private static func bytesInUse(_ db: Database) throws -> Int {
        let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
        let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
        let size = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096
        return (pages - free) * size
    }

    /// Has the log truncated within a second: a write that was not expected to erase did.
    package func noteErasure() {
        scrubber.noteWrite()
    }

    /// Runs `body` outside of any transaction (for statements that must commit on their own).
    package func writeWithoutTransaction<T>(
        _ body: (Database) throws(KeychainError) -> T
    ) throws(KeychainError) -> T {
        do {
            return try pool.writeWithoutTransaction { db in try body(db) }
        } catch {
            throw Self.translate(error, "cannot write the keychain database")
        }
    }

    // MARK: The write-ahead log

    /// Folds the write-ahead log into the database and truncates it to nothing, so that no earlier
    /// version of a page (an overwritten secret, an old keybag) stays in the log file.
    ///
    /// A reader of another process may hold an old snapshot; the checkpoint then waits for it, up
    /// to `wait` seconds, and reports whether the log was emptied.
    /// Whether the write-ahead log holds anything (another connection is writing, or one was
    /// killed before it could fold the log in).
    package var hasLog: Bool {
        PrivateFile.size(ofFileAt: logPath).map { $0 > 0 } ?? false
    }

    @discardableResult
    package func truncateLog(wait: TimeInterval = 2) -> Bool {
        Self.truncateLog(of: pool, wait: wait)
    }

    private static func truncateLog(of pool: DatabasePool, wait: TimeInterval) -> Bool {
        let milliseconds = Int(wait * 1000)
        let result = try? pool.writeWithoutTransaction { db -> Bool in
            try db.execute(sql: "PRAGMA busy_timeout = \(milliseconds)")
            defer { try? db.execute(sql: "PRAGMA busy_timeout = 30000") }
            let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            return (row?[0] as Int?) == 0
        }
        return result ?? false
    }

    // MARK: Errors

    /// Turns a database error into an engine error; engine errors pass through.
    package static func translate(_ error: any Error, _ message: String) -> KeychainError {
        if let error = error as? KeychainError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_CONSTRAINT:
                return KeychainError(.duplicateItem, "an item with the same primary key exists", cause: error)
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return KeychainError(.decode, "\(message): the file is damaged or not a keychain", cause: error)
            case .SQLITE_FULL:
                return KeychainError(.io, "\(message): the disk is full", cause: error)
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return KeychainError(.io, "\(message): the database stayed busy", cause: error)
            default:
                return KeychainError(.io, "\(message): SQLite error \(error.resultCode.rawValue)", cause: error)
            }
        }
        return KeychainError(.io, message, cause: SendableDescription(error))
    }
}

/// A non-Sendable error reduced to its description.
struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = String(describing: error) }
}

extension SQLiteItemStore {
    /// What SQLite's `PRAGMA integrity_check` finds wrong with the file; empty when it is sound.
    package func integrityProblems() throws(KeychainError) -> [String] {
        try read { db throws(KeychainError) in
            do {
                return try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            } catch {
                throw SQLiteItemStore.translate(error, "cannot check the keychain database")
            }
        }
    }
}
