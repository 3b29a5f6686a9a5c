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

/// Findings 6, 7 and 8: the keybag's constraint keys and look-up tiers altered by someone who holds today's
/// files (and so can open and reseal the keybag box, but has no passcode); damaged locks; leaks
/// of sizes; a crash while a keychain is created; a database from a newer version.
@Suite struct KeybagAttackTests {
    static let passcode = "1357"

    static func passcodeItem(
        _ account: String,
        protection: CFString = kSecAttrAccessibleAlwaysThisDeviceOnly
    ) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
            kSecAttrAccessControl as String: SecAccessControlCreateWithFlags(nil, protection, .devicePasscode, nil)
                as Any,
            kSecValueData as String: Data("secret of \(account)".utf8),
        ]
    }

    static func open(_ home: URL) throws -> Device {
        try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        )
    }

    // MARK: Finding 6: swapped lock public keys

    /// The thief swaps the passcode constraint key's public key for one of their own (keeping its identifier
    /// and code).
    ///
    /// Items added afterwards must not be sealed to it: before the first unlock the lock cannot be checked
    /// and the add is refused; after it the check fails and the add is refused.
    @Test func aSwappedLockKeyIsNeverSealedTo() throws {
        let keychain = try TemporaryKeychain(passcode: Self.passcode)
        let thiefKey = Curve25519.KeyAgreement.PrivateKey()
        try KeybagForgery.forge(keychain.directory) { record in
            record.constraints[.passcode]?.publicKey = thiefKey.publicKey
        }
        // A process that has not unlocked: it cannot check the lock, so it does not seal to it.
        let fresh = try keychain.reopened()
        Device.withCurrent(fresh) {
            #expect(SecItemAdd(Self.passcodeItem("before unlock") as CFDictionary, nil) == errSecInteractionNotAllowed)
        }
        // After the passcode: the check fails; a damaged lock is refused, not trusted.
        try fresh.unlock(passcode: Self.passcode)
        Device.withCurrent(fresh) {
            #expect(SecItemAdd(Self.passcodeItem("after unlock") as CFDictionary, nil) == errSecDecode)
        }
        // The owner process (unlocked before the swap) follows the new keybag and refuses too.
        keychain.run {
            #expect(SecItemAdd(Self.passcodeItem("owner") as CFDictionary, nil) == errSecDecode)
        }
        // Nothing was stored sealed to the thief's key.
        let count = try Attacker.sql(keychain.directory) { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM genp")
        }
        #expect(count == 0)
    }

    /// A lock whose code was removed is damage, not trust.
    @Test func aLockWithoutItsCodeIsDamage() throws {
        let keychain = try TemporaryKeychain(passcode: Self.passcode)
        try KeybagForgery.forge(keychain.directory) { record in
            record.constraints[.passcode]?.mac = nil
        }
        keychain.run {
            #expect(SecItemAdd(Self.passcodeItem("no code") as CFDictionary, nil) == errSecDecode)
        }
    }

    /// Without forgery the same adds succeed (so the tests above can fail).
    @Test func anUntouchedLockIsSealedTo() throws {
        let keychain = try TemporaryKeychain(passcode: Self.passcode)
        keychain.run {
            #expect(SecItemAdd(Self.passcodeItem("fine") as CFDictionary, nil) == errSecSuccess)
        }
    }

    // MARK: Finding 8: a damaged lock and a re-add

    /// A damaged lock refuses its item (`errSecDecode`); adding an item with the same primary key is
    /// a duplicate, not a reason to delete the damaged one; restoring the lock reads it again.
    @Test func aDamagedLockAndAReAddLoseNothing() throws {
        let keychain = try TemporaryKeychain(passcode: Self.passcode)
        keychain.run {
            #expect(SecItemAdd(Self.passcodeItem("kept") as CFDictionary, nil) == errSecSuccess)
        }
        let original = try KeybagForgery.read(keychain.directory)
        try KeybagForgery.forge(keychain.directory) { record in
            var wrapped = [UInt8](record.constraints[.passcode]?.wrappedPrivateKey ?? Data())
            wrapped[wrapped.count / 2] ^= 0x01
            record.constraints[.passcode]?.wrappedPrivateKey = Data(wrapped)
        }
        keychain.queuePasscodeReplies([.entered(Self.passcode)])
        let read: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "kept",
            kSecReturnData as String: true,
        ]
        keychain.run {
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecDecode)
            #expect(SecItemAdd(Self.passcodeItem("kept") as CFDictionary, nil) == errSecDuplicateItem)
        }
        try KeybagForgery.forge(keychain.directory) { record in record.constraints = original.constraints }
        keychain.queuePasscodeReplies([.entered(Self.passcode)])
        keychain.run {
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("secret of kept".utf8))
        }
    }

    // MARK: Finding 7: the look-up tiers

    /// The thief empties the protected look-up key, as if the keychain predated the tiers.
    ///
    /// The keychain then refuses to write (it never hashes protected items with the device key) and
    /// does not re-hash or scramble the rows it cannot place; restoring the key reads everything.
    @Test func emptiedTiersRefuseToWriteInsteadOfDowngrading() throws {
        let keychain = try TemporaryKeychain(passcode: Self.passcode)
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "protected",
            kSecValueData as String: Data("protected secret".utf8),
        ]
        keychain.run { #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess) }
        let original = try KeybagForgery.read(keychain.directory)
        let rowsBefore = try Self.rows(keychain.directory)
        try KeybagForgery.forge(keychain.directory) { record in record.sealedProtectedLookupKey = nil }

        let victim = try keychain.reopened()
        try victim.unlock(passcode: Self.passcode)
        Device.withCurrent(victim) {
            var another = item
            another[kSecAttrAccount as String] = "written after the downgrade"
            #expect(SecItemAdd(another as CFDictionary, nil) == errSecDecode)
        }
        #expect(try Self.rows(keychain.directory) == rowsBefore, "rows were rewritten")
        try KeybagForgery.forge(keychain.directory) { record in
            record.sealedProtectedLookupKey = original.sealedProtectedLookupKey
        }
        let restored = try keychain.reopened()
        try restored.unlock(passcode: Self.passcode)
        Device.withCurrent(restored) {
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "protected",
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("protected secret".utf8))
        }
    }

    static func rows(_ home: URL) throws -> [[Data]] {
        try Attacker.sql(home) { db in
            try Row.fetchAll(
                db,
                sql: "SELECT pdmn, pkey, svce, acct, data, mkey, skey, v_Data FROM genp ORDER BY rowid"
            ).map { row in
                (0..<8).compactMap { row[$0] as Data? }
            }
        }
    }

    // MARK: Finding 8: what sizes tell

    /// Secrets of different lengths, attribute sets of different lengths and access controls of
    /// different shapes seal to the same sizes (within a bucket).
    @Test func sizesOnDiskDoNotTellLengthsOrShapes() throws {
        let keychain = try TemporaryKeychain(passcode: Self.passcode, biometry: .touchID, enrolled: ["thumb"])
        let shapes: [(String, SecAccessControlCreateFlags)] = [
            ("passcode", .devicePasscode), ("biometry", .biometryAny), ("presence", .userPresence),
            ("either", [.biometryCurrentSet, .or, .devicePasscode]), ("both", [.biometryAny, .devicePasscode]),
        ]
        keychain.run {
            for (account, secret) in [
                ("a", "x"), ("a much longer account name, forty bytes", String(repeating: "y", count: 50)),
            ] {
                let item: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                    kSecValueData as String: Data(secret.utf8),
                ]
                #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            }
            for (account, flags) in shapes {
                let item: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
                    kSecAttrAccessControl as String: SecAccessControlCreateWithFlags(
                        nil,
                        kSecAttrAccessibleWhenUnlocked,
                        flags,
                        nil
                    ) as Any,
                    kSecValueData as String: Data("s".utf8),
                ]
                #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess, "\(account)")
            }
        }
        let sizes = try Attacker.sql(keychain.directory) { db in
            try Row.fetchAll(db, sql: "SELECT length(data), length(skey), length(v_Data) FROM genp ORDER BY rowid").map
            { row in
                (metadata: row[0] as Int, envelope: row[1] as Int, secret: row[2] as Int)
            }
        }
        #expect(sizes.count == 2 + shapes.count)
        #expect(Set(sizes.map(\.secret)).count == 1, "secret lengths show: \(sizes.map(\.secret))")
        #expect(Set(sizes.map(\.metadata)).count == 1, "attribute lengths show: \(sizes.map(\.metadata))")
        #expect(
            Set(sizes.dropFirst(2).map(\.envelope)).count == 1,
            "access-control shapes show: \(sizes.map(\.envelope))"
        )
    }

    // MARK: Finding 8: creation

    /// A creation that crashed before its commit left a staged device secret: the next opening
    /// discards it and creates the keychain; one that crashed after the commit, before installing
    /// `device.key`, is completed by the next opening.
    @Test func aCrashWhileCreatingNeverBricksTheHome() throws {
        let before = Attacker.newHome("creation-before")
        defer { Attacker.remove(before) }
        try FileManager.default.createDirectory(
            at: before,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        try Data(repeating: 7, count: 32).write(
            to: before.appendingPathComponent("device.key.0123456789abcdef0123456789abcdef")
        )
        _ = try Self.open(before)
        #expect(FileManager.default.fileExists(atPath: before.appendingPathComponent("device.key").path))
        #expect(
            !FileManager.default.fileExists(
                atPath: before.appendingPathComponent("device.key.0123456789abcdef0123456789abcdef").path
            )
        )

        let after = Attacker.newHome("creation-after")
        defer { Attacker.remove(after) }
        let keychain = try Self.open(after)
        Device.withCurrent(keychain) {
            #expect(
                SecItemAdd(
                    [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "x",
                        kSecValueData as String: Data("survives".utf8),
                    ] as CFDictionary,
                    nil
                ) == errSecSuccess
            )
        }
        try FileManager.default.moveItem(
            at: after.appendingPathComponent("device.key"),
            to: after.appendingPathComponent("device.key.fedcba9876543210fedcba9876543210")
        )
        let reopened = try Self.open(after)
        #expect(FileManager.default.fileExists(atPath: after.appendingPathComponent("device.key").path))
        Device.withCurrent(reopened) {
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "x",
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("survives".utf8))
        }
    }

    /// The files moved aside by hand, as the error for a lost database suggests: a new keychain is
    /// never made over a keybag secret it did not write, and a user's `device.key.bak` is never
    /// taken for a staged secret and removed.
    @Test func filesMovedAsideAreNeverDestroyed() throws {
        let home = Attacker.newHome("moved-aside")
        defer { Attacker.remove(home) }
        _ = try Self.open(home)
        let secret = try Data(contentsOf: home.appendingPathComponent("keybag.key"))
        for name in ["device.key", "keychain.db"] {
            try FileManager.default.moveItem(
                at: home.appendingPathComponent(name),
                to: home.appendingPathComponent(name + ".bak")
            )
        }
        #expect(throws: (any Error).self) { _ = try Self.open(home) }
        #expect(try Data(contentsOf: home.appendingPathComponent("keybag.key")) == secret)
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("device.key.bak").path))
        // Moving keybag.key aside too starts anew, and the moved files stay.
        try FileManager.default.moveItem(
            at: home.appendingPathComponent("keybag.key"),
            to: home.appendingPathComponent("keybag.key.bak")
        )
        _ = try Self.open(home)
        #expect(try Data(contentsOf: home.appendingPathComponent("keybag.key.bak")) == secret)
        #expect(FileManager.default.fileExists(atPath: home.appendingPathComponent("device.key.bak").path))
    }

    // MARK: Finding 8: a newer database

    /// A database that a newer version migrated is refused with a clear error, and not written.
    @Test func aDatabaseFromANewerVersionIsRefusedAndNotWritten() throws {
        let home = Attacker.newHome("newer")
        defer { Attacker.remove(home) }
        _ = try Self.open(home)
        try Attacker.sql(home) { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
        }
        let database = home.appendingPathComponent("keychain.db")
        let bytes = try Data(contentsOf: database)
        #expect {
            _ = try Self.open(home)
        } throws: { error in
            (error as? KeychainDeviceError)?.code == .invalidKeychain && "\(error)".contains("newer version")
        }
        let output = try Tool(home: home).run(["add-generic-password", "-a", "a", "-s", "s", "-w", "w"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("newer version"))
        #expect(try Data(contentsOf: database) == bytes)
    }
}
