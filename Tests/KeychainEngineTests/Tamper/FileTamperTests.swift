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
import KeychainServices
import KeychainTestSupport
import KeychainTesting
import Testing

@testable import KeychainCore
@testable import KeychainDevice
@testable import KeychainEngine

/// Damage to the files themselves: the device secret, the database, the write-ahead log.
///
/// Opening fails with a clear error or reads what is intact; nothing is misread, and a damaged
/// database is never replaced by a new empty keychain.
@Suite struct FileTamperTests {
    /// A copy of a fixture's home with every write folded into `keychain.db` (no write-ahead log).
    static func checkpointedCopy() throws -> (fixture: TamperFixture, copy: URL) {
        let fixture = try TamperFixture()
        try fixture.keychain.device.keychain.store.writeWithoutTransaction { db throws(KeychainError) in
            do { try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } catch {
                throw KeychainError(.io, "checkpoint failed")
            }
        }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("kc-file-tamper-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in ["keychain.db", "device.key", "keybag.key"] {
            try FileManager.default.copyItem(
                at: fixture.keychain.directory.appendingPathComponent(name),
                to: copy.appendingPathComponent(name)
            )
        }
        return (fixture, copy)
    }

    static func open(_ home: URL) throws -> Device {
        try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        )
    }

    /// Every read of `device` gives the item's own secret or fails with a storage status; how many succeeded.
    @discardableResult
    static func readAll(_ device: Device, fixture: TamperFixture, _ context: String) -> Int {
        var readable = 0
        for table in ["genp", "inet"] {
            let itemClass = TamperFixture.itemClass(table: table)
            for account in TamperFixture.accounts {
                let (status, data) = fixture.read(itemClass, account, on: device)
                if status == errSecSuccess {
                    #expect(data == TamperFixture.secret(itemClass, account), "\(context): \(account) misread")
                    readable += 1
                } else {
                    #expect([errSecItemNotFound, errSecDecode, errSecIO].contains(status), "\(context): \(status)")
                }
            }
        }
        return readable
    }

    /// Every row of the item and keybag tables (SQLite may rewrite pages on open; rows must stay).
    static func contents(of home: URL) throws -> [String] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(
            path: home.appendingPathComponent("keychain.db").path,
            configuration: configuration
        )
        return try queue.read { db in
            try ["genp", "inet", "sealed_keybag"].flatMap { table in
                try Row.fetchAll(db, sql: "SELECT * FROM \(table) ORDER BY rowid").map { "\(table) \($0)" }
            }
        }
    }

    @Test func damagedDeviceSecretIsAnErrorAndRestoringItReadsEverything() throws {
        let (fixture, home) = try Self.checkpointedCopy()
        defer { try? FileManager.default.removeItem(at: home) }
        let secretURL = home.appendingPathComponent("device.key")
        let original = try Data(contentsOf: secretURL)
        let other = try TemporaryKeychain()
        let foreign = try Data(contentsOf: other.directory.appendingPathComponent("device.key"))
        let variants =
            Damage.allCases.map { ($0.description, $0.apply(to: original)) } + [("another keychain's", foreign)]
        let database = try Self.contents(of: home)
        for (name, damaged) in variants {
            try damaged.write(to: secretURL)
            #expect(throws: (any Error).self, "device.key \(name)") { _ = try Self.open(home) }
            #expect(try Data(contentsOf: secretURL) == damaged, "device.key \(name) was rewritten")
        }
        #expect(try Self.contents(of: home) == database)
        try original.write(to: secretURL)
        #expect(Self.readAll(try Self.open(home), fixture: fixture, "restored device.key") == 6)
    }

    /// The keybag secret damaged, replaced by another keychain's, or missing: opening fails (the
    /// keybag does not open, no new keychain is made, nothing is rewritten); putting it back reads
    /// everything.
    @Test func damagedKeybagSecretIsAnErrorAndRestoringItReadsEverything() throws {
        let (fixture, home) = try Self.checkpointedCopy()
        defer { try? FileManager.default.removeItem(at: home) }
        let secretURL = home.appendingPathComponent("keybag.key")
        let original = try Data(contentsOf: secretURL)
        let other = try TemporaryKeychain()
        let foreign = try Data(contentsOf: other.directory.appendingPathComponent("keybag.key"))
        let variants =
            Damage.allCases.map { ($0.description, $0.apply(to: original)) } + [("another keychain's", foreign)]
        let database = try Self.contents(of: home)
        for (name, damaged) in variants {
            try damaged.write(to: secretURL)
            #expect(throws: (any Error).self, "keybag.key \(name)") { _ = try Self.open(home) }
            #expect(try Data(contentsOf: secretURL) == damaged, "keybag.key \(name) was rewritten")
        }
        try FileManager.default.removeItem(at: secretURL)
        #expect(throws: (any Error).self, "keybag.key missing") { _ = try Self.open(home) }
        #expect(!FileManager.default.fileExists(atPath: secretURL.path))
        #expect(try Self.contents(of: home) == database)
        try original.write(to: secretURL)
        #expect(Self.readAll(try Self.open(home), fixture: fixture, "restored keybag.key") == 6)
    }

    /// Truncated or overwritten database files: an error or the intact part, never an empty keychain.
    @Test(arguments: [
        "empty", "100 bytes", "first page", "half", "header zeroed", "page 2 garbage", "last page garbage",
    ])
    func damagedDatabaseFile(damage: String) throws {
        let (fixture, home) = try Self.checkpointedCopy()
        defer { try? FileManager.default.removeItem(at: home) }
        let databaseURL = home.appendingPathComponent("keychain.db")
        var bytes = [UInt8](try Data(contentsOf: databaseURL))
        let page = 4096
        var garbage = SystemRandomNumberGenerator()
        switch damage {
        case "empty": bytes = []
        case "100 bytes": bytes = Array(bytes.prefix(100))
        case "first page": bytes = Array(bytes.prefix(page))
        case "half": bytes = Array(bytes.prefix(bytes.count / 2))
        case "header zeroed": for index in 0..<100 { bytes[index] = 0 }
        case "page 2 garbage": for index in page..<(2 * page) { bytes[index] = garbage.next() }
        default: for index in (bytes.count - page)..<bytes.count { bytes[index] = garbage.next() }
        }
        try Data(bytes).write(to: databaseURL)
        for attempt in 1...2 {
            // The second attempt proves the first did not leave an empty keychain in its place.
            guard let device = try? Self.open(home) else { continue }
            let readable = Self.readAll(device, fixture: fixture, "\(damage), attempt \(attempt)")
            #expect(readable > 0 || damage == "last page garbage", "\(damage): opened as an empty keychain")
        }
    }

    /// A damaged write-ahead log: SQLite stops at the first bad frame, so the keychain is an
    /// earlier consistent state; nothing is misread.
    @Test func damagedWriteAheadLog() throws {
        var opened = 0
        for offset in [0, 32, 100, 4_200, 9_000, 20_000] {
            let fixture = try TamperFixture()
            let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
                "kc-wal-tamper-\(UUID().uuidString)"
            )
            defer { try? FileManager.default.removeItem(at: copy) }
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            // A reader holds the log (the keychain truncates it a second after writes otherwise),
            // while more items go into it.
            let reader = try DatabaseQueue(path: fixture.keychain.directory.appendingPathComponent("keychain.db").path)
            try reader.inDatabase { db in
                try db.beginTransaction(.deferred)
                _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM genp")
                defer { try? db.rollback() }
                fixture.keychain.run {
                    for index in 0..<8 {
                        let item: [String: Any] = [
                            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "late",
                            kSecAttrAccount as String: "late \(index)", kSecValueData as String: Data("late".utf8),
                        ]
                        #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
                    }
                }
                for name in ["keychain.db", "keychain.db-wal", "device.key", "keybag.key"] {
                    try FileManager.default.copyItem(
                        at: fixture.keychain.directory.appendingPathComponent(name),
                        to: copy.appendingPathComponent(name)
                    )
                }
            }
            let walURL = copy.appendingPathComponent("keychain.db-wal")
            var wal = [UInt8](try Data(contentsOf: walURL))
            #expect(wal.count > 20_000, "the log holds too little to damage")
            guard offset < wal.count else { continue }
            wal[offset] ^= 0x55
            try Data(wal).write(to: walURL)
            if let device = try? Self.open(copy) {
                Self.readAll(device, fixture: fixture, "WAL byte \(offset)")
                opened += 1
            }
        }
        #expect(opened > 0, "no damaged log was ever opened")
    }
}
