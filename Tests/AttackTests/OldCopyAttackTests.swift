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

import Crypto
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

/// Finding 1: old copies of the keybag (a backup from before the passcode, a planted home, the
/// write-ahead log of a database held open while the passcode was set) must open nothing added or
/// changed after the passcode was set or changed.
@Suite struct OldCopyAttackTests {
    static let passcode = "482916"

    /// The review's steps, with the built tool: add an item, copy the home, set a passcode, add a
    /// second item; then every mix of the old copy's keybag and side files with today's database.
    @Test func anOldKeybagGraftedIntoTodaysDatabaseOpensNothingAddedSince() throws {
        let home = Attacker.newHome("old-keybag")
        defer { Attacker.remove(home) }
        let tool = Tool(home: home)
        #expect(try tool.run(["add-generic-password", "-a", "me", "-s", "first", "-w", "first-secret"]).status == 0)
        let before = try Attacker.copy(home, label: "before-passcode")
        defer { Attacker.remove(before) }
        #expect(try tool.run(["passcode", "set"], input: "\(Self.passcode)\n\(Self.passcode)\n").status == 0)
        let added = try tool.run(
            ["add-generic-password", "-a", "me", "-s", "second", "-w", "second-secret"],
            input: "\(Self.passcode)\n"
        )
        #expect(added.status == 0, "\(added.stderr)")
        // The owner reads it with the passcode (so the attempts below can fail).
        let owner = try tool.run(["find-generic-password", "-s", "second", "-w"], input: "\(Self.passcode)\n")
        #expect(owner.stdout == "second-secret\n")

        let mixes: [(String, (URL) throws -> Void)] = [
            ("old keybag row", { try Attacker.graftKeybag(from: before, into: $0) }),
            (
                "old keybag row and old keybag.key",
                {
                    try Attacker.graftKeybag(from: before, into: $0)
                    try Attacker.graftFiles(["keybag.key"], from: before, into: $0)
                }
            ),
            ("old keybag.key", { try Attacker.graftFiles(["keybag.key"], from: before, into: $0) }),
            ("every old side file", { try Attacker.graftFiles(["keybag.key", "device.key"], from: before, into: $0) }),
            (
                "old keybag row, every old side file",
                {
                    try Attacker.graftKeybag(from: before, into: $0)
                    try Attacker.graftFiles(["keybag.key", "device.key"], from: before, into: $0)
                }
            ),
        ]
        for (name, graft) in mixes {
            let mix = try Attacker.copy(home, label: "mix")
            defer { Attacker.remove(mix) }
            try graft(mix)
            let thief = Tool(home: mix)
            for arguments in [["find-generic-password", "-s", "second", "-w"], ["dump-keychain", "-d"]] {
                let output = try thief.run(arguments)
                #expect(
                    !output.stdout.contains("second-secret") && !output.stderr.contains("second-secret"),
                    "\(name): \(arguments[0]) printed the secret"
                )
            }
            #expect(try thief.run(["find-generic-password", "-s", "second", "-w"]).status != 0, "\(name)")
        }

