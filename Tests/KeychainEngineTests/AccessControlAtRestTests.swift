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

/// The key-wrapping layer on its own: someone holding the database and the device secret, calling
/// the engine's internals directly (no authentication gate in the way), still cannot decrypt an
/// item without its application password, the passcode, or a biometric match.
@Suite struct AccessControlAtRestTests {
    static func add(_ account: String, flags: SecAccessControlCreateFlags, protection: CFString) -> OSStatus {
        guard let access = SecAccessControlCreateWithFlags(nil, protection, flags, nil) else { return errSecParam }
        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: account,
            kSecValueData as String: Data("secret of \(account)".utf8),
            kSecAttrAccessControl as String: access,
        ]
        return SecItemAdd(item as CFDictionary, nil)
    }

    /// Every genp row of `keychain`, opened as far as the class keys it holds allow.
    static func rows(_ keychain: Keychain) throws -> [(ItemRow, StoredItem)] {
        let schema = ItemSchema.of(.genericPassword)
        return try keychain.store.read { db throws(KeychainError) in
            let raws =
                (try? Row.fetchAll(db, sql: "SELECT \(RowSQL.of(.genericPassword).columns) FROM genp ORDER BY rowid"))
                ?? []
            var pairs: [(ItemRow, StoredItem)] = []
            for raw in raws {
                guard let row = ItemRow(row: raw, schema: schema) else { continue }
                pairs.append((row, try keychain.codec.openMetadata(row, itemClass: .genericPassword)))
            }
            return pairs
        }
    }

    static func open(
        _ keychain: Keychain,
        _ pair: (ItemRow, StoredItem),
        _ credentials: AuthenticationCredentials
    ) -> Result<Data, KeychainError> {
        Result { () throws(KeychainError) in
            try keychain.codec.openSecret(
                pair.0,
                item: pair.1,
                credentials: credentials,
                currentConstraints: { () throws(KeychainError) in try keychain.keybagService.constraintKeyRecords() }
            )
        }
    }

    @Test func withTheFilesButWithoutTheSecretsNothingOpens() throws {
        let temporary = try TemporaryKeychain(passcode: "1234", biometry: .touchID, enrolled: ["thumb"])
        // The device-class items: their class key comes from the device secret alone.
        let owner = temporary.device.keychain
        var credentials = AuthenticationCredentials()
        credentials.applicationPassword = ApplicationPassword(Data("correct password".utf8))
        let sealedAt = try owner.keybagService.constraintKeyRecords()
        for (account, flags) in [
            ("app", AccessControl.applicationPassword), ("passcode", AccessControl.devicePasscode),
            ("bio", AccessControl.biometryAny),
        ] {
            _ = try owner.add(
                try QueryParser.parse(
                    [
                        "class": "genp", "acct": account, "v_Data": Data("secret of \(account)".utf8),
                        "accc": AccessControl(protection: .alwaysThisDeviceOnly, flags: flags),
                    ],
                    for: .add
                ),
                credentials: credentials
            )
        }
        #expect(sealedAt.count == 3)  // passcode, biometryAny, biometryCurrentSet

        // The thief: a fresh engine on the same files, no passcode entered.
        let thief = try Keychain(
            directory: temporary.directory,
            accessGroups: AccessGroups(["*"]),
            passcodeKDF: .testing
        )
        let stolen = try Self.rows(thief)
        #expect(stolen.map { $0.1.attributes["acct"] } == [.string("app"), .string("passcode"), .string("bio")])
        for pair in stolen {
            // The class layer opens (dku), the constraint layer does not.
            #expect((try? Self.open(thief, pair, AuthenticationCredentials()).get()) == nil)
            #expect(Self.open(thief, pair, AuthenticationCredentials()).failureCode == .authenticationNeeded)
            guard case .constrained = try SecretKeyEnvelope(serialized: pair.0.secretKeyEnvelope) else {
                Issue.record("a protected item's key is not sealed to its constraints")
                continue
            }
        }
        // A guessed application password is refused; the right one opens (so the test can fail).
        var guess = AuthenticationCredentials()
        guess.applicationPassword = ApplicationPassword(Data("guess".utf8))
        #expect(Self.open(thief, stolen[0], guess).failureCode == .authenticationFailed)
        #expect(try Self.open(thief, stolen[0], credentials).get() == Data("secret of app".utf8))

        // The passcode constraint key does not open with the device key, nor with a wrong passcode (counted).
        let passcodeLock = try #require(try thief.keybagService.constraintKeyRecords()[.passcode])
        #expect(throws: KeychainError.self) { try passcodeLock.privateKey(using: thief.keybag.deviceKey) }
        #expect(throws: KeychainError.self) { try thief.keybagService.authenticate(passcode: "0000") }
        #expect(try thief.attempts.passcodeBackoff().failures == 1)
        // Biometric constraint keys are wrapped by a passcode-protected class key: nothing to release.
        #expect(throws: KeychainError.self) { try thief.keybagService.releaseBiometricConstraints() }
        // Keys made up by the thief do not open either.
        var forged = AuthenticationCredentials()
        for record in try thief.keybagService.constraintKeyRecords().values {
            forged.constraintKeys[record.identifier] = Curve25519.KeyAgreement.PrivateKey()
        }
        #expect(Self.open(thief, stolen[1], forged).failureCode == .decode)

        // With the passcode, the same engine opens the passcode item and, after a match, the biometric one.
        let released = try thief.keybagService.authenticate(passcode: "1234")
        #expect(try Self.open(thief, stolen[1], released).get() == Data("secret of passcode".utf8))
        let biometric = try thief.keybagService.releaseBiometricConstraints()
        #expect(try Self.open(thief, stolen[2], biometric).get() == Data("secret of bio".utf8))
    }

    @Test func invalidatedItemsAreRemovedFromTheDatabase() throws {
        let temporary = try TemporaryKeychain(passcode: "1234", biometry: .faceID, enrolled: ["face"])
        try temporary.run {
            #expect(
                Self.add("current", flags: .biometryCurrentSet, protection: kSecAttrAccessibleWhenUnlocked)
                    == errSecSuccess
            )
            #expect(Self.add("any", flags: .biometryAny, protection: kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
            try temporary.sensor.enroll("alternate appearance")
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "current",
                kSecReturnData as String: true,
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecItemNotFound)
        }
        let count = try temporary.device.keychain.store.read { db throws(KeychainError) in
            (try? Int.fetchOne(db, sql: "SELECT count(*) FROM genp")) ?? -1
        }
        #expect(count == 1)
    }
}

extension Result where Failure == KeychainError {
    var failureCode: KeychainError.Code? {
        if case .failure(let error) = self { return error.code }
        return nil
    }
}
