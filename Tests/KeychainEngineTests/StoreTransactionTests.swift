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
import KeychainContract
import Testing

@testable import KeychainCore
@testable import KeychainEngine

/// The store's transactions, begun and ended with the connection's own prepared statements: a
/// read sees one snapshot from start to end, a write that fails leaves nothing, and neither
/// leaves its connection inside a transaction.
@Suite struct StoreTransactionTests {
    static func store() throws -> (SQLiteItemStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kc-transaction-\(UUID().uuidString)"
        )
        try PrivateDirectory.prepare(directory)
        let store = try SQLiteItemStore(url: directory.appendingPathComponent(SQLiteItemStore.fileName))
        try store.write { db throws(KeychainError) in
            do { try db.execute(sql: "CREATE TABLE probe (value INTEGER)") } catch { throw KeychainError(.io, "setup") }
        }
        return (store, directory)
    }

    static func count(_ db: Database) throws(KeychainError) -> Int {
        do { return try Int.fetchOne(db, sql: "SELECT count(*) FROM probe") ?? -1 } catch {
            throw KeychainError(.io, "count")
        }
    }

    static func insert(_ db: Database) throws(KeychainError) {
        do { try db.execute(sql: "INSERT INTO probe (value) VALUES (1)") } catch { throw KeychainError(.io, "insert") }
    }

    /// What the search relies on: the keybag and the rows it reads belong to the same snapshot,
    /// even when another connection commits in between.
    @Test func aReadSeesOneSnapshotWhileAnotherConnectionWrites() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (first, second) = try store.read { db throws(KeychainError) in
            let first = try Self.count(db)
            try store.write { db throws(KeychainError) in try Self.insert(db) }
            return (first, try Self.count(db))
        }
        #expect(first == 0)
        #expect(second == 0)
        #expect(try store.read { db throws(KeychainError) in try Self.count(db) } == 1)
    }

    @Test func aWriteThatFailsLeavesNothingAndTheConnectionUsable() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: KeychainError.self) {
            try store.write { db throws(KeychainError) in
                try Self.insert(db)
                throw KeychainError(.duplicateItem, "the body fails after a change")
            }
        }
        #expect(try store.read { db throws(KeychainError) in try Self.count(db) } == 0)
        try store.write { db throws(KeychainError) in
            #expect(db.isInsideTransaction)
            try Self.insert(db)
        }
        #expect(try store.read { db throws(KeychainError) in try Self.count(db) } == 1)
    }

    /// A body that ends the transaction itself has no transaction to commit: it is reported, and
    /// nothing after its end counts as committed by the store.
    @Test func aTransactionEndedInsideTheBodyIsAnError() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: KeychainError.self) {
            try store.write { db throws(KeychainError) in
                try Self.insert(db)
                do { try db.execute(sql: "ROLLBACK") } catch { throw KeychainError(.io, "rollback") }
            }
        }
        #expect(try store.read { db throws(KeychainError) in try Self.count(db) } == 0)
        try store.write { db throws(KeychainError) in try Self.insert(db) }
        #expect(try store.read { db throws(KeychainError) in try Self.count(db) } == 1)
    }

    /// The store's readers open the file its writer opened, or nothing: a database moved aside
    /// and replaced while the store is open is never read in its stead.
    @Test func aDatabaseReplacedWhileOpenIsNotReadInTheWritersStead() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(SQLiteItemStore.fileName).path
        try FileManager.default.moveItem(atPath: path, toPath: path + "-aside")
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: "CREATE TABLE probe (value INTEGER); INSERT INTO probe (value) VALUES (7)")
        }
        try other.close()
        let error = #expect(throws: KeychainError.self) {
            try store.read { db throws(KeychainError) in try Self.count(db) }
        }
        #expect(error?.code == .invalidKeychain)
    }
}
