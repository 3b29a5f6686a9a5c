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

/// The keybag, the constraint keys and the device secret, damaged: opening or unlocking fails with a
/// clear error or the affected items are refused; no item is misread; putting the original bytes
/// back makes everything readable again (nothing was overwritten).
@Suite struct KeybagTamperTests {
    static let passcode = "1234"

    /// The sealed keybag is one box: every field (salts, KDF, look-up keys, class keys, locks) is
    /// inside it, so damage anywhere in it, or to what binds it, is damage to the box.
    static let blobTargets = ["sealed_keybag.sealed", "sealed_keybag.secret_id"]

    static let valueTargets: [(String, [any DatabaseValueConvertible & Sendable])] = [
        ("sealed_keybag.generation", [0, 7, -1, Int64.max]),
        ("sealed_keybag.secret_id", [Data(count: 16), Data(count: 3)]),
        ("sealed_keybag.sealed", [Data()]),
    ]

    @Test(arguments: blobTargets)
    func damagedKeybagBlob(target: String) throws {
        for damage in Damage.allCases {
            try Self.check(target, "\(damage)") { Data.fromDatabaseValue($0).map { damage.apply(to: $0) } }
        }
    }

    @Test func damagedKeybagValue() throws {
        for (target, values) in Self.valueTargets {
            for value in values {
                try Self.check(target, "set to \(value)") { _ in value }
            }
        }
    }

    /// Replaces `target` (`table.column [WHERE …]`) by `damage(original)`, checks the damaged
    /// keychain from a new process's point of view, restores the original, checks all is back.
    static func check(
        _ target: String,
        _ comment: String,
        damage: (DatabaseValue) -> (any DatabaseValueConvertible)?
    ) throws {
        let fixture = try TamperFixture(passcode: passcode)
        try fixture.keychain.run {
            let access = try #require(
                SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .devicePasscode, nil)
            )
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "locked",
                kSecAttrAccount as String: "passcode-item", kSecValueData as String: Data("locked secret".utf8),
                kSecAttrAccessControl as String: access,
            ]
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
        }
        let (table, column, condition) = parse(target)
        let original = try fixture.keychain.device.keychain.store.read { db throws(KeychainError) in
            do {
                return try DatabaseValue.fetchOne(db, sql: "SELECT \(column) FROM \(table)\(condition)") ?? .null
            } catch { throw KeychainError(.io, "test read failed") }
        }
        let replacement = damage(original)
        try fixture.write { db in
            try db.execute(sql: "UPDATE \(table) SET \(column) = ?\(condition)", arguments: [replacement])
            #expect(db.changesCount == 1, "\(target): nothing was damaged")
        }
        let context = "\(target) \(comment)"
        try readEverything(fixture, context: context, expectIntact: false)

        let restoreCondition = column == "pdmn" ? " WHERE pdmn = 'zz'" : condition
        try fixture.write { db in
            try db.execute(sql: "UPDATE \(table) SET \(column) = ?\(restoreCondition)", arguments: [original])
        }
        try readEverything(fixture, context: "\(context), restored", expectIntact: true)
    }

    /// Opens the keychain as a new process, unlocks it and reads every item: each read gives the
    /// item's own secret or fails; with `expectIntact`, every read must succeed.
    static func readEverything(_ fixture: TamperFixture, context: String, expectIntact: Bool) throws {
        let device: Device
        do {
            device = try fixture.keychain.reopened()
            try device.unlock(passcode: passcode)
        } catch {
            #expect(!expectIntact, "\(context): \(error)")
            return
        }
        Device.withCurrent(device) {
            for table in ["genp", "inet"] {
                let itemClass = TamperFixture.itemClass(table: table)
                for account in TamperFixture.accounts {
                    let (status, data) = fixture.read(itemClass, account, on: device)
                    if status == errSecSuccess {
                        #expect(data == TamperFixture.secret(itemClass, account), "\(context): \(account) misread")
                    } else {
                        #expect(!expectIntact, "\(context): \(table) \(account) gave \(status)")
                        #expect(
                            [errSecItemNotFound, errSecDecode, errSecInteractionNotAllowed].contains(status),
                            "\(context): \(status)"
                        )
                    }
                }
            }
            fixture.keychain.queuePasscodeReplies([.entered(passcode)])
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "passcode-item",
                kSecReturnData as String: true,
            ]
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            if status == errSecSuccess {
                #expect(result as? Data == Data("locked secret".utf8), "\(context): locked item misread")
            } else {
                #expect(!expectIntact, "\(context): locked item gave \(status)")
            }
        }
    }

    static func parse(_ target: String) -> (table: String, column: String, condition: String) {
        let parts = target.split(separator: " ", maxSplits: 1).map(String.init)
        let (table, column) = ItemTamperTests.split(parts[0])
        return (table, column, parts.count > 1 ? " " + parts[1] : "")
    }
}
