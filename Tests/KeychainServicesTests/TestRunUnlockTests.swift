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

/// `KEYCHAIN_TEST_PASSCODE_FILE` opens a test process's keychain unlocked, only from a file
/// nobody else can read, and only when it is set.
@Suite struct TestRunUnlockTests {
    static func read(_ device: Device) -> OSStatus {
        Device.withCurrent(device) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "test-run",
                kSecReturnData as String: true,
            ]
            return SecItemCopyMatching(query as CFDictionary, nil)
        }
    }

    @Test func aPrivatePasscodeFileUnlocksANewProcessAndNothingElseDoes() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("2468")
        keychain.run {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "test-run",
                kSecValueData as String: Data("pw".utf8), kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlocked,
            ]
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
        }
        let file = keychain.directory.appendingPathComponent("passcode")
        let link = keychain.directory.appendingPathComponent("passcode-link")
        #expect(
            FileManager.default.createFile(
                atPath: file.path,
                contents: Data("2468\n".utf8),
                attributes: [.posixPermissions: 0o644]
            )
        )
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)

        // Each opening is a new process's view: locked, as the keychain has a passcode.
        var device = try keychain.reopened()
        TestRunUnlock.apply(to: device, environment: [:])
        #expect(Self.read(device) == errSecInteractionNotAllowed)
        // Others can read the file: ignored.
        TestRunUnlock.apply(to: device, environment: [TestRunUnlock.variable: file.path])
        #expect(Self.read(device) == errSecInteractionNotAllowed)

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        // A link to it: not followed.
        TestRunUnlock.apply(to: device, environment: [TestRunUnlock.variable: link.path])
        #expect(Self.read(device) == errSecInteractionNotAllowed)
        TestRunUnlock.apply(to: device, environment: [TestRunUnlock.variable: file.path])
        #expect(Self.read(device) == errSecSuccess)

        // A wrong passcode leaves it locked, and costs one attempt only: the file is not tried again.
        try Data("1357\n".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        device = try keychain.reopened()
        TestRunUnlock.apply(to: device, environment: [TestRunUnlock.variable: file.path])
        #expect(Self.read(device) == errSecInteractionNotAllowed)
        TestRunUnlock.apply(to: try keychain.reopened(), environment: [TestRunUnlock.variable: file.path])
        #expect(try device.passcodeAttempts().failures == 1)
        // Until the passcode is entered by hand; then a file with a Windows line end works.
        try Data("2468\r\n".utf8).write(to: file)
        try keychain.reopened().unlock(passcode: "2468")
        device = try keychain.reopened()
        TestRunUnlock.apply(to: device, environment: [TestRunUnlock.variable: file.path])
        #expect(Self.read(device) == errSecSuccess)
    }
}
