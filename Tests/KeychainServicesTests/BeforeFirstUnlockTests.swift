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

/// Before the first unlock a process cannot tell passcode-protected items apart (their look-up
/// hashes use a key the passcode guards): what it cannot rule out, it reports as locked.
@Suite struct BeforeFirstUnlockTests {
    static func search(_ account: String, limitAll: Bool, accessible: CFString? = nil) -> (OSStatus, Int) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: account,
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: limitAll ? kSecMatchLimitAll : kSecMatchLimitOne,
        ]
        query[kSecAttrAccessible as String] = accessible
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        let count = (result as? [Any])?.count ?? (result == nil ? 0 : 1)
        return (status, count)
    }

    static func delete(_ account: String, accessible: CFString? = nil) -> OSStatus {
        var query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
        query[kSecAttrAccessible as String] = accessible
        return SecItemDelete(query as CFDictionary)
    }

    static func update(_ account: String, to changes: [String: Any]) -> OSStatus {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account]
        return SecItemUpdate(query as CFDictionary, changes as CFDictionary)
    }

    @Test func whatCannotBeRuledOutIsReportedAsLocked() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        keychain.run {
            #expect(LockStateTests.add("c", kSecAttrAccessibleAfterFirstUnlock) == errSecSuccess)
            #expect(LockStateTests.add("d", kSecAttrAccessibleAlwaysThisDeviceOnly) == errSecSuccess)
        }
        let otherProcess = try keychain.reopened()
        Device.withCurrent(otherProcess) {
            // One item asked for, one found among the readable ones: no need to look further.
            #expect(Self.search("d", limitAll: false) == (errSecSuccess, 1))
            // All of them: a protected item might match too.
            #expect(Self.search("d", limitAll: true).0 == errSecInteractionNotAllowed)
            #expect(Self.search("nobody", limitAll: false).0 == errSecInteractionNotAllowed)
            // Naming a class that stays readable rules the protected ones out.
            #expect(
                Self.search("d", limitAll: true, accessible: kSecAttrAccessibleAlwaysThisDeviceOnly) == (
                    errSecSuccess, 1
                )
            )
            #expect(Self.search("nobody", limitAll: true, accessible: kSecAttrAccessibleAlways).0 == errSecItemNotFound)
            // A delete that cannot see every match deletes nothing.
            #expect(Self.delete("d") == errSecInteractionNotAllowed)
            #expect(Self.search("d", limitAll: false) == (errSecSuccess, 1))
            #expect(Self.delete("d", accessible: kSecAttrAccessibleAlwaysThisDeviceOnly) == errSecSuccess)
        }
        try otherProcess.unlock(passcode: "1234")
        Device.withCurrent(otherProcess) {
            #expect(Self.search("c", limitAll: true) == (errSecSuccess, 1))
            #expect(Self.search("d", limitAll: true).0 == errSecItemNotFound)
        }
    }

    @Test func primaryKeysStayUniqueAcrossClasses() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        keychain.run {
            #expect(LockStateTests.add("x", kSecAttrAccessibleAfterFirstUnlock) == errSecSuccess)
        }
        let otherProcess = try keychain.reopened()
        Device.withCurrent(otherProcess) {
            // The protected "x" cannot be ruled out: refused rather than duplicated.
            #expect(LockStateTests.add("x", kSecAttrAccessibleAlwaysThisDeviceOnly) == errSecInteractionNotAllowed)
        }
        try otherProcess.unlock(passcode: "1234")
        Device.withCurrent(otherProcess) {
            // Apple's primary key leaves the class out: the same service and account is a duplicate.
            #expect(LockStateTests.add("x", kSecAttrAccessibleAlwaysThisDeviceOnly) == errSecDuplicateItem)
            #expect(LockStateTests.add("y", kSecAttrAccessibleAlwaysThisDeviceOnly) == errSecSuccess)
            #expect(Self.update("y", to: [kSecAttrAccount as String: "x"]) == errSecDuplicateItem)
            #expect(LockStateTests.add("y", kSecAttrAccessibleWhenUnlocked) == errSecDuplicateItem)
            // Moving an item to another class keeps its own key free for it.
            #expect(Self.update("x", to: [kSecAttrAccessible as String: kSecAttrAccessibleAlways]) == errSecSuccess)
            #expect(
                Self.update("x", to: [kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked]) == errSecSuccess
            )
            #expect(Self.search("x", limitAll: true) == (errSecSuccess, 1))
            #expect(Self.search("y", limitAll: true) == (errSecSuccess, 1))
        }
    }
}
