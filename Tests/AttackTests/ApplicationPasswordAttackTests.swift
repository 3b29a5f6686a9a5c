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
import KeychainTesting
import LocalAuth
import Testing

@testable import KeychainCore
@testable import KeychainDevice
@testable import KeychainEngine

/// Finding 2: application-password wrappings trusted the keybag's stored scrypt parameters, shared
/// one salt per keychain, and were stranded when the passcode's parameters changed.
@Suite struct ApplicationPasswordAttackTests {
    /// Two items sealed with an application password: the thief (who has the `dku` class key, as
    /// anyone with the files has) finds a salt per item and the standard cost in each; lowering one
    /// item's cost makes the engine refuse it instead of running a cheap derivation, and a guess
    /// against the other costs the full scrypt.
    @Test func eachWrappingHasItsOwnSaltAndCostAndLoweringItIsRefused() throws {
        let home = Attacker.newHome("app-password")
        defer { Attacker.remove(home) }
        let owner = try Keychain(directory: home, accessGroups: AccessGroups(["default", "*"]))
        var credentials = AuthenticationCredentials()
        credentials.applicationPassword = ApplicationPassword(Data("correct horse".utf8))
        for account in ["one", "two"] {
            let query = try QueryParser.parse(
                [
                    "class": "genp", "acct": account, "v_Data": Data("secret \(account)".utf8),
                    "accc": AccessControl(protection: .alwaysThisDeviceOnly, flags: AccessControl.applicationPassword),
                ],
                for: .add
            )
            try owner.add(query, credentials: credentials)
        }
        let rows = try Attacker.sql(home) { db in
            try Row.fetchAll(db, sql: "SELECT \(RowSQL.of(.genericPassword).columns) FROM genp ORDER BY rowid")
                .compactMap {
                    ItemRow(row: $0, schema: ItemSchema.of(.genericPassword))
                }
        }
        let classKey = try #require(owner.keybag.classKey(.alwaysThisDeviceOnly))
        let constraints = try rows.map { row in try Self.constraintEnvelope(of: row, classKey: classKey) }
        let parameters = try constraints.map { try #require($0.applicationPassword) }
        #expect(parameters[0].salt != parameters[1].salt)
        #expect(
            parameters.allSatisfy { $0.kdf == .standard && $0.salt.count == ApplicationPasswordParameters.saltLength }
        )

        // The thief lowers the first item's cost to N = 2 and seals the envelope again.
        var cheap = constraints[0]
        cheap.applicationPassword?.kdf = PasscodeKDF(rounds: 2, blockSize: 1, parallelism: 1)
        let binding = ItemCodec.binding(
            table: "genp",
            identifier: rows[0].identifier,
            protection: .alwaysThisDeviceOnly
        )
        let envelope = SecretKeyEnvelope.constrained(
            try AtRestCipher.seal(cheap.serialized, using: classKey, binding: binding("skey"))
        )
        try Attacker.sql(home) { db in
            try db.execute(
                sql: "UPDATE genp SET skey = ? WHERE rowid = ?",
                arguments: [envelope.serialized, rows[0].rowID]
            )
        }
        let reader = try Keychain(directory: home, accessGroups: AccessGroups(["*"]))
        // Refused before any derivation runs: the item counts as damaged (skipped, as Apple skips
        // an item it cannot decrypt).
        #expect(Self.read("one", in: reader, credentials: credentials).failure?.code == .itemNotFound)
        let tampered = try Attacker.sql(home) { db in
            try Row.fetchOne(db, sql: "SELECT \(RowSQL.of(.genericPassword).columns) FROM genp ORDER BY rowid LIMIT 1")
                .flatMap { ItemRow(row: $0, schema: ItemSchema.of(.genericPassword)) }
        }
        let row = try #require(tampered)
        let opened = Result { () throws(KeychainError) in
            try reader.codec.openSecret(
                row,
                item: try reader.codec.openMetadata(row, itemClass: .genericPassword),
                credentials: credentials
            )
        }
        #expect(opened.failure?.code == .decode)
        #expect(opened.failure?.message.contains("below the accepted cost") == true)

        // A guess against the other item costs the stored, standard scrypt.
        var guess = AuthenticationCredentials()
        guess.applicationPassword = ApplicationPassword(Data("battery staple".utf8))
        let start = ContinuousClock.now
        #expect(Self.read("two", in: reader, credentials: guess).failure?.code == .authenticationFailed)
        #expect(ContinuousClock.now - start > .milliseconds(20))
        #expect(try Self.read("two", in: reader, credentials: credentials).get() == Data("secret two".utf8))
    }

    /// Setting and changing the passcode (with another cost) never strands an application-password item.
    @Test func passcodeChangesNeverStrandAnItem() async throws {
        let keychain = try TemporaryKeychain()
        let access = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, .applicationPassword, nil)
        )
        let context = LAContext()
        #expect(context.setCredential(Data("app secret".utf8), type: .applicationPassword))
        keychain.run {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "stays",
                kSecAttrAccessControl as String: access, kSecUseAuthenticationContext as String: context,
                kSecValueData as String: Data("kept".utf8),
            ]
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
        }
        try keychain.device.setPasscode("1234")
        try keychain.device.changePasscode(from: "1234", to: "5678")
        let reader = LAContext()
        #expect(reader.setCredential(Data("app secret".utf8), type: .applicationPassword))
        keychain.run {
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "stays",
                kSecUseAuthenticationContext as String: reader, kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("kept".utf8))
        }
    }

    // MARK: Helpers

    static func constraintEnvelope(of row: ItemRow, classKey: SymmetricKey) throws -> ConstraintEnvelope {
        let binding = ItemCodec.binding(table: "genp", identifier: row.identifier, protection: .alwaysThisDeviceOnly)
        guard case .constrained(let sealed) = try SecretKeyEnvelope(serialized: row.secretKeyEnvelope) else {
            throw KeychainError(.decode, "not sealed to constraints")
        }
        return try ConstraintEnvelope(
            serialized: try AtRestCipher.open(sealed, using: classKey, binding: binding("skey"))
        )
    }

    static func read(
        _ account: String,
        in keychain: Keychain,
        credentials: AuthenticationCredentials
    ) -> Result<Data?, KeychainError> {
        Result { () throws(KeychainError) in
            let query = try QueryParser.parse(["class": "genp", "acct": account, "r_Data": true], for: .copyMatching)
            return try keychain.search(query, credentials: credentials).first?.data
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
