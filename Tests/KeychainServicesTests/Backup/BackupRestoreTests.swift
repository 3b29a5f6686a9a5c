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
import KeychainServices
import KeychainTesting
import Testing

/// `Device.backup` and `Device.restore`: what leaves the device, what comes back, and how.
@Suite struct BackupRestoreTests {
    static let password = "correct horse battery staple"

    /// A path for a backup file in a folder of its own, removed by `body`'s end.
    static func withBackupPath<T>(_ body: (URL) async throws -> T) async throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await body(folder.appendingPathComponent("keychain.backup"))
    }

    @Test func everyItemThatMayLeaveComesBackAsItWas() async throws {
        let groups = ["com.example.one", "com.example.two"]
        let source = try TemporaryKeychain(accessGroups: groups)
        let root = try TestAuthority(root: "Backup Root")
        source.run {
            let alice: [String: Any] = [
                kSecAttrLabel as String: "Alice's mail", kSecAttrComment as String: "a comment",
                kSecAttrGeneric as String: Data([1, 2, 3]), kSecAttrSynchronizable as String: true,
            ]
            #expect(KeychainContents.addPassword("alice", secret: "hunter2", extra: alice) == errSecSuccess)
            let bob: [String: Any] = [
                kSecAttrAccessGroup as String: "com.example.two",
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
            ]
            #expect(KeychainContents.addPassword("bob", secret: "in group two", extra: bob) == errSecSuccess)
            let empty: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "empty",
            ]
            #expect(SecItemAdd(empty as CFDictionary, nil) == errSecSuccess)
            let internet: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "mail.example.com",
                kSecAttrProtocol as String: kSecAttrProtocolHTTPS, kSecAttrPort as String: 443,
                kSecAttrPath as String: "/inbox", kSecAttrAccount as String: "carol",
                kSecValueData as String: Data("carol's password".utf8),
            ]
            #expect(SecItemAdd(internet as CFDictionary, nil) == errSecSuccess)
            let certificate: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecValueRef as String: root.issued.secCertificate,
            ]
            #expect(SecItemAdd(certificate as CFDictionary, nil) == errSecSuccess)
            let key: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true, kSecAttrLabel as String: "backup key",
                ],
            ]
            #expect(SecKeyCreateRandomKey(key as CFDictionary, nil) != nil)
            let local: [String: Any] = [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly]
            #expect(KeychainContents.addPassword("local", secret: "stays here", extra: local) == errSecSuccess)
            let enclave: [String: Any] = [
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true, kSecAttrLabel as String: "enclave",
                ],
            ]
            #expect(SecKeyCreateRandomKey(enclave as CFDictionary, nil) != nil)
        }
        let before = source.run { KeychainContents.lines() }
        let leaving = before.filter { !$0.contains("acct=local") && !$0.contains("labl=enclave") }
        #expect(leaving.count == before.count - 2)
        let reference = try #require(source.run { KeychainContents.persistentReference(of: "alice") })

        try await Self.withBackupPath { file in
            let written = try await source.device.backup(to: file, password: Self.password)
            #expect(written.written == leaving.count)
            #expect(written.omitted == [.thisDeviceOnly: 1, .enclaveKey: 1])
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? Int) == 0o600)

            let target = try TemporaryKeychain(accessGroups: groups)
            let restored = try await target.device.restore(from: file, password: Self.password)
            #expect(restored.added == leaving.count)
            #expect(restored.replaced == 0 && restored.kept == 0 && restored.refused.isEmpty)
            // Attributes, dates, groups, classes and data, item by item.
            #expect(target.run { KeychainContents.lines() } == leaving)
            // The persistent reference taken before the backup finds the item in the new keychain.
            try target.run {
                var result: CFTypeRef?
                let query: [String: Any] = [
                    kSecValuePersistentRef as String: reference, kSecReturnData as String: true,
                ]
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
                let data = try #require(result as? Data)
                #expect(String(data: data, encoding: .utf8) == "hunter2")
            }
        }
    }

    /// Issue 37: `…ThisDeviceOnly` items are absent from the file itself, decrypted, and nothing
    /// of any item is in the file in the clear.
    @Test func theFileHoldsNothingOfThisDeviceOnlyItems() async throws {
        let source = try TemporaryKeychain()
        source.run {
            #expect(KeychainContents.addPassword("kept-account-4711", secret: "kept-secret-4711") == errSecSuccess)
            for (index, protection) in [
                kSecAttrAccessibleWhenUnlockedThisDeviceOnly, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
            ].enumerated() {
                let extra: [String: Any] = [kSecAttrAccessible as String: protection]
                let status = KeychainContents.addPassword(
                    "local-account-\(index)",
                    secret: "local-secret-\(index)",
                    service: "local-service",
                    extra: extra
                )
                #expect(status == errSecSuccess)
            }
        }
        try await Self.withBackupPath { file in
            let summary = try await source.device.backup(to: file, password: Self.password)
            #expect(summary.written == 1 && summary.omitted == [.thisDeviceOnly: 2])
            let plaintext = try KeychainContents.records(of: file, password: Self.password).reduce(Data(), +)
            #expect(plaintext.range(of: Data("kept-secret-4711".utf8)) != nil)
            #expect(plaintext.range(of: Data("kept-account-4711".utf8)) != nil)
            for needle in ["local-secret-", "local-account-", "local-service"] {
                #expect(plaintext.range(of: Data(needle.utf8)) == nil)
            }
            let raw = try Data(contentsOf: file)
            for needle in ["kept-secret-4711", "kept-account-4711", "Backup", "local-"] {
                #expect(raw.range(of: Data(needle.utf8)) == nil)
            }
        }
    }

    /// Access control that a new keychain can create again comes back as access control, sealed
    /// to the new keychain's passcode; what is bound to this device's fingers stays.
    @Test func accessControlComesBackAsAccessControl() async throws {
        let source = try TemporaryKeychain(passcode: "1234", biometry: .touchID, enrolled: ["thumb"])
        source.run {
            #expect(ProtectedItems.add("presence", flags: .userPresence, secret: "present") == errSecSuccess)
            #expect(ProtectedItems.add("passcode", flags: .devicePasscode, secret: "typed") == errSecSuccess)
            #expect(ProtectedItems.add("finger", flags: .biometryAny, secret: "touched") == errSecSuccess)
            #expect(ProtectedItems.add("set", flags: .biometryCurrentSet, secret: "this set") == errSecSuccess)
        }
        try await Self.withBackupPath { file in
            if ProcessInfo.processInfo.environment["KEYCHAIN_ENGINE"] == "daemon" {
                // securityd guards apps' items from each other: without the passcode, no backup.
                await #expect {
                    try await source.device.backup(to: file, password: Self.password)
                } throws: { ($0 as? KeychainDeviceError)?.message.contains("needs its passcode") == true }
            } else {
                // Without the passcode, nothing with access control can be read to be copied.
                let without = try await source.device.backup(to: file, password: Self.password)
                #expect(without.written == 0)
                #expect(without.omitted == [.needsAuthentication: 3, .biometrySetBound: 1])
            }

            let summary = try await source.device.backup(to: file, password: Self.password, passcode: "1234")
            #expect(summary.written == 2)
            #expect(summary.omitted == [.needsAuthentication: 1, .biometrySetBound: 1])

            let target = try TemporaryKeychain(passcode: "9999")
            let restored = try await target.device.restore(from: file, password: Self.password, passcode: "9999")
            #expect(restored.added == 2)
            target.run {
                // Sealed to the new keychain's passcode: nothing opens it without asking.
                let skip: [String: Any] = [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]
                #expect(ProtectedItems.read("presence", extra: skip).0 == errSecInteractionNotAllowed)
                target.queuePasscodeReplies([.entered("9999")])
                #expect(ProtectedItems.read("passcode") == (errSecSuccess, "typed"))
                target.queuePasscodeReplies([.entered("9999")])
                #expect(ProtectedItems.read("presence") == (errSecSuccess, "present"))
            }

            // A keychain without a passcode cannot hold them: refused, and said so.
            let bare = try TemporaryKeychain()
            let refused = try await bare.device.restore(from: file, password: Self.password)
            #expect(refused.added == 0 && refused.refused == [.accessControlUnavailable: 2])
            #expect(bare.run { ProtectedItems.read("presence").0 } == errSecItemNotFound)
        }
    }

    /// An item in both keeps the newer modification date; nothing else is overwritten, and a
    /// second restore changes nothing (which is what finishes an interrupted one).
    @Test func theNewerItemWins() async throws {
        // Real time orders the changes (a daemon keeps its own clock): the target's first item is
        // older than the backup's, its second newer.
        let target = try TemporaryKeychain()
        target.run { #expect(KeychainContents.addPassword("older-here", secret: "local, older") == errSecSuccess) }
        let older = try #require(target.run { KeychainContents.persistentReference(of: "older-here") })
        let source = try TemporaryKeychain()
        source.run {
            #expect(KeychainContents.addPassword("older-here", secret: "from the backup") == errSecSuccess)
            #expect(KeychainContents.addPassword("newer-here", secret: "from the backup") == errSecSuccess)
            #expect(KeychainContents.addPassword("only-in-backup", secret: "from the backup") == errSecSuccess)
        }
        try await Self.withBackupPath { file in
            _ = try await source.device.backup(to: file, password: Self.password)
            target.run {
                #expect(KeychainContents.addPassword("newer-here", secret: "local, newer") == errSecSuccess)
                #expect(KeychainContents.addPassword("only-here", secret: "local") == errSecSuccess)
            }
            let summary = try await target.device.restore(from: file, password: Self.password)
            #expect(summary.added == 1 && summary.replaced == 1 && summary.kept == 1)
            target.run {
                #expect(KeychainContents.secret(of: "older-here").1 == "from the backup")
                #expect(KeychainContents.secret(of: "newer-here").1 == "local, newer")
                #expect(KeychainContents.secret(of: "only-here").1 == "local")
                #expect(KeychainContents.secret(of: "only-in-backup").1 == "from the backup")
                // The replaced item is still the one this keychain's references name.
                #expect(KeychainContents.persistentReference(of: "older-here") == older)
            }
            let contents = target.run { KeychainContents.lines() }
            let again = try await target.device.restore(from: file, password: Self.password)
            #expect(again.added == 0 && again.replaced == 0 && again.kept == 3)
            #expect(target.run { KeychainContents.lines() } == contents)
        }
    }

    /// `security backup --to-key`: sealed to a public key, opened by its private key only.
    @Test func aRecipientKeyBackupOpensWithItsPrivateKeyOnly() async throws {
        let source = try TemporaryKeychain()
        source.run { #expect(KeychainContents.addPassword("unattended", secret: "nightly") == errSecSuccess) }
        let key = P256.KeyAgreement.PrivateKey()
        try await Self.withBackupPath { file in
            let summary = try await source.device.backup(to: file, recipient: key.publicKey.x963Representation)
            #expect(summary.written == 1)
            let target = try TemporaryKeychain()
            let other = P256.KeyAgreement.PrivateKey()
            await #expect {
                try await target.device.restore(from: file, privateKey: other.rawRepresentation)
            } throws: { ($0 as? KeychainDeviceError)?.code == .wrongPassword }
            await #expect {
                try await target.device.restore(from: file, password: Self.password)
            } throws: { ($0 as? KeychainDeviceError)?.code == .wrongPassword }
            let restored = try await target.device.restore(from: file, privateKey: key.rawRepresentation)
            #expect(restored.added == 1)
            #expect(target.run { KeychainContents.secret(of: "unattended").1 } == "nightly")
        }
    }

    /// A locked keychain is not backed up, and no file (not even an unfinished one) is left.
    ///
    /// Through `securityd` the daemon asks for the passcode first (which would unlock it): with
    /// nobody to answer, that refusal comes first.
    @Test func aLockedKeychainIsNotBackedUp() async throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        keychain.run { #expect(KeychainContents.addPassword("secret", secret: "locked away") == errSecSuccess) }
        try keychain.device.lock()
        let throughDaemon = ProcessInfo.processInfo.environment["KEYCHAIN_ENGINE"] == "daemon"
        try await Self.withBackupPath { file in
            await #expect {
                try await keychain.device.backup(to: file, password: Self.password)
            } throws: { error in
                guard let error = error as? KeychainDeviceError else { return false }
                return throughDaemon ? error.message.contains("needs its passcode") : error.code == .locked
            }
            let folder = file.deletingLastPathComponent().path
            let left = try FileManager.default.contentsOfDirectory(atPath: folder)
            #expect(left.isEmpty)
        }
    }
}
