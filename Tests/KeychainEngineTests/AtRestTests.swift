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

/// What is on disk: no plaintext, tampering refused, damage reported, never silently replaced.
@Suite struct AtRestTests {
    static let secrets = ["correct horse battery staple", "tr0ub4dor&3"]
    static let names = ["VeryDistinctiveServiceName", "someone@example.invalid", "LabelThatMustNotLeak"]

    static func addKnownItems() -> [OSStatus] {
        var statuses: [OSStatus] = []
        for (index, secret) in secrets.enumerated() {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: names[0],
                kSecAttrAccount as String: "\(names[1])\(index)",
                kSecAttrLabel as String: names[2],
                kSecValueData as String: Data(secret.utf8),
            ]
            statuses.append(SecItemAdd(item as CFDictionary, nil))
        }
        return statuses
    }

    static func fileBytes(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
        }
        return files
    }

    @Test func databaseAndWALHoldNoSecretOrAttributeInTheClear() throws {
        let keychain = try TemporaryKeychain()
        keychain.run { #expect(Self.addKnownItems() == [errSecSuccess, errSecSuccess]) }
        let files = try Self.fileBytes(keychain.directory)
        #expect(files.keys.contains("keychain.db"))
        #expect(files.keys.contains("keychain.db-wal"))
        for (name, bytes) in files {
            for needle in Self.secrets + Self.names + ["Very", "someone"] {
                #expect(bytes.range(of: Data(needle.utf8)) == nil, "\(name) contains a plaintext value")
            }
        }
    }

    @Test func deviceSecretFileIsPrivate() throws {
        let keychain = try TemporaryKeychain()
        let attributes = try FileManager.default.attributesOfItem(
            atPath: keychain.directory.appendingPathComponent("device.key").path
        )
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        #expect((attributes[.size] as? NSNumber)?.intValue == 32)
    }

    @Test func databaseFilesArePrivate() throws {
        let keychain = try TemporaryKeychain()
        keychain.run { #expect(Self.addKnownItems() == [errSecSuccess, errSecSuccess]) }
        let names = try FileManager.default.contentsOfDirectory(atPath: keychain.directory.path)
        #expect(names.contains("keychain.db-wal"))
        for name in names where name.hasPrefix("keychain.db") {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: keychain.directory.appendingPathComponent(name).path
            )
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600, "\(name) is not private")
        }
    }

    @Test(arguments: ["data", "v_Data", "mkey", "skey", "pdmn"])
    func alteredColumnMakesOnlyThatItemUnreadable(column: String) throws {
        let keychain = try TemporaryKeychain()
        keychain.run { #expect(Self.addKnownItems() == [errSecSuccess, errSecSuccess]) }
        try keychain.device.keychain.store.write { db throws(KeychainError) in
            do {
                let blob = try Data.fetchOne(db, sql: "SELECT \(column) FROM genp ORDER BY rowid LIMIT 1") ?? Data()
                var altered = blob
                altered[altered.startIndex + altered.count / 2] ^= 0x01
                try db.execute(
                    sql: "UPDATE genp SET \(column) = ? WHERE rowid = (SELECT min(rowid) FROM genp)",
                    arguments: [altered]
                )
            } catch {
                throw KeychainError(.io, "test tampering failed")
            }
        }
        keychain.run {
            func read(_ account: String) -> (OSStatus, Data?) {
                var result: CFTypeRef?
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccount as String: account,
                    kSecReturnData as String: true,
                ]
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                return (status, result as? Data)
            }
            #expect(read("\(Self.names[1])0").0 == errSecItemNotFound)
            #expect(read("\(Self.names[1])1") == (errSecSuccess, Data(Self.secrets[1].utf8)))
            // Apple drops an undecryptable item: a new item with the same key can be added.
            let again: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: Self.names[0],
                kSecAttrAccount as String: "\(Self.names[1])0",
                kSecValueData as String: Data("replacement".utf8),
            ]
            #expect(SecItemAdd(again as CFDictionary, nil) == errSecSuccess)
            #expect(read("\(Self.names[1])0") == (errSecSuccess, Data("replacement".utf8)))
        }
    }

    @Test func swappedSecretsBetweenRowsAreRefusedNotMisattributed() throws {
        let keychain = try TemporaryKeychain()
        keychain.run { #expect(Self.addKnownItems() == [errSecSuccess, errSecSuccess]) }
        try keychain.device.keychain.store.write { db throws(KeychainError) in
            do {
                let rows = try Row.fetchAll(db, sql: "SELECT rowid, skey, v_Data FROM genp ORDER BY rowid")
                for (row, other) in zip(rows, rows.reversed()) {
                    try db.execute(
                        sql: "UPDATE genp SET skey = ?, v_Data = ? WHERE rowid = ?",
                        arguments: [other["skey"] as Data?, other["v_Data"] as Data?, row["rowid"] as Int64?]
                    )
                }
            } catch {
                throw KeychainError(.io, "test tampering failed")
            }
        }
        keychain.run {
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecItemNotFound)
        }
    }

    @Test func garbageDatabaseIsAnErrorAndIsNotReplaced() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-garbage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let garbage = Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let database = directory.appendingPathComponent("keychain.db")
        try garbage.write(to: database)
        #expect(throws: (any Error).self) { _ = try Device(home: KeychainHome(url: directory)) }
        #expect(try Data(contentsOf: database) == garbage)
    }

    @Test func missingDeviceSecretIsAnErrorNotANewKeychain() throws {
        let keychain = try TemporaryKeychain()
        keychain.run { #expect(Self.addKnownItems() == [errSecSuccess, errSecSuccess]) }
        let secret = keychain.directory.appendingPathComponent("device.key")
        try FileManager.default.removeItem(at: secret)
        #expect(throws: (any Error).self) { _ = try keychain.reopened() }
        #expect(!FileManager.default.fileExists(atPath: secret.path))
    }

    @Test func passcodeKDFParametersAreStoredWithTheKeybag() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        let record = try? keychain.device.keychain.keybagService.currentRecord()
        #expect(record?.hasPasscode == true)
        #expect(record?.kdf == .testing)
        #expect(PasscodeKDF.standard.rounds >= 1 << 16)
    }

    @Test func withoutThePasscodeTheClassKeysCannotBeUnwrapped() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        let engine = keychain.device.keychain
        let record = try engine.keybagService.currentRecord()
        let wrapped = try #require(record.wrappedClassKeys[.whenUnlocked])
        // The device key alone (what a thief with device.key has) does not open a passcode-protected class key.
        #expect(throws: KeychainError.self) {
            _ = try AtRestCipher.unwrap(
                wrapped,
                using: engine.keybag.deviceKey,
                binding: KeybagRecord.classKeyBinding(.whenUnlocked).bytes
            )
        }
        let wrongKey = try engine.keybag.passcodeKey(for: "0000", record: record, minimum: .testing)
        #expect(throws: KeychainError.self) {
            _ = try AtRestCipher.unwrap(
                wrapped,
                using: wrongKey,
                binding: KeybagRecord.classKeyBinding(.whenUnlocked).bytes
            )
        }
        let rightKey = try engine.keybag.passcodeKey(for: "1234", record: record, minimum: .testing)
        _ = try AtRestCipher.unwrap(
            wrapped,
            using: rightKey,
            binding: KeybagRecord.classKeyBinding(.whenUnlocked).bytes
        )
    }

    /// The blob keys (CryptoKit's Secure Enclave keys) keep every generation through the keybag's
    /// serialization and through re-keying: a passcode change adds one, keeps the others, and opens
    /// them under the new class keys; re-keying with the same class keys adds none.
    @Test func blobKeyGenerationsSurviveSerializationAndRekeying() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        let service = keychain.device.keychain.keybagService
        let first = try service.currentBlobKey(for: .afterFirstUnlockThisDeviceOnly)
        #expect(first.generation == 0)
        _ = try service.currentBlobKey(for: .whenUnlocked)
        try keychain.device.changePasscode(from: "1234", to: "5678")
        let second = try service.currentBlobKey(for: .afterFirstUnlockThisDeviceOnly)
        #expect(second.generation == 1)
        #expect(second.key != first.key)
        #expect(try service.blobKey(for: .afterFirstUnlockThisDeviceOnly, generation: 0) == first.key)
        #expect(try service.blobKey(for: .afterFirstUnlockThisDeviceOnly, generation: 2) == nil)

        let record = try service.currentRecord()
        #expect(record.wrappedBlobKeys[.afterFirstUnlockThisDeviceOnly]?.count == 2)
        #expect(record.wrappedBlobKeys[.whenUnlocked]?.count == 2)
        let parsed = try KeybagRecord(serialized: record.serialized)
        #expect(parsed.wrappedBlobKeys == record.wrappedBlobKeys)

        // Removing the passcode keeps the class keys (and the blob keys) of the classes that stay.
        try keychain.device.removePasscode(current: "5678")
        #expect(try service.blobKey(for: .afterFirstUnlockThisDeviceOnly, generation: 0) == first.key)
        #expect(try service.currentBlobKey(for: .afterFirstUnlockThisDeviceOnly).key == second.key)
    }
}
