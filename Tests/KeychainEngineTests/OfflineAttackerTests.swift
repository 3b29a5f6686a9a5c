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

/// Someone copied the keychain home (database, write-ahead log, device secret) but does not
/// know the passcode, and uses the engine's own code on the copy.
@Suite struct OfflineAttackerTests {
    static let secrets = ["passcode-protected secret", "after-first-unlock secret"]

    /// A keychain with a passcode and items in two passcode-protected classes; the copy of its home.
    static func stolenCopy() throws -> (original: TemporaryKeychain, copy: URL) {
        let keychain = try TemporaryKeychain(passcode: "482916")
        keychain.run {
            for (secret, protection) in zip(
                secrets,
                [kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock]
            ) {
                let item: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bank.example.invalid",
                    kSecAttrAccount as String: "alice-\(secret.prefix(5))", kSecAttrAccessible as String: protection,
                    kSecValueData as String: Data(secret.utf8),
                ]
                #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            }
        }
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("kc-stolen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: keychain.directory.path) {
            try FileManager.default.copyItem(
                at: keychain.directory.appendingPathComponent(name),
                to: copy.appendingPathComponent(name)
            )
        }
        return (keychain, copy)
    }

    @Test func theEngineOnACopyGivesUpNoSecretOrAttribute() throws {
        let (_, copy) = try Self.stolenCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        let thief = try Keychain(directory: copy, accessGroups: AccessGroups(["*"]), passcodeKDF: .testing)
        #expect(!thief.keybagService.isUnlocked && !thief.keybagService.hasBeenUnlocked)
        // Every search over the passcode-protected items is refused as locked.
        for itemClass in [ItemClass.genericPassword, .internetPassword] {
            let query = try QueryParser.parse(
                ["class": itemClass.rawValue, "m_Limit": "m_LimitAll", "r_Attributes": true],
                for: .copyMatching
            )
            let outcome = Result { () throws(KeychainError) in try thief.search(query) }
            if case .success(let items) = outcome { #expect(items.isEmpty) }
            if case .failure(let error) = outcome {
                #expect([.interactionNotAllowed, .itemNotFound].contains(error.code))
            }
        }
        // Row by row with every class key the copy yields: no metadata and no secret opens.
        let rows = try thief.store.read { db throws(KeychainError) in
            do {
                return try Row.fetchAll(db, sql: "SELECT \(RowSQL.of(.genericPassword).columns) FROM genp")
                    .compactMap { ItemRow(row: $0, schema: ItemSchema.of(.genericPassword)) }
            } catch { throw KeychainError(.io, "read failed") }
        }
        #expect(rows.count == 2)
        for row in rows {
            #expect(throws: KeychainError.self) { _ = try thief.codec.openMetadata(row, itemClass: .genericPassword) }
        }
        // The bytes on disk hold neither secret nor names.
        for name in try FileManager.default.contentsOfDirectory(atPath: copy.path) {
            let bytes = try Data(contentsOf: copy.appendingPathComponent(name))
            for needle in Self.secrets + ["bank.example", "alice"] {
                #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(name) holds \(needle)")
            }
        }
    }

    /// The copy's keys hash only the classes that stay readable without the passcode: a right
    /// guess of a protected item's service or account matches no column, its class tag matches
    /// no class, and no two protected rows share a tag, so nothing is counted per class.
    @Test func theCopyNeitherCountsClassesNorConfirmsGuesses() throws {
        let (original, copy) = try Self.stolenCopy()
        defer { try? FileManager.default.removeItem(at: copy) }
        original.run {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "boot.example.invalid",
                kSecAttrAccount as String: "daemon",
                kSecAttrAccessible as String: kSecAttrAccessibleAlwaysThisDeviceOnly,
                kSecValueData as String: Data("always readable".utf8),
            ]
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: original.directory.path) {
            let target = copy.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: original.directory.appendingPathComponent(name), to: target)
        }
        let thief = try Keychain(directory: copy, accessGroups: AccessGroups(["*"]), passcodeKDF: .testing)
        let tiers = thief.keybag.lookupTiers
        #expect(tiers.areSeparate && tiers.protected == nil)
        let schema = ItemSchema.of(.genericPassword)
        let columns = try thief.store.read { db throws(KeychainError) in
            do {
                return try Row.fetchAll(db, sql: "SELECT pdmn, svce, acct FROM genp ORDER BY rowid")
                    .map { (tag: $0[0] as Data, service: $0[1] as Data, account: $0[2] as Data) }
            } catch { throw KeychainError(.io, "read failed") }
        }
        #expect(columns.count == 3)
        let protectedRows = columns.dropLast()
        // Every key the copy yields, in both the current and the pre-tier layout.
        for tier in [tiers.device, LookupTier(kind: .shared, hasher: thief.keybag.lookup)] {
            for protection in ProtectionClass.allCases {
                let tag = tier.sharedTag(protection, table: "genp")
                #expect(protectedRows.allSatisfy { $0.tag != tag })
            }
            for secret in Self.secrets {
                let account = tier.columnHash(
                    .string("alice-\(secret.prefix(5))"),
                    descriptor: schema.attribute("acct")!,
                    table: "genp"
                )
                #expect(protectedRows.allSatisfy { $0.account != account })
            }
            let service = tier.columnHash(
                .string("bank.example.invalid"),
                descriptor: schema.attribute("svce")!,
                table: "genp"
            )
            #expect(protectedRows.allSatisfy { $0.service != service })
        }
        #expect(Set(protectedRows.map(\.tag)).count == protectedRows.count)
        // The engine answers a right guess and a wrong one alike.
        for account in ["alice-passc", "mallory"] {
            let query = try QueryParser.parse(
                ["class": "genp", "acct": account, "svce": "bank.example.invalid"],
                for: .copyMatching
            )
            let error = #expect(throws: KeychainError.self) { _ = try thief.search(query) }
            #expect(error?.code == .interactionNotAllowed)
        }
        // The item that stays readable without the passcode is found, as on a locked iPhone.
        let daemon = try QueryParser.parse(["class": "genp", "acct": "daemon", "r_Data": true], for: .copyMatching)
        #expect(try thief.search(daemon).first?.data == Data("always readable".utf8))
    }

    /// Each guess costs a full scrypt of the parameters stored with the keybag (N = 2^16, r = 8,
    /// p = 1 for a passcode set with the standard cost), entangled with the device secret.
    @Test func eachGuessCostsTheStoredKDF() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-kdf-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let device = try Device(
            home: KeychainHome(url: directory),
            configuration: DeviceConfiguration(passcodeCost: .standard, passcodePrompt: .none)
        )
        try device.setPasscode("482916")
        let record = try device.keychain.keybagService.currentRecord()
        #expect(record.kdf == .standard)
        #expect(record.kdf.rounds >= 1 << 16 && record.kdf.blockSize >= 8)
        // Lowering the stored cost does not make guessing cheaper: the key it derives is another key.
        var cheaper = record
        cheaper.kdf = .testing
        let cheapKey = try device.keychain.keybag.passcodeKey(for: "482916", record: cheaper, minimum: .testing)
        #expect(throws: KeychainError.self) {
            _ = try device.keychain.keybag.classKeys(in: cheaper, passcodeKey: cheapKey)
        }
    }

    /// Wrong passcodes count in the database: another process sees them and waits out the back-off.
    @Test func wrongPasscodesCountAcrossProcesses() throws {
        let clock = TestClock()
        let keychain = try TemporaryKeychain(passcode: "482916", clock: { clock.now })
        let views = try (0..<3).map { _ in try keychain.reopened() }
        for attempt in 0..<5 {
            #expect(throws: (any Error).self) { try views[attempt % 3].unlock(passcode: "000000") }
        }
        // Apple's schedule: after the fifth wrong passcode the next attempt waits one minute, in every view.
        for view in views {
            let (failures, next) = try view.passcodeAttempts()
            #expect(failures == 5)
            #expect(next.map { $0.timeIntervalSince(clock.now) } == 60)
        }
        // Even the right passcode waits, and a refused attempt is not a guess.
        #expect(throws: (any Error).self) { try views[2].unlock(passcode: "482916") }
        #expect(try views[0].passcodeAttempts().failures == 5)
        clock.advance(61)
        try views[2].unlock(passcode: "482916")
        #expect(try views[0].passcodeAttempts().failures == 0)
    }
}

/// A clock the test moves by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)

    var now: Date {
        lock.lock()
        defer { lock.unlock() }
        return current
    }

    func advance(_ seconds: TimeInterval) {
        lock.lock()
        current += seconds
        lock.unlock()
    }
}