        // Below the tool: the old copy's class keys (all of them: it had no passcode) open none of
        // today's rows, whatever class is tried.
        let old = try Keychain(directory: before, accessGroups: AccessGroups(["*"]))
        let oldKeys = ProtectionClass.allCases.compactMap { old.keybag.classKey($0) }
        #expect(oldKeys.count >= 6)
        let rows = try Attacker.sql(home) { db in
            try Row.fetchAll(db, sql: "SELECT \(RowSQL.of(.genericPassword).columns) FROM genp").compactMap {
                ItemRow(row: $0, schema: ItemSchema.of(.genericPassword))
            }
        }
        #expect(rows.count == 2)
        for row in rows {
            for protection in ProtectionClass.allCases {
                let binding = ItemCodec.binding(table: "genp", identifier: row.identifier, protection: protection)
                for key in oldKeys {
                    #expect(
                        (try? AtRestCipher.unwrap(row.wrappedMetadataKey, using: key, binding: binding("mkey"))) == nil
                    )
                }
            }
        }
    }

    /// The passcode changes because the old one leaked: a copy from before the change, opened with
    /// the old passcode, still opens nothing stored since.
    @Test func aCopyFromBeforeAPasscodeChangeOpensNothingStoredSinceEvenWithTheOldPasscode() throws {
        let keychain = try TemporaryKeychain(passcode: "1111")
        keychain.run { #expect(Self.add("before change", "old secret") == errSecSuccess) }
        let before = try Attacker.copy(keychain.directory, label: "before-change")
        defer { Attacker.remove(before) }
        try keychain.device.changePasscode(from: "1111", to: "2222")
        keychain.run { #expect(Self.add("after change", "new secret") == errSecSuccess) }

        let mix = try Attacker.copy(keychain.directory, label: "change-mix")
        defer { Attacker.remove(mix) }
        try Attacker.graftKeybag(from: before, into: mix)
        try Attacker.graftFiles(["keybag.key"], from: before, into: mix)
        let thief = try Device(
            home: KeychainHome(url: mix),
            configuration: DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        )
        try thief.unlock(passcode: "1111")  // the old keybag accepts the old passcode…
        Device.withCurrent(thief) {
            #expect(Self.read("after change").data == nil)  // …and opens nothing stored since
        }
        // The owner's keychain reads it with the new passcode.
        let owner = try keychain.reopened()
        try owner.unlock(passcode: "2222")
        Device.withCurrent(owner) { #expect(Self.read("after change").data == Data("new secret".utf8)) }
    }

    /// A process holds the database open (a read in progress) while the passcode is set, so the
    /// write-ahead log keeps the pages of the keybag from before; the home is copied at that
    /// moment.
    ///
    /// No state the log can be cut back to opens the item added after the passcode, and the secret
    /// that sealed the earlier keybag is in no file.
    @Test func theLogOfADatabaseHeldOpenWhileThePasscodeWasSetOpensNothingAddedSince() throws {
        let keychain = try TemporaryKeychain()
        keychain.run { #expect(Self.add("before", "before passcode") == errSecSuccess) }
        let oldSecret = try Data(contentsOf: keychain.directory.appendingPathComponent("keybag.key"))

        let reader = try DatabaseQueue(path: keychain.directory.appendingPathComponent("keychain.db").path)
        let copy: URL = try reader.inDatabase { db in
            try db.beginTransaction(.deferred)
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM genp")
            defer { try? db.rollback() }
            try keychain.device.setPasscode(Self.passcode)
            keychain.run { #expect(Self.add("after", "after passcode") == errSecSuccess) }
            return try Attacker.copy(keychain.directory, label: "held-open")
        }
        defer { Attacker.remove(copy) }
        let states = try Attacker.historicalStates(of: copy)
        #expect(states.count >= 3, "the log was not held: nothing to attack")
        defer { for state in states { Attacker.remove(state) } }
        #expect(
            try Attacker.files(in: copy, containing: oldSecret.dropFirst()).isEmpty,
            "the old keybag secret survived"
        )
        for (index, state) in states.enumerated() {
            guard
                let thief = try? Device(
                    home: KeychainHome(url: state),
                    configuration: DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
                )
            else {
                continue  // a state sealed under an erased secret does not even open
            }
            Device.withCurrent(thief) {
                #expect(Self.read("after").data == nil, "state \(index) opened the item added after the passcode")
            }
        }
    }

    /// Deleted and overwritten secrets leave the home's files: a moment after the change while the
    /// keychain stays open (the scrubber's delay, longer on a busy machine), and at once when it closes.
    @Test(arguments: ["delete, stay open", "update, stay open", "delete, close"])
    func deletedAndOverwrittenSecretsLeaveTheFiles(_ scenario: String) throws {
        let directory = Attacker.newHome("residue")
        defer { Attacker.remove(directory) }
        var device: Device? = try Device(
            home: KeychainHome(url: directory),
            configuration: DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        )
        let columns = try Self.storeVictim(in: try #require(device), directory: directory)
        #expect(columns.count == 4)
        // Before: the row's ciphertexts are on disk (so the test can fail).
        #expect(try !Attacker.files(in: directory, containing: columns[3]).isEmpty)
        Self.eraseVictim(in: try #require(device), deleting: scenario.hasPrefix("delete"))
        if scenario.hasSuffix("close") {
            device = nil
        } else {
            // The scrubber runs a moment after the change (later on a busy machine), the keychain open.
            let deadline = Date().addingTimeInterval(LogScrubber.delay + 30)
            while Date() < deadline,
                try columns.contains(where: { !(try Attacker.files(in: directory, containing: $0).isEmpty) })
            {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        for column in columns {
            #expect(
                try Attacker.files(in: directory, containing: column).isEmpty,
                "\(scenario): an old ciphertext is still on disk"
            )
        }
        withExtendedLifetime(device) {}
    }

    /// Removing the passcode destroys `WhenPasscodeSetThisDeviceOnly` items.
    ///
    /// What is left of one until an operation meets it (Apple's delete of it must still succeed) is
    /// its look-up columns: its keys and ciphertexts leave the files at once, so a copy of the
    /// keybag from while the passcode was set, with that passcode, opens nothing from today's
    /// files.
    @Test func anItemLostWithThePasscodeLeavesTheFiles() throws {
        let directory = Attacker.newHome("akpu-residue")
        defer { Attacker.remove(directory) }
        // The thief's reads skip the grafted rows with a warning each: recorded, not printed.
        let configuration = DeviceConfiguration(
            passcodeCost: .testing,
            passcodePrompt: .none,
            logger: EngineLog().makeLogger()
        )
        var device: Device? = try Device(home: KeychainHome(url: directory), configuration: configuration)
        try #require(device).setPasscode(Self.passcode)
        Device.withCurrent(try #require(device)) {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "old-copy",
                kSecAttrAccount as String: "victim", kSecValueData as String: Data("lost-secret".utf8),
                kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            ]
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            for index in 0..<20 { #expect(Self.add("neighbour \(index)", "stays") == errSecSuccess) }
        }
        let columns = try Attacker.sql(directory) { db in
            try Row.fetchOne(db, sql: "SELECT mkey, data, skey, v_Data FROM genp ORDER BY rowid LIMIT 1")
                .map { row in (0..<4).compactMap { row[$0] as Data? } } ?? []
        }
        #expect(columns.count == 4 && columns.allSatisfy { !$0.isEmpty })
        let during = try Attacker.copy(directory, label: "while-passcode-set")
        defer { Attacker.remove(during) }
        #expect(try !Attacker.files(in: during, containing: columns[3]).isEmpty)

        try #require(device).removePasscode(current: Self.passcode)
        device = nil
        for column in columns {
            #expect(
                try Attacker.files(in: directory, containing: column).isEmpty,
                "a ciphertext of the lost item is still on disk"
            )
        }
        // The row is still there, keys and ciphertexts erased, until an operation meets it.
        let left = try Attacker.sql(directory) { db in
            try Row.fetchOne(
                db,
                sql:
                    "SELECT length(mkey) + length(data) + length(skey) + length(v_Data) FROM genp ORDER BY rowid LIMIT 1"
            )?[0] as Int?
        }
        #expect(left == 0)

        try Attacker.graftKeybag(from: during, into: directory)
        try Attacker.graftFiles(["keybag.key", "device.key"], from: during, into: directory)
        let thief = try Device(home: KeychainHome(url: directory), configuration: configuration)
        try thief.unlock(passcode: Self.passcode)
        Device.withCurrent(thief) {
            let read = Self.read("victim")
            #expect(read.status == errSecItemNotFound && read.data == nil)
            #expect(Self.read("neighbour 3").data == Data("stays".utf8))
        }
    }

    /// Adds the victim item and its neighbours; the victim's stored ciphertexts.
    static func storeVictim(in device: Device, directory: URL) throws -> [Data] {
        Device.withCurrent(device) {
            #expect(Self.add("victim", "to be erased") == errSecSuccess)
            for index in 0..<20 { #expect(Self.add("neighbour \(index)", "stays") == errSecSuccess) }
        }
        return try Attacker.sql(directory) { db in
            try Row.fetchOne(db, sql: "SELECT mkey, data, skey, v_Data FROM genp ORDER BY rowid LIMIT 1")
                .map { row in (0..<4).compactMap { row[$0] as Data? } } ?? []
        }
    }

    static func eraseVictim(in device: Device, deleting: Bool) {
        Device.withCurrent(device) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "victim",
            ]
            if deleting {
                #expect(SecItemDelete(query as CFDictionary) == errSecSuccess)
            } else {
                let changes: [String: Any] = [kSecValueData as String: Data("replacement".utf8)]
                #expect(SecItemUpdate(query as CFDictionary, changes as CFDictionary) == errSecSuccess)
            }
        }
    }

    // MARK: Helpers

    static func add(_ account: String, _ secret: String) -> OSStatus {
        SecItemAdd(
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "old-copy",
                kSecAttrAccount as String: account, kSecValueData as String: Data(secret.utf8),
            ] as CFDictionary,
            nil
        )
    }

    static func read(_ account: String) -> (status: OSStatus, data: Data?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                kSecReturnData as String: true,
            ] as CFDictionary,
            &result
        )
        return (status, result as? Data)
    }
}
