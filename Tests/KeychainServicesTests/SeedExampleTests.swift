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

/// The plain add / update / fetch / delete examples of the seed articles (shared/reference/seeds),
/// ported to Swift without their access-control parts (which the access-control work covers).
@Suite struct SeedExampleTests {
    /// 000_a9311e81c7c60e0a.txt, "Keychain Basics": create, update, fetch and delete a generic
    /// password in an access group, with kSecUseAuthenticationUIAllow and an operation prompt.
    @Test func seed000KeychainBasicsCreateUpdateFetchDelete() throws {
        let keychain = try TemporaryKeychain(accessGroups: ["group.com.example.mygroup"])
        keychain.run {
            let passwordData = Data("example password".utf8)
            let create: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Example",
                kSecAttrLabel as String: "com.example.mypassword",
                kSecValueData as String: passwordData,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIAllow,
                kSecAttrAccessGroup as String: "group.com.example.mygroup",
                kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            ]
            #expect(SecItemAdd(create as CFDictionary, nil) == errSecSuccess)

            let match: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Example",
                kSecAttrLabel as String: "com.example.mypassword",
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIAllow,
                kSecAttrAccessGroup as String: "group.com.example.mygroup",
            ]
            let newPassword = Data("updated password".utf8)
            let change = [kSecValueData as String: newPassword]
            #expect(SecItemUpdate(match as CFDictionary, change as CFDictionary) == errSecSuccess)

            var fetch = match
            fetch[kSecUseOperationPrompt as String] = "Please authenticate to retrieve the password"
            fetch[kSecReturnData as String] = kCFBooleanTrue
            fetch[kSecMatchLimit as String] = kSecMatchLimitOne
            var resultItem: CFTypeRef?
            #expect(SecItemCopyMatching(fetch as CFDictionary, &resultItem) == errSecSuccess)
            #expect(resultItem as? Data == newPassword)

            let delete: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Example",
                kSecAttrAccessGroup as String: "group.com.example.mygroup",
                kSecAttrLabel as String: "com.example.mypassword",
            ]
            #expect(SecItemDelete(delete as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(fetch as CFDictionary, &resultItem) == errSecItemNotFound)
        }
    }

    /// 004_c978234a2276d21f.txt, "Accessing Keychain Items with Face ID or Touch ID": store an
    /// internet password for a server, then read account and password back in one query.
    @Test func seed004InternetPasswordStoreAndRead() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        try keychain.run {
            let account = "appleseed"
            let server = "www.example.com"
            let password = Data("swordfish".utf8)
            let query: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrAccount as String: account,
                kSecAttrServer as String: server,
                kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                kSecValueData as String: password,
            ]
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)

            let read: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrServer as String: server,
                kSecMatchLimit as String: kSecMatchLimitOne,
                kSecReturnAttributes as String: true,
                kSecReturnData as String: true,
            ]
            var item: CFTypeRef?
            #expect(SecItemCopyMatching(read as CFDictionary, &item) == errSecSuccess)
            let existingItem = try #require(item as? [String: Any])
            #expect(existingItem[kSecAttrAccount as String] as? String == account)
            #expect(existingItem[kSecValueData as String] as? Data == password)
        }
        // "any item already stored in the keychain with this level of accessibility becomes
        // unavailable if the user removes the passcode"
        try keychain.device.removePasscode(current: "1234")
        keychain.run {
            let read = [kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "www.example.com"]
            #expect(SecItemCopyMatching(read as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    /// 003_144cf4ca6d291547.txt: store "top secret" as generic password data and read it back as a string.
    @Test func seed003StoreAndReadASecretString() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            let secretData = "top secret".data(using: .utf8)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecValueData as String: secretData as Any,
            ]
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)
            var data: CFTypeRef?
            let read: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecReturnData as String: true,
                kSecUseOperationPrompt as String: "Auth with biometry",
            ]
            #expect(SecItemCopyMatching(read as CFDictionary, &data) == errSecSuccess)
            let secret = (data as? Data).flatMap { String(data: $0, encoding: .utf8) }
            #expect(secret == "top secret")
        }
    }

    /// 002_14288466e9231678.txt: a generic password added with kSecUseNoAuthenticationUI.
    @Test func seed002AddWithNoAuthenticationUI() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        keychain.run {
            let attributes: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "HEX_SERVICE",
                kSecValueData as String: Data("sup3r_s3cur3_k3y".utf8),
                kSecUseNoAuthenticationUI as String: true,
                kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            ]
            #expect(SecItemAdd(attributes as CFDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "HEX_SERVICE",
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("sup3r_s3cur3_k3y".utf8))
        }
    }
}
