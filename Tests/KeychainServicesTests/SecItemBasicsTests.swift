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

/// The everyday path: add, find, update, delete, through the public mirror API only.
@Suite struct SecItemBasicsTests {
    let keychain: TemporaryKeychain

    init() throws {
        keychain = try TemporaryKeychain()
    }

    private func password(_ service: String = "Example", account: String = "me") -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
    }

    @Test func addThenDuplicateReturnsErrSecDuplicateItem() throws {
        keychain.run {
            var add = password()
            add[kSecValueData as String] = Data("secret password".utf8)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecDuplicateItem)
        }
    }

    @Test func copyMatchingReturnsTheData() throws {
        keychain.run {
            var add = password()
            add[kSecValueData as String] = Data("secret password".utf8)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)

            var item: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Example",
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess)
            #expect(item as? Data == Data("secret password".utf8))
        }
    }

    @Test func updateChangesTheSecretAndDeleteRemovesIt() throws {
        keychain.run {
            var add = password()
            add[kSecValueData as String] = Data("old".utf8)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let update = [kSecValueData as String: Data("new".utf8)]
            #expect(SecItemUpdate(password() as CFDictionary, update as CFDictionary) == errSecSuccess)

            var query = password()
            query[kSecReturnData as String] = kCFBooleanTrue
            var item: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess)
            #expect(item as? Data == Data("new".utf8))

            #expect(SecItemDelete(password() as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecItemNotFound)
            #expect(SecItemDelete(password() as CFDictionary) == errSecItemNotFound)
        }
    }

    @Test func attributesComeBackAsADictionary() throws {
        try keychain.run {
            var add = password()
            add[kSecValueData as String] = Data("x".utf8)
            add[kSecAttrLabel as String] = "My label"
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)

            var query = password()
            query[kSecReturnAttributes as String] = true
            var item: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess)
            let attributes = try #require(item as? [String: Any])
            #expect(attributes[kSecAttrAccount as String] as? String == "me")
            #expect(attributes[kSecAttrService as String] as? String == "Example")
            #expect(attributes[kSecAttrLabel as String] as? String == "My label")
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleWhenUnlocked as String)
            #expect(attributes[kSecAttrAccessGroup as String] as? String == "default")
            #expect(attributes[kSecAttrCreationDate as String] is Date)
            #expect(attributes[kSecAttrModificationDate as String] is Date)
            #expect(attributes[kSecAttrSynchronizable as String] as? Bool == false)
            #expect(attributes[kSecValueData as String] == nil)
        }
    }

    @Test func matchLimitAllReturnsAnArrayOfDictionaries() throws {
        try keychain.run {
            for index in 0..<3 {
                var add = password(account: "user\(index)")
                add[kSecValueData as String] = Data("secret\(index)".utf8)
                #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            }
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Example",
                kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true,
                kSecReturnData as String: true,
            ]
            var items: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &items) == errSecSuccess)
            let array = try #require(items as? [[String: Any]])
            #expect(array.count == 3)
            let accounts = Set(array.compactMap { $0[kSecAttrAccount as String] as? String })
            #expect(accounts == ["user0", "user1", "user2"])
            #expect(array.allSatisfy { ($0[kSecValueData as String] as? Data)?.isEmpty == false })
        }
    }
}
