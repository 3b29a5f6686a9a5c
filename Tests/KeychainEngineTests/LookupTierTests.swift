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
import KeychainTesting
import Testing

@testable import KeychainCore
@testable import KeychainEngine

/// Keychains written before the look-up tiers hashed every class with the device look-up key;
/// they move to separate tiers, in one transaction, once every class key is available.
@Suite struct LookupTierTests {
    static let items: [(account: String, protection: ProtectionClass)] = [
        ("when-unlocked", .whenUnlocked), ("after-first-unlock", .afterFirstUnlock),
        ("this-device", .whenUnlockedThisDeviceOnly), ("always", .alwaysThisDeviceOnly),
    ]

    /// A keychain as written before the tiers (and before the sealed keybag): no protected look-up
    /// key, every row in one tier, the keybag in the clear in its old tables.
    static func legacyKeychain(passcode: String?) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-legacy-\(UUID().uuidString)")
        let keychain = try Keychain(
            directory: directory,
            accessGroups: .standard,
            passcodeKDF: .testing,
            logger: EngineLog().makeLogger()
        )
        if let passcode { try keychain.keybagService.setPasscode(passcode, current: nil) }
        var legacy = try keychain.keybagService.currentRecord()
        legacy.sealedProtectedLookupKey = nil
        let deviceSecret = try FileDeviceSecretStore(directory: directory).load()
        let stored = StoredKeybag(generation: 1, secretIdentifier: Data(), record: legacy)
        let keybag = try Keybag(deviceSecret: deviceSecret, stored: stored)
        if let passcode {
            try keybag.load(
                stored,
                passcodeKey: try keybag.passcodeKey(for: passcode, record: legacy, minimum: .testing)
            )
        }
        #expect(!keybag.lookupTiers.areSeparate)
        let codec = ItemCodec(keybag: keybag, passcodeKDF: .testing)
        try keychain.store.write { db throws(KeychainError) in
            try LegacyKeybag.save(legacy, deviceSecret: deviceSecret, in: db)
            do { try db.execute(sql: "DELETE FROM sealed_keybag") } catch { throw KeychainError(.io, "\(error)") }
            for (account, protection) in items {
                let row = try codec.seal(
                    itemClass: .genericPassword,
                    identifier: Keychain.makeIdentifier(),
                    accessControl: AccessControl(protection: protection),
                    attributes: [
                        "svce": .string("legacy"), "acct": .string(account), "agrp": .string(AccessGroups.defaultGroup),
                    ],
                    secret: Data(account.utf8)
                )
                try row.insert(into: db, schema: ItemSchema.of(.genericPassword))
            }
        }
        return directory
    }

    static func open(_ directory: URL) throws -> Keychain {
        try Keychain(
            directory: directory,
            accessGroups: .standard,
            passcodeKDF: .testing,
            logger: EngineLog().makeLogger()
        )
    }

    static func read(_ account: String, in keychain: Keychain) -> Result<Data?, KeychainError> {
        Result { () throws(KeychainError) in
            let query = try QueryParser.parse(["class": "genp", "acct": account, "r_Data": true], for: .copyMatching)
            return try keychain.search(query).first?.data
        }
    }

    /// The code of a failed read; `nil` when it succeeds.
    static func failure(_ account: String, in keychain: Keychain) -> KeychainError.Code? {
        guard case .failure(let error) = read(account, in: keychain) else { return nil }
        return error.code
    }

    /// A keychain with passcode 1357, ``items`` and a `WhenPasscodeSetThisDeviceOnly` item, `passcode-only`.
    static func withPasscodeOnlyItem(_ directory: URL) throws -> Keychain {
        let keychain = try open(directory)
        try keychain.keybagService.setPasscode("1357", current: nil)
        for (account, protection) in items + [("passcode-only", .whenPasscodeSetThisDeviceOnly)] {
            let query = try QueryParser.parse(
                ["class": "genp", "acct": account, "pdmn": protection.rawValue, "v_Data": Data(account.utf8)],
                for: .add
            )
            try keychain.add(query)
        }
        return keychain
    }

    static func tags(in keychain: Keychain) throws -> [Data] {
        try keychain.store.read { db throws(KeychainError) in
            do { return try Data.fetchAll(db, sql: "SELECT pdmn FROM genp ORDER BY rowid") } catch {
                throw KeychainError(.io, "read failed")
            }
        }
    }

    /// Every item reads back, the protected rows carry per-row tags of the protected tier, and the
    /// device-tier row kept its tag.
    static func expectMoved(_ keychain: Keychain) throws {
        #expect(keychain.keybag.lookupTiers.areSeparate)
        #expect(try keychain.keybagService.currentRecord().sealedProtectedLookupKey != nil)
        for (account, _) in items {
            #expect(try read(account, in: keychain).get() == Data(account.utf8))
        }
        let shared = LookupTier(kind: .shared, hasher: keychain.keybag.lookup)
        let sharedTags = Set(ProtectionClass.allCases.compactMap { shared.sharedTag($0, table: "genp") })
        let tags = try tags(in: keychain)
        #expect(tags.count == items.count)
        for (tag, item) in zip(tags, items) {
            #expect(sharedTags.contains(tag) == !item.protection.isPasscodeProtected)
        }
        #expect(Set(tags).count == tags.count)
    }

    @Test func withoutAPasscodeTheyMoveWhenOpened() throws {
        let directory = try Self.legacyKeychain(passcode: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        let moved = try Self.open(directory)
        // The write-ahead log, which held the old hashes, was folded in and emptied.
        let log = directory.appendingPathComponent(SQLiteItemStore.fileName + "-wal")
        #expect((try? FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0 == 0)
        try Self.expectMoved(moved)
        // Moving is done once: a second opening finds the key and reads the same rows.
        let again = try Self.open(directory)
        try Self.expectMoved(again)
    }

    @Test func withAPasscodeTheyMoveAtTheFirstUnlock() throws {
        let directory = try Self.legacyKeychain(passcode: "2468")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = try Self.open(directory)
        // Before the first unlock: still one tier; protected items are found and reported locked.
        #expect(!keychain.keybag.lookupTiers.areSeparate)
        #expect(Self.failure("after-first-unlock", in: keychain) == .interactionNotAllowed)
        #expect(try Self.read("always", in: keychain).get() == Data("always".utf8))
        // Another process that has not unlocked yet picks up the move when it next searches.
        let bystander = try Self.open(directory)
        try keychain.keybagService.unlock(passcode: "2468")
        try Self.expectMoved(keychain)
        #expect(try Self.read("always", in: bystander).get() == Data("always".utf8))
        #expect(bystander.keybag.lookupTiers.areSeparate && bystander.keybag.lookupTiers.protected == nil)
        #expect(Self.failure("when-unlocked", in: bystander) == .interactionNotAllowed)
        try bystander.keybagService.unlock(passcode: "2468")
        try Self.expectMoved(bystander)
    }

    /// A damaged row cannot be re-hashed; its old hashes would let the device key confirm its
    /// attributes, so they become random bytes.
    ///
    /// The other rows move as usual.
    @Test func aDamagedRowLosesItsOldHashes() throws {
        let directory = try Self.legacyKeychain(passcode: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try SQLiteItemStore(url: directory.appendingPathComponent(SQLiteItemStore.fileName))
        let damagedHashes = try store.write { db throws(KeychainError) -> [Data] in
            do {
                try db.execute(sql: "UPDATE genp SET data = substr(data, 1, length(data) - 1) WHERE rowid = 1")
                return try Row.fetchOne(db, sql: "SELECT pdmn, svce, acct, pkey FROM genp WHERE rowid = 1")
                    .map { row in (0..<4).compactMap { row[$0] as Data? } } ?? []
            } catch { throw KeychainError(.io, "damage failed") }
        }
        let keychain = try Self.open(directory)
        #expect(keychain.keybag.lookupTiers.areSeparate)
        let after = try keychain.store.read { db throws(KeychainError) -> [Data] in
            do {
                return try Row.fetchOne(db, sql: "SELECT pdmn, svce, acct, pkey FROM genp WHERE rowid = 1")
                    .map { row in (0..<4).compactMap { row[$0] as Data? } } ?? []
            } catch { throw KeychainError(.io, "read failed") }
        }
        #expect(damagedHashes.count == 4 && after.count == 4)
        for (old, new) in zip(damagedHashes, after) { #expect(old != new) }
        #expect(Self.failure(Self.items[0].account, in: keychain) == .itemNotFound)
        for (account, _) in Self.items.dropFirst() {
            #expect(try Self.read(account, in: keychain).get() == Data(account.utf8))
        }
    }

    /// A record without the protected key, read before another process's move was visible, never
    /// takes a keychain back to one tier.
    @Test func aStaleRecordDoesNotUndoTheTiers() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-tiers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = try Self.open(directory)
        var stale = try keychain.keybagService.currentRecord()
        stale.sealedProtectedLookupKey = nil
        let generation = keychain.keybag.generation
        // An older generation is ignored; the same one without the key does not undo the tiers either.
        try keychain.keybag.adopt(StoredKeybag(generation: generation - 1, secretIdentifier: Data(), record: stale))
        try keychain.keybag.load(
            StoredKeybag(generation: generation, secretIdentifier: Data(), record: stale),
            passcodeKey: nil
        )
        #expect(keychain.keybag.lookupTiers.areSeparate && keychain.keybag.lookupTiers.protected != nil)
    }

    @Test func removingThePasscodeDeletesOnlyPasscodeOnlyItems() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-tiers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = try Self.withPasscodeOnlyItem(directory)
        try keychain.keybagService.removePasscode(current: "1357")
        #expect(Self.failure("passcode-only", in: keychain) == .itemNotFound)
        for (account, _) in Self.items {
            #expect(try Self.read(account, in: keychain).get() == Data(account.utf8))
        }
        #expect(try Self.tags(in: keychain).count == Self.items.count)
    }

    /// What removing the passcode leaves of a passcode-only item (a tombstone, see
    /// `ItemRow.isTombstone`) is removed by the next passcode's re-keying even if nothing met it.
    @Test func aNewPasscodeRemovesTheTombstonesOfTheLastOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-tiers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = try Self.withPasscodeOnlyItem(directory)
        try keychain.keybagService.removePasscode(current: "1357")
        #expect(try Self.tags(in: keychain).count == Self.items.count + 1)
        try keychain.keybagService.setPasscode("2468", current: nil)
        #expect(try Self.tags(in: keychain).count == Self.items.count)
        for (account, _) in Self.items {
            #expect(try Self.read(account, in: keychain).get() == Data(account.utf8))
        }
        #expect(Self.failure("passcode-only", in: keychain) == .itemNotFound)
    }

    /// Only what removing the passcode leaves is a tombstone: any other row whose keys and
    /// ciphertexts were blanked (tampering) is damage — kept by a search, not counted by a delete.
    @Test func aBlankedRowOfAnotherClassIsDamageNotATombstone() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-tiers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = try Self.open(directory)
        for (account, protection) in Self.items {
            let query = try QueryParser.parse(
                ["class": "genp", "acct": account, "pdmn": protection.rawValue, "v_Data": Data(account.utf8)],
                for: .add
            )
            try keychain.add(query)
        }
        try keychain.store.write { db throws(KeychainError) in
            do {
                try db.execute(sql: "UPDATE genp SET mkey = x'', data = x'', skey = x'', v_Data = x'' WHERE rowid = 1")
            } catch {
                throw KeychainError(.io, "tampering failed")
            }
        }
        let victim = Self.items[0].account
        #expect(Self.failure(victim, in: keychain) == .itemNotFound)
        #expect(try Self.tags(in: keychain).count == Self.items.count)
        let delete = Result { () throws(KeychainError) in
            try keychain.delete(try QueryParser.parse(["class": "genp", "acct": victim], for: .delete))
        }
        guard case .failure(let error) = delete else {
            Issue.record("a blanked row counted as a deleted item")
            return
        }
        #expect(error.code == .itemNotFound)
    }
}
