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

/// `SecAccessControlCreateWithFlags` validation (apple-surface.md §1.6), table-driven.
@Suite struct AccessControlRulesTests {
    static let valid: [SecAccessControlCreateFlags] = [
        [], .userPresence, .biometryAny, .biometryCurrentSet, .devicePasscode, .applicationPassword,
        [.biometryAny, .devicePasscode, .or], [.biometryAny, .devicePasscode, .and],
        [.biometryAny, .devicePasscode, .and, .applicationPassword],
        [.userPresence, .applicationPassword, .privateKeyUsage], [.biometryCurrentSet, .devicePasscode],
    ]

    static let invalid: [SecAccessControlCreateFlags] = [
        [.or, .and, .biometryAny], [.biometryAny, .biometryCurrentSet], [.userPresence, .biometryAny],
        [.userPresence, .devicePasscode], [.userPresence, .or],
    ]

    @Test(arguments: valid)
    func validFlagsCreateAnAccessControl(flags: SecAccessControlCreateFlags) {
        var error: Unmanaged<CFError>?
        let access = SecAccessControlCreateWithFlags(
            nil,
            kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            flags,
            &error
        )
        #expect(access != nil)
        #expect(error == nil)
    }

    @Test(arguments: invalid)
    func invalidFlagsAreErrSecParam(flags: SecAccessControlCreateFlags) throws {
        var error: Unmanaged<CFError>?
        let access = SecAccessControlCreateWithFlags(kCFAllocatorDefault, kSecAttrAccessibleWhenUnlocked, flags, &error)
        #expect(access == nil)
        let cfError = try #require(error?.takeRetainedValue())
        #expect(CFErrorGetCode(cfError) == Int(errSecParam))
    }

    @Test func invalidProtectionIsErrSecParam() {
        #expect(SecAccessControlCreateWithFlags(nil, "nope" as CFTypeRef, [], nil) == nil)
        #expect(SecAccessControlCreateWithFlags(nil, NSNumber(value: 1), [], nil) == nil)
        #expect(SecAccessControlCreateWithFlags(nil, "ak" as CFTypeRef, [], nil) != nil)
    }

    @Test func flagsHaveApplesBits() {
        #expect(SecAccessControlCreateFlags.userPresence.rawValue == 1 << 0)
        #expect(SecAccessControlCreateFlags.biometryAny.rawValue == 1 << 1)
        #expect(SecAccessControlCreateFlags.biometryCurrentSet.rawValue == 1 << 3)
        #expect(SecAccessControlCreateFlags.devicePasscode.rawValue == 1 << 4)
        #expect(SecAccessControlCreateFlags.or.rawValue == 1 << 14)
        #expect(SecAccessControlCreateFlags.and.rawValue == 1 << 15)
        #expect(SecAccessControlCreateFlags.privateKeyUsage.rawValue == 1 << 30)
        #expect(SecAccessControlCreateFlags.applicationPassword.rawValue == 1 << 31)
        #expect(SecAccessControlCreateFlags(rawValue: CFOptionFlags(1 << 1)) == .biometryAny)
    }

    @Test func accessControlWithoutConstraintsSetsTheProtection() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAfterFirstUnlock, [], nil)
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: "acl",
                kSecAttrAccessControl as String: access as Any,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: "acl",
                kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [String: Any])?[kSecAttrAccessible as String] as? String == "ck")
            #expect((result as? [String: Any])?[kSecAttrAccessControl as String] as? SecAccessControl == access)
        }
    }

    /// What `SecItemAdd` answers for each constraint on devices of three kinds (apple-surface.md §1.4
    /// item 2: adding never prompts; a constraint the device cannot satisfy is refused).
    struct AddCase: Sendable, CustomStringConvertible {
        var flags: SecAccessControlCreateFlags
        var bare: OSStatus  // no passcode, no sensor
        var passcodeOnly: OSStatus  // passcode, nothing enrolled
        var enrolled: OSStatus  // passcode and an enrolled finger
        var description: String { "flags \(flags.rawValue)" }
    }

    static let addCases: [AddCase] = [
        AddCase(flags: [], bare: errSecSuccess, passcodeOnly: errSecSuccess, enrolled: errSecSuccess),
        // Private-key usage on a password: Apple's sec_acl_stress expects errSecAuthFailed, with or without a constraint.
        AddCase(
            flags: .privateKeyUsage,
            bare: errSecAuthFailed,
            passcodeOnly: errSecAuthFailed,
            enrolled: errSecAuthFailed
        ),
        AddCase(
            flags: [.devicePasscode, .privateKeyUsage],
            bare: errSecAuthFailed,
            passcodeOnly: errSecAuthFailed,
            enrolled: errSecAuthFailed
        ),
        AddCase(flags: .userPresence, bare: errSecAuthFailed, passcodeOnly: errSecSuccess, enrolled: errSecSuccess),
        AddCase(flags: .devicePasscode, bare: errSecAuthFailed, passcodeOnly: errSecSuccess, enrolled: errSecSuccess),
        AddCase(flags: .biometryAny, bare: errSecAuthFailed, passcodeOnly: errSecAuthFailed, enrolled: errSecSuccess),
        AddCase(
            flags: .biometryCurrentSet,
            bare: errSecAuthFailed,
            passcodeOnly: errSecAuthFailed,
            enrolled: errSecSuccess
        ),
        AddCase(
            flags: [.biometryCurrentSet, .or, .devicePasscode],
            bare: errSecAuthFailed,
            passcodeOnly: errSecSuccess,
            enrolled: errSecSuccess
        ),
        AddCase(
            flags: [.biometryAny, .and, .devicePasscode],
            bare: errSecAuthFailed,
            passcodeOnly: errSecAuthFailed,
            enrolled: errSecSuccess
        ),
        AddCase(flags: .companion, bare: errSecAuthFailed, passcodeOnly: errSecAuthFailed, enrolled: errSecAuthFailed),
        // No application password on the context and nobody to ask.
        AddCase(
            flags: .applicationPassword,
            bare: errSecInteractionNotAllowed,
            passcodeOnly: errSecInteractionNotAllowed,
            enrolled: errSecInteractionNotAllowed
        ),
    ]

    @Test(arguments: addCases)
    func addingAnItemWithConstraints(_ testCase: AddCase) throws {
        let devices: [(TemporaryKeychain, OSStatus)] = [
            (try TemporaryKeychain(), testCase.bare),
            (try TemporaryKeychain(passcode: "1234"), testCase.passcodeOnly),
            (try TemporaryKeychain(passcode: "1234", biometry: .touchID, enrolled: ["thumb"]), testCase.enrolled),
        ]
        for (keychain, expected) in devices {
            try keychain.run {
                let access = try #require(
                    SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, testCase.flags, nil)
                )
                let add: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccount as String: "acl",
                    kSecValueData as String: Data("secret".utf8),
                    kSecAttrAccessControl as String: access,
                ]
                #expect(SecItemAdd(add as CFDictionary, nil) == expected)
                // Adding never consumes a biometric outcome or a passcode prompt.
                #expect(try keychain.sensor.queuedOutcomes().isEmpty)
            }
        }
    }

    @Test func constraintsCannotBeSynchronizable() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        keychain.run {
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .devicePasscode, nil)
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccessControl as String: access as Any,
                kSecAttrSynchronizable as String: true,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecParam)
        }
    }
}
