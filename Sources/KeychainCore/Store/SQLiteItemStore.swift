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

public import Foundation
public import GRDB

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

    // MARK: Initialization

    /// Opens (creating if needed) the database at `url` and brings its schema up to date.
    package init(url: URL) throws(KeychainCoreError) {
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
        Self.restrictToOwner(url)
        do {
            pool = try DatabasePool(path: url.path, configuration: configuration)
            try Self.migrator.migrate(pool)
        } catch {
            throw Self.translate(error, "cannot open the keychain database \(url.path)")
        }
    }

    /// Creates the database file readable by its owner only, or narrows an existing one: SQLite
    /// gives the write-ahead log and shared-memory files the database file's mode.
    private static func restrictToOwner(_ url: URL) {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            _ = fchmod(descriptor, 0o600)
            _ = close(descriptor)
        }
    }

    // MARK: Transactions

    /// Runs `body` in a read transaction.
    package func read<T>(_ body: (Database) throws(KeychainCoreError) -> T) throws(KeychainCoreError) -> T {
        do {
            return try pool.read { db in try body(db) }
        } catch {
            throw Self.translate(error, "cannot read the keychain database")
        }
    }

    /// Runs `body` in a write transaction: all of it is committed, or none of it.
    package func write<T>(_ body: (Database) throws(KeychainCoreError) -> T) throws(KeychainCoreError) -> T {
        do {
            return try pool.write { db in try body(db) }
        } catch {
            throw Self.translate(error, "cannot write the keychain database")
        }
    }

    /// Runs `body` outside of any transaction (for statements that must commit on their own).
    package func writeWithoutTransaction<T>(
        _ body: (Database) throws(KeychainCoreError) -> T
    ) throws(KeychainCoreError) -> T {
        do {
            return try pool.writeWithoutTransaction { db in try body(db) }
        } catch {
            throw Self.translate(error, "cannot write the keychain database")
        }
    }

    // MARK: Errors

    /// Turns a database error into an engine error; engine errors pass through.
    package static func translate(_ error: any Error, _ message: String) -> KeychainCoreError {
        if let error = error as? KeychainCoreError { return error }
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_CONSTRAINT:
                return KeychainCoreError(.duplicateItem, "an item with the same primary key exists", cause: error)
            case .SQLITE_NOTADB, .SQLITE_CORRUPT:
                return KeychainCoreError(.decode, "\(message): the file is damaged or not a keychain", cause: error)
            case .SQLITE_FULL:
                return KeychainCoreError(.io, "\(message): the disk is full", cause: error)
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return KeychainCoreError(.io, "\(message): the database stayed busy", cause: error)
            default:
                return KeychainCoreError(.io, "\(message): SQLite error \(error.resultCode.rawValue)", cause: error)
            }
        }
        return KeychainCoreError(.io, message, cause: SendableDescription(error))
    }
}

/// A non-Sendable error reduced to its description.
struct SendableDescription: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ error: any Error) { description = String(describing: error) }
}

extension SQLiteItemStore {
    /// What SQLite's `PRAGMA integrity_check` finds wrong with the file; empty when it is sound.
    package func integrityProblems() throws(KeychainCoreError) -> [String] {
        try read { db throws(KeychainCoreError) in
            do {
                return try String.fetchAll(db, sql: "PRAGMA integrity_check").filter { $0 != "ok" }
            } catch {
                throw SQLiteItemStore.translate(error, "cannot check the keychain database")
            }
        }
    }
}
