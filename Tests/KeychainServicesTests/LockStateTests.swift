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

/// Lock states and the passcode, as on iOS.
@Suite struct LockStateTests {
    static func item(_ account: String, _ accessible: CFString) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "lock",
            kSecAttrAccount as String: account,
            kSecAttrAccessible as String: accessible,
        ]
    }

    static func read(_ account: String) -> (OSStatus, Data?) {
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: account,
            kSecReturnData as String: true,
        ]
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result as? Data)
    }

    static func add(_ account: String, _ accessible: CFString) -> OSStatus {
        var attributes = item(account, accessible)
        attributes[kSecValueData as String] = Data(account.utf8)
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    @Test func lockingHidesWhenUnlockedItemsButNotAfterFirstUnlockOrAlways() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        keychain.run {
            #expect(Self.add("a", kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
            #expect(Self.add("c", kSecAttrAccessibleAfterFirstUnlock) == errSecSuccess)
            #expect(Self.add("d", kSecAttrAccessibleAlways) == errSecSuccess)
            #expect(Self.add("aku", kSecAttrAccessibleWhenUnlockedThisDeviceOnly) == errSecSuccess)
        }
        try keychain.device.lock()
        keychain.run {
            #expect(Self.read("a").0 == errSecInteractionNotAllowed)
            #expect(Self.read("aku").0 == errSecInteractionNotAllowed)
            #expect(Self.read("c") == (errSecSuccess, Data("c".utf8)))
            #expect(Self.read("d") == (errSecSuccess, Data("d".utf8)))
            #expect(Self.add("a2", kSecAttrAccessibleWhenUnlocked) == errSecInteractionNotAllowed)
        }
        try keychain.device.unlock(passcode: "1234")
        keychain.run {
            #expect(Self.read("a") == (errSecSuccess, Data("a".utf8)))
        }
    }

    @Test func aNewProcessStartsBeforeFirstUnlock() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        keychain.run {
            #expect(Self.add("c", kSecAttrAccessibleAfterFirstUnlock) == errSecSuccess)
            #expect(Self.add("d", kSecAttrAccessibleAlwaysThisDeviceOnly) == errSecSuccess)
        }
        let otherProcess = try keychain.reopened()
        #expect(!otherProcess.isUnlocked)
        #expect(!otherProcess.hasBeenUnlocked)
        Device.withCurrent(otherProcess) {
            #expect(Self.read("c").0 == errSecInteractionNotAllowed)
            #expect(Self.read("d") == (errSecSuccess, Data("d".utf8)))
        }
        try otherProcess.unlock(passcode: "1234")
        try otherProcess.lock()
        Device.withCurrent(otherProcess) {
            #expect(Self.read("c") == (errSecSuccess, Data("c".utf8)))
        }
    }

    @Test func withoutAPasscodeTheKeychainNeverLocks() throws {
        let keychain = try TemporaryKeychain()
        keychain.run { #expect(Self.add("a", kSecAttrAccessibleWhenUnlocked) == errSecSuccess) }
        try keychain.device.lock()
        keychain.run { #expect(Self.read("a").0 == errSecSuccess) }
        #expect(try keychain.reopened().isUnlocked)
    }

    @Test func passcodeOnlyItemsNeedAPasscodeAndDieWithIt() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            #expect(Self.add("p", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly) == errSecNotAvailable)
        }
        try keychain.device.setPasscode("1234")
        keychain.run {
            #expect(Self.add("p", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly) == errSecSuccess)
            #expect(Self.add("a", kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
            #expect(Self.read("p") == (errSecSuccess, Data("p".utf8)))
        }
        try keychain.device.removePasscode(current: "1234")
        keychain.run {
            #expect(Self.read("p").0 == errSecItemNotFound)
            #expect(Self.read("a") == (errSecSuccess, Data("a".utf8)))
            #expect(Self.add("p", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly) == errSecNotAvailable)
        }
        // Apple's test: after a new passcode the old item is still gone; new adds succeed.
        try keychain.device.setPasscode("5678")
        keychain.run {
            #expect(Self.read("p").0 == errSecItemNotFound)
            #expect(Self.add("p", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly) == errSecSuccess)
        }
    }

    @Test func changingThePasscodeKeepsEveryItem() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1234")
        keychain.run {
            #expect(Self.add("a", kSecAttrAccessibleWhenUnlocked) == errSecSuccess)
            #expect(Self.add("p", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly) == errSecSuccess)
        }
        try keychain.device.changePasscode(from: "1234", to: "9876")
        let otherProcess = try keychain.reopened()
        #expect(throws: (any Error).self) { try otherProcess.unlock(passcode: "1234") }
        try otherProcess.unlock(passcode: "9876")
        Device.withCurrent(otherProcess) {
            #expect(Self.read("a") == (errSecSuccess, Data("a".utf8)))
            #expect(Self.read("p") == (errSecSuccess, Data("p".utf8)))
        }
    }

    @Test func wrongPasscodesFollowApplesBackoffAcrossProcesses() throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = MutableClock(now)
        let keychain = try TemporaryKeychain(clock: { clock.now })
        try keychain.device.setPasscode("1234")
        for attempt in 1...5 {
            #expect(throws: (any Error).self, "attempt \(attempt)") { try keychain.device.unlock(passcode: "0000") }
        }
        let attempts = try keychain.device.passcodeAttempts()
        #expect(attempts.failures == 5)
        #expect(attempts.nextAttempt == now.addingTimeInterval(60))
        // Even the right passcode is refused during the delay, and the refusal is not counted.
        #expect(throws: (any Error).self) { try keychain.device.unlock(passcode: "1234") }
        #expect(try keychain.device.passcodeAttempts().failures == 5)
        clock.now = now.addingTimeInterval(61)
        #expect(throws: (any Error).self) { try keychain.device.unlock(passcode: "0000") }
        #expect(try keychain.device.passcodeAttempts().nextAttempt == clock.now.addingTimeInterval(300))
        clock.now = clock.now.addingTimeInterval(301)
        try keychain.device.unlock(passcode: "1234")
        #expect(try keychain.device.passcodeAttempts().failures == 0)
    }
}

/// A clock a test moves by hand.
final class MutableClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Date

    init(_ start: Date) { value = start }

    var now: Date {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
