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
import KeychainServices
import KeychainTesting
import Testing

/// Primary keys, access groups, synchronizable, persistent references and result shapes.
@Suite struct ItemSemanticsTests {
    static func add(_ attributes: [String: Any]) -> OSStatus {
        SecItemAdd(attributes as CFDictionary, nil)
    }

    static func copy(_ query: [String: Any]) -> (OSStatus, CFTypeRef?) {
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result)
    }

    // MARK: Primary keys

    struct KeyCase: CustomTestStringConvertible, Sendable {
        let name: String
        let first: @Sendable () -> [String: Any]
        let second: @Sendable () -> [String: Any]
        let expected: OSStatus
        var testDescription: String { name }
    }

    static var genp: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s", kSecAttrAccount as String: "a"]
    }

    static var inet: [String: Any] {
        [
            kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
            kSecAttrAccount as String: "a", kSecAttrProtocol as String: kSecAttrProtocolHTTPS,
            kSecAttrPort as String: 443,
        ]
    }

    static var key: [String: Any] {
        [
            kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("tag".utf8),
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
        ]
    }

    static func changed(_ base: [String: Any], _ extra: [String: Any]) -> [String: Any] {
        base.merging(extra) { $1 }
    }

    static let keyCases: [KeyCase] = [
        KeyCase(
            name: "genp same key",
            first: { genp },
            second: { changed(genp, [kSecAttrLabel as String: "other"]) },
            expected: errSecDuplicateItem
        ),
        KeyCase(
            name: "genp other account",
            first: { genp },
            second: { changed(genp, [kSecAttrAccount as String: "b"]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "genp other service",
            first: { genp },
            second: { changed(genp, [kSecAttrService as String: "t"]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "genp other access group",
            first: { genp },
            second: { changed(genp, [kSecAttrAccessGroup as String: "second"]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "genp synchronizable is part of the key",
            first: { genp },
            second: { changed(genp, [kSecAttrSynchronizable as String: true]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "genp accessibility is not part of the key",
            first: { genp },
            second: { changed(genp, [kSecAttrAccessible as String: kSecAttrAccessibleAlways]) },
            expected: errSecDuplicateItem
        ),
        KeyCase(
            name: "genp missing account equals empty account",
            first: { [kSecClass as String: kSecClassGenericPassword] },
            second: { [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: ""] },
            expected: errSecDuplicateItem
        ),
        KeyCase(
            name: "genp account as data equals account as string",
            first: { genp },
            second: { changed(genp, [kSecAttrAccount as String: Data("a".utf8)]) },
            expected: errSecDuplicateItem
        ),
        KeyCase(
            name: "inet same key",
            first: { inet },
            second: { changed(inet, [kSecAttrComment as String: "c"]) },
            expected: errSecDuplicateItem
        ),
        KeyCase(
            name: "inet other port",
            first: { inet },
            second: { changed(inet, [kSecAttrPort as String: 8443]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "inet other protocol",
            first: { inet },
            second: { changed(inet, [kSecAttrProtocol as String: kSecAttrProtocolHTTP]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "inet other path",
            first: { inet },
            second: { changed(inet, [kSecAttrPath as String: "/x"]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "keys same key",
            first: { key },
            second: { changed(key, [kSecAttrLabel as String: "l"]) },
            expected: errSecDuplicateItem
        ),
        KeyCase(
            name: "keys other tag",
            first: { key },
            second: { changed(key, [kSecAttrApplicationTag as String: Data("t2".utf8)]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "keys other key class",
            first: { key },
            second: { changed(key, [kSecAttrKeyClass as String: kSecAttrKeyClassPublic]) },
            expected: errSecSuccess
        ),
        KeyCase(
            name: "classes are separate",
            first: { genp },
            second: { changed(inet, [kSecAttrServer as String: "s"]) },
            expected: errSecSuccess
        ),
    ]

    @Test("Primary keys decide errSecDuplicateItem", arguments: keyCases)
    func primaryKeysDecideDuplicates(_ testCase: KeyCase) throws {
        let keychain = try TemporaryKeychain(accessGroups: ["default", "second"])
        keychain.run {
            #expect(Self.add(testCase.first()) == errSecSuccess)
            #expect(Self.add(testCase.second()) == testCase.expected)
        }
    }

    @Test func updateThatCollidesIsErrSecDuplicateItemAndChangesNothing() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            #expect(Self.add(Self.changed(Self.genp, [kSecValueData as String: Data("1".utf8)])) == errSecSuccess)
            let second = Self.changed(
                Self.genp,
                [kSecAttrAccount as String: "b", kSecValueData as String: Data("2".utf8)]
            )
            #expect(Self.add(second) == errSecSuccess)
            let query = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "b"]
            let status = SecItemUpdate(query as CFDictionary, [kSecAttrAccount as String: "a"] as CFDictionary)
            #expect(status == errSecDuplicateItem)
            let (found, data) = Self.copy(Self.changed(query, [kSecReturnData as String: true]))
            #expect(found == errSecSuccess)
            #expect(data as? Data == Data("2".utf8))
        }
    }

    @Test func updateChangesEveryMatchAndTheModificationDate() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            for account in ["a", "b", "c"] {
                #expect(Self.add(Self.changed(Self.genp, [kSecAttrAccount as String: account])) == errSecSuccess)
            }
            let all = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s"]
            let (_, before) = Self.copy(
                Self.changed(all, [kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll])
            )
            #expect(
                SecItemUpdate(all as CFDictionary, [kSecAttrLabel as String: "relabelled"] as CFDictionary)
                    == errSecSuccess
            )
            let (_, after) = Self.copy(
                Self.changed(all, [kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll])
            )
            let items = try #require(after as? [[String: Any]])
            #expect(items.count == 3)
            #expect(items.allSatisfy { $0[kSecAttrLabel as String] as? String == "relabelled" })
            let created = (before as? [[String: Any]])?.compactMap { $0[kSecAttrCreationDate as String] as? Date }
            #expect(created == items.compactMap { $0[kSecAttrCreationDate as String] as? Date })
            #expect(
                items.allSatisfy {
                    ($0[kSecAttrModificationDate as String] as? Date ?? .distantPast)
                        >= ($0[kSecAttrCreationDate as String] as? Date ?? .distantFuture)
                }
            )
        }
    }

    // MARK: Synchronizable

    @Test func synchronizableDefaultsToFalseAndAnyMatchesBoth() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            #expect(Self.add(Self.genp) == errSecSuccess)
            #expect(Self.add(Self.changed(Self.genp, [kSecAttrSynchronizable as String: true])) == errSecSuccess)
            let base =
                [
                    kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                    kSecReturnAttributes as String: true,
                ] as [String: Any]
            #expect((Self.copy(base).1 as? [[String: Any]])?.count == 1)
            #expect(
                (Self.copy(Self.changed(base, [kSecAttrSynchronizable as String: true])).1 as? [[String: Any]])?.count
                    == 1
            )
            #expect(
                (Self.copy(Self.changed(base, [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny])).1
                    as? [[String: Any]])?.count == 2
            )
            #expect(
                SecItemDelete(
                    [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
                    ] as CFDictionary
                ) == errSecSuccess
            )
            #expect(
                Self.copy(Self.changed(base, [kSecAttrSynchronizable as String: kSecAttrSynchronizableAny])).0
                    == errSecItemNotFound
            )
        }
    }

    // MARK: Access groups

    @Test func accessGroupsScopeAddsAndSearches() throws {
        let keychain = try TemporaryKeychain(accessGroups: ["first", "second"])
        keychain.run {
            #expect(Self.add(Self.genp) == errSecSuccess)
            #expect(Self.add(Self.changed(Self.genp, [kSecAttrAccessGroup as String: "second"])) == errSecSuccess)
            #expect(
                Self.add(Self.changed(Self.genp, [kSecAttrAccessGroup as String: "third"])) == errSecMissingEntitlement
            )
            let (status, result) = Self.copy(
                Self.changed(
                    Self.genp,
                    [kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll]
                )
            )
            #expect(status == errSecSuccess)
            let groups = (result as? [[String: Any]])?.compactMap { $0[kSecAttrAccessGroup as String] as? String }
            #expect(groups == ["first", "second"])
        }
        // Another application with only "second" sees only that item.
        let other = try keychain.reopened(accessGroups: ["second"])
        Device.withCurrent(other) {
            let (_, result) = Self.copy(
                Self.changed(
                    Self.genp,
                    [kSecReturnAttributes as String: true, kSecMatchLimit as String: kSecMatchLimitAll]
                )
            )
            #expect(
                (result as? [[String: Any]])?.compactMap { $0[kSecAttrAccessGroup as String] as? String } == ["second"]
            )
            #expect(
                SecItemDelete(Self.changed(Self.genp, [kSecAttrAccessGroup as String: "first"]) as CFDictionary)
                    == errSecMissingEntitlement
            )
        }
    }

    // MARK: Results

    @Test func persistentReferenceFindsTheItemAgain() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            var result: CFTypeRef?
            let add = Self.changed(
                Self.genp,
                [kSecValueData as String: Data("v".utf8), kSecReturnPersistentRef as String: true]
            )
            #expect(SecItemAdd(add as CFDictionary, &result) == errSecSuccess)
            let reference = try #require(result as? Data)
            #expect(Self.add(Self.changed(Self.genp, [kSecAttrAccount as String: "other"])) == errSecSuccess)

            let (status, data) = Self.copy([
                kSecValuePersistentRef as String: reference, kSecReturnData as String: true,
            ])
            #expect(status == errSecSuccess)
            #expect(data as? Data == Data("v".utf8))
            #expect(
                SecItemDelete(
                    [kSecClass as String: kSecClassGenericPassword, kSecValuePersistentRef as String: reference]
                        as CFDictionary
                ) == errSecSuccess
            )
            #expect(Self.copy([kSecValuePersistentRef as String: reference]).0 == errSecItemNotFound)
            #expect(
                Self.copy([kSecClass as String: kSecClassInternetPassword, kSecValuePersistentRef as String: reference])
                    .0 == errSecNoSuchClass
            )
        }
    }

    @Test func combinedReturnKeysGiveADictionary() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            #expect(Self.add(Self.changed(Self.genp, [kSecValueData as String: Data("v".utf8)])) == errSecSuccess)
            let (status, result) = Self.copy(
                Self.changed(
                    Self.genp,
                    [
                        kSecReturnData as String: true, kSecReturnAttributes as String: true,
                        kSecReturnPersistentRef as String: true,
                    ]
                )
            )
            #expect(status == errSecSuccess)
            let dictionary = try #require(result as? [String: AnyHashable])
            #expect(dictionary[kSecValueData as String] as? Data == Data("v".utf8))
            #expect((dictionary[kSecValuePersistentRef as String] as? Data)?.count == 20)
            #expect(dictionary[kSecAttrAccount as String] as? String == "a")
            #expect(dictionary[kSecAttrAccessControl as String] is SecAccessControl)
        }
    }

    @Test func numericMatchLimitReturnsAtMostThatMany() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            for account in ["a", "b", "c", "d"] {
                #expect(Self.add(Self.changed(Self.genp, [kSecAttrAccount as String: account])) == errSecSuccess)
            }
            let base =
                [kSecClass as String: kSecClassGenericPassword, kSecReturnAttributes as String: true] as [String: Any]
            #expect((Self.copy(Self.changed(base, [kSecMatchLimit as String: 2])).1 as? [[String: Any]])?.count == 2)
            #expect(Self.copy(Self.changed(base, [kSecMatchLimit as String: 1])).1 is [String: Any])
            #expect(Self.copy(base).1 is [String: Any])
            #expect(
                (Self.copy(Self.changed(base, [kSecMatchLimit as String: kSecMatchLimitAll])).1 as? [[String: Any]])?
                    .count == 4
            )
        }
    }

    @Test func internetPasswordAttributesRoundTrip() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            #expect(
                Self.add(
                    Self.changed(
                        Self.inet,
                        [
                            kSecAttrPath as String: "/login",
                            kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeHTMLForm,
                        ]
                    )
                ) == errSecSuccess
            )
            let (status, result) = Self.copy([
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "example.com",
                kSecAttrProtocol as String: kSecAttrProtocolHTTPS, kSecReturnAttributes as String: true,
            ])
            #expect(status == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            #expect(attributes[kSecAttrProtocol as String] as? String == kSecAttrProtocolHTTPS as String)
            #expect(attributes[kSecAttrPort as String] as? Int == 443)
            #expect(attributes[kSecAttrPath as String] as? String == "/login")
            #expect(
                attributes[kSecAttrAuthenticationType as String] as? String == kSecAttrAuthenticationTypeHTMLForm
                    as String
            )
        }
    }

    @Test func certificateDefaultsToAlwaysAndKeysToWhenUnlocked() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            #expect(
                Self.add(Self.changed(Self.key, [kSecValueData as String: Data(repeating: 7, count: 32)]))
                    == errSecSuccess
            )
            let (_, result) = Self.copy(Self.changed(Self.key, [kSecReturnAttributes as String: true]))
            let attributes = try #require(result as? [String: Any])
            #expect(attributes[kSecAttrAccessible as String] as? String == "ak")
            #expect(attributes[kSecAttrKeyType as String] as? Int == 73)
            #expect(attributes[kSecAttrKeyClass as String] as? Int == 1)
        }
    }

    @Test func errorMessagesAreApples() {
        #expect(
            SecCopyErrorMessageString(errSecItemNotFound, nil) as String?
                == "The specified item could not be found in the keychain."
        )
        #expect(
            SecCopyErrorMessageString(errSecDuplicateItem, nil) as String?
                == "The specified item already exists in the keychain."
        )
    }
}
