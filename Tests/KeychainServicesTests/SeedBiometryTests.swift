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
import LocalAuth
import Testing

/// The biometric scenarios of the seed articles (shared/reference/seeds), translated to Swift with
/// `import KeychainServices` and `import LocalAuth`, against a scripted sensor and passcode prompt.
@Suite struct SeedBiometryTests {
    static let group = "group.com.example.mygroup"

    // MARK: 000_a9311e81c7c60e0a.txt — "Protecting Data with Biometric Authentication"

    static func seed000Query(_ extra: [String: Any]) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Example",
            kSecAttrLabel as String: "com.example.mypassword",
            kSecAttrAccessGroup as String: group,
        ]
        query.merge(extra) { _, new in new }
        return query
    }

    /// "Using the Keychain": add with biometryAny (UI allowed), update, fetch with an operation
    /// prompt, delete; each read is one Touch ID match.
    @Test func seed000BiometryAnyAddUpdateFetchDelete() throws {
        let keychain = try TemporaryKeychain(
            accessGroups: [Self.group],
            passcode: "1234",
            biometry: .touchID,
            enrolled: ["thumb"]
        )
        try keychain.run {
            var error: Unmanaged<CFError>?
            let acl = try #require(
                SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault,
                    kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                    .biometryAny,
                    &error
                )
            )
            #expect(error == nil)
            let add = Self.seed000Query([
                kSecValueData as String: Data("secret password".utf8),
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIAllow,
                kSecAttrAccessControl as String: acl,
            ])
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            #expect(try keychain.sensor.queuedOutcomes().isEmpty)

            try keychain.queueBiometricOutcomes([.match])
            let update = Self.seed000Query([
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIAllow,
                kSecAttrAccessControl as String: acl,
            ])
            let change = [kSecValueData as String: Data("new secret password".utf8)]
            #expect(SecItemUpdate(update as CFDictionary, change as CFDictionary) == errSecSuccess)

            try keychain.queueBiometricOutcomes([.match])
            let fetch = Self.seed000Query([
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIAllow,
                kSecUseOperationPrompt as String: "Please authenticate to retrieve the password",
                kSecReturnData as String: kCFBooleanTrue as Any,
                kSecMatchLimit as String: kSecMatchLimitOne,
            ])
            var resultItem: CFTypeRef?
            #expect(SecItemCopyMatching(fetch as CFDictionary, &resultItem) == errSecSuccess)
            #expect((resultItem as? Data).flatMap { String(data: $0, encoding: .utf8) } == "new secret password")

            #expect(SecItemDelete(Self.seed000Query([:]) as CFDictionary) == errSecSuccess)
            #expect(SecCopyErrorMessageString(errSecItemNotFound, nil) != nil)
        }
    }

    /// "Using Local Authentication": the preflight, then the application-password examples:
    /// evaluateAccessControl(createItem) then add, evaluateAccessControl(useItem) then update,
    /// fetch and delete, all with one context holding the application password.
    @Test func seed000ApplicationPasswordWithBiometryAny() async throws {
        let keychain = try TemporaryKeychain(
            accessGroups: [Self.group],
            passcode: "1234",
            biometry: .touchID,
            enrolled: ["thumb"]
        )
        try await keychain.run {
            let preflight = LAContext()
            var preflightError: NSError?
            #expect(preflight.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &preflightError))
            #expect(preflightError == nil && preflight.biometryType == .touchID)

            let appPasswordData = Data("1234567890".utf8)
            let flags: SecAccessControlCreateFlags = [.biometryAny, .applicationPassword, .and]
            let acl = try #require(
                SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault,
                    kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                    flags,
                    nil
                )
            )

            let context = LAContext()
            context.setCredential(appPasswordData, type: .applicationPassword)
            #expect(
                try await context.evaluateAccessControl(
                    acl,
                    operation: .createItem,
                    localizedReason: "Please authenticate to save the password"
                )
            )
            let add = Self.seed000Query([
                kSecValueData as String: Data("secret password".utf8),
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUIAllow,
                kSecAttrAccessControl as String: acl,
                kSecUseAuthenticationContext as String: context,
            ])
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            #expect(try keychain.sensor.queuedOutcomes().isEmpty)

            let user = LAContext()
            user.setCredential(appPasswordData, type: .applicationPassword)
            try keychain.queueBiometricOutcomes([.match])
            #expect(
                try await user.evaluateAccessControl(
                    acl,
                    operation: .useItem,
                    localizedReason: "Please authenticate to update the password"
                )
            )
            let update = Self.seed000Query([
                kSecAttrAccessControl as String: acl, kSecUseAuthenticationContext as String: user,
            ])
            let change = [kSecValueData as String: Data("new secret password".utf8)]
            #expect(SecItemUpdate(update as CFDictionary, change as CFDictionary) == errSecSuccess)

            let fetch = Self.seed000Query([
                kSecUseOperationPrompt as String: "Please authenticate to retrieve the password",
                kSecReturnData as String: kCFBooleanTrue as Any,
                kSecMatchLimit as String: kSecMatchLimitOne,
                kSecUseAuthenticationContext as String: user,
            ])
            var resultItem: CFTypeRef?
            #expect(SecItemCopyMatching(fetch as CFDictionary, &resultItem) == errSecSuccess)
            #expect((resultItem as? Data).map { String(decoding: $0, as: UTF8.self) } == "new secret password")
            #expect(
                SecItemDelete(Self.seed000Query([kSecUseAuthenticationContext as String: user]) as CFDictionary)
                    == errSecSuccess
            )
        }
    }

    // MARK: 001_e20d10a3b02d258a.txt — "Biometry-protected entries in iOS keychain"

    enum BiometryState { case available, locked, notAvailable }

    static func biometryState() -> BiometryState {
        let authContext = LAContext()
        var error: NSError?
        let biometryAvailable = authContext.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error)
        if let laError = error as? LAError, laError.code == LAError.Code.biometryLockout {
            return .locked
        }
        return biometryAvailable ? .available : .notAvailable
    }

    /// The three states, a biometryCurrentSet entry read without and with a context, its status
    /// codes, the lockout undone by deviceOwnerAuthentication, and removal on re-enrolment.
    @Test func seed001BiometryStatesEntriesAndReEnrolment() async throws {
        let keychain = try TemporaryKeychain()
        try await keychain.run {
            #expect(Self.biometryState() == .notAvailable)
            try keychain.device.setPasscode("1234")
            try keychain.sensor.install(.faceID)
            #expect(Self.biometryState() == .notAvailable)  // nothing enrolled yet
            try keychain.sensor.enroll("face")
            #expect(Self.biometryState() == .available)

            let access = try #require(
                SecAccessControlCreateWithFlags(
                    nil,
                    kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                    .biometryCurrentSet,
                    nil
                )
            )
            let entry: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccount as String: "bioProtectedEntry",
                kSecAttrAccessControl as String: access,
                kSecValueData as String: Data("bio secret".utf8),
            ]
            #expect(SecItemAdd(entry as CFDictionary, nil) == errSecSuccess)

            func load(_ context: LAContext?) -> (OSStatus, String?) {
                var query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrAccount as String: "bioProtectedEntry",
                    kSecReturnData as String: true,
                    kSecUseOperationPrompt as String: "Access your data",
                ]
                if let context { query[kSecUseAuthenticationContext as String] = context }
                var result: CFTypeRef?
                let status = SecItemCopyMatching(query as CFDictionary, &result)
                return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
            }
            // First approach: no context; the call prompts.
            try keychain.queueBiometricOutcomes([.match])
            #expect(load(nil) == (noErr, "bio secret"))
            try keychain.queueBiometricOutcomes([.cancel])
            #expect(load(nil).0 == errSecUserCanceled)
            try keychain.queueBiometricOutcomes([.nonMatch])
            #expect(load(nil).0 == errSecAuthFailed)
            // Second approach: evaluateAccessControl, then the same context.
            let authContext = LAContext()
            try keychain.queueBiometricOutcomes([.match])
            #expect(
                try await authContext.evaluateAccessControl(
                    access,
                    operation: .useItem,
                    localizedReason: "Access your data"
                )
            )
            #expect(load(authContext) == (noErr, "bio secret"))

            // Locked after five failures in a row (the match above reset the count).
            try keychain.queueBiometricOutcomes(Array(repeating: .nonMatch, count: 5))
            for _ in 0..<5 { #expect(load(nil).0 == errSecAuthFailed) }
            #expect(Self.biometryState() == .locked)
            keychain.queuePasscodeReplies([.entered("1234")])
            let unlock = LAContext()
            #expect(try await unlock.evaluatePolicy(.deviceOwnerAuthentication, localizedReason: "Unlock biometry"))
            #expect(Self.biometryState() == .available)

            // A new face scan removes the entry.
            try keychain.sensor.remove("face")
            try keychain.sensor.enroll("face again")
            #expect(load(nil).0 == errSecItemNotFound)
        }
    }

    // MARK: 002_14288466e9231678.txt — Touch ID: LocalAuthentication and keychain access control

    /// Approach 1 (evaluatePolicy with a reply) and approach 2 (a userPresence item added with
    /// kSecUseNoAuthenticationUI, read with a prompt; the passcode when Touch ID is not available).
    @Test func seed002EvaluatePolicyAndUserPresenceItem() async throws {
        let keychain = try TemporaryKeychain(passcode: "1234", biometry: .touchID, enrolled: ["thumb"])
        try await keychain.run {
            let context = LAContext()
            var error: NSError?
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            try keychain.queueBiometricOutcomes([.match])
            let replied: (Bool, LAError.Code?) = await withCheckedContinuation { continuation in
                context.evaluatePolicy(
                    .deviceOwnerAuthenticationWithBiometrics,
                    localizedReason: "Please authenticate using TouchID."
                ) {
                    success,
                    error in continuation.resume(returning: (success, (error as? LAError)?.code))
                }
            }
            #expect(replied == (true, nil))

            var sacError: Unmanaged<CFError>?
            let sacRef = try #require(
                SecAccessControlCreateWithFlags(
                    kCFAllocatorDefault,
                    kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                    .userPresence,
                    &sacError
                )
            )
            let attributes = NSMutableDictionary(
                objects: [
                    kSecClassGenericPassword, "HEX_EXAMPLE_SERVICE", Data("sup3r_s3cur3_k3y".utf8),
                    kCFBooleanTrue as Any, sacRef,
                ],
                forKeys: [kSecClass, kSecAttrService, kSecValueData, kSecUseNoAuthenticationUI, kSecAttrAccessControl]
            )
            #expect(SecItemAdd(attributes, nil) == errSecSuccess)

            let query = NSMutableDictionary(
                objects: [
                    kSecClassGenericPassword, "HEX_EXAMPLE_SERVICE", kCFBooleanTrue as Any, kSecMatchLimitOne,
                    "Authenticate to unlock the key",
                ],
                forKeys: [kSecClass, kSecAttrService, kSecReturnData, kSecMatchLimit, kSecUseOperationPrompt]
            )
            var dataTypeRef: CFTypeRef?
            try keychain.queueBiometricOutcomes([.match])
            #expect(SecItemCopyMatching(query, &dataTypeRef) == errSecSuccess)
            #expect((dataTypeRef as? NSData).map { String(decoding: $0 as Data, as: UTF8.self) } == "sup3r_s3cur3_k3y")
            // "User will be asked for Touch ID or device passcode if Touch ID not available".
            try keychain.sensor.install(nil)
            keychain.queuePasscodeReplies([.entered("1234")])
            #expect(SecItemCopyMatching(query, &dataTypeRef) == errSecSuccess)
            // Removing the passcode destroys the item.
            try keychain.device.removePasscode(current: "1234")
            #expect(SecItemCopyMatching(query, &dataTypeRef) == errSecItemNotFound)
        }
    }

    // MARK: 003_144cf4ca6d291547.txt — "Biometry protection in iOS"

    /// Check Touch ID is enabled (not enrolled, enrolled, temporarily blocked), then store
    /// "top secret" with biometryCurrentSet and read it with a prompt; matching and non-matching.
    @Test func seed003CheckThenStoreAndRead() throws {
        let keychain = try TemporaryKeychain(passcode: "1234", biometry: .touchID)
        try keychain.run {
            let context = LAContext()
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect((error as? LAError)?.code == .biometryNotEnrolled)
            try keychain.sensor.enroll("thumb")
            #expect(LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil))

            let access = SecAccessControlCreateWithFlags(
                nil,
                kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                .biometryCurrentSet,
                nil
            )
            let secretData = "top secret".data(using: .utf8)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrAccessControl as String: access as Any,
                kSecValueData as String: secretData as Any,
            ]
            let status = SecItemAdd(query as CFDictionary, nil)
            #expect(status == errSecSuccess)

            let prompt = "Auth with biometry"
            let read: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecReturnData as String: true,
                kSecUseOperationPrompt as String: prompt,
            ]
            var data: CFTypeRef?
            try keychain.queueBiometricOutcomes([.nonMatch])
            #expect(SecItemCopyMatching(read as CFDictionary, &data) == errSecAuthFailed)
            try keychain.queueBiometricOutcomes([.match])
            #expect(SecItemCopyMatching(read as CFDictionary, &data) == errSecSuccess)
            guard let secretData = data as? Data, let secret = String(data: secretData, encoding: .utf8) else {
                Issue.record("no secret")
                return
            }
            #expect(secret == "top secret")
        }
    }

    // MARK: 004_c978234a2276d21f.txt — "Accessing Keychain Items with Face ID or Touch ID"

    /// userPresence on an internet password, a customized context (reuse duration 10 s), a read
    /// that returns attributes and data with the context's localizedReason, and a broad search
    /// that skips protected items with kSecUseAuthenticationUISkip.
    @Test func seed004UserPresenceInternetPassword() throws {
        let keychain = try TemporaryKeychain(passcode: "1234", biometry: .faceID, enrolled: ["face"])
        try keychain.run {
            let access = SecAccessControlCreateWithFlags(
                nil,
                kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                .userPresence,
                nil
            )
            let context = LAContext()
            context.touchIDAuthenticationAllowableReuseDuration = 10
            #expect(context.touchIDAuthenticationAllowableReuseDuration == 10)
            let account = "appleseed"
            let server = "www.example.com"
            let password = Data("hunter2".utf8)
            let add: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrAccount as String: account,
                kSecAttrServer as String: server,
                kSecAttrAccessControl as String: access as Any,
                kSecUseAuthenticationContext as String: context,
                kSecValueData as String: password,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)

            let reader = LAContext()
            reader.localizedReason = "Access your password on the keychain"
            let query: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword,
                kSecAttrServer as String: server,
                kSecMatchLimit as String: kSecMatchLimitOne,
                kSecReturnAttributes as String: true,
                kSecUseAuthenticationContext as String: reader,
                kSecReturnData as String: true,
            ]
            var item: CFTypeRef?
            try keychain.queueBiometricOutcomes([.match])
            #expect(SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess)
            let existingItem = try #require(item as? [String: Any])
            #expect(existingItem[kSecAttrAccount as String] as? String == account)
            #expect(existingItem[kSecValueData as String] as? Data == password)

            let broad: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword,
                kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip,
            ]
            #expect(SecItemCopyMatching(broad as CFDictionary, &item) == errSecItemNotFound)
            // Face ID fails, the person falls back to the passcode: userPresence accepts it.
            try keychain.queueBiometricOutcomes([.fallback])
            keychain.queuePasscodeReplies([.entered("1234")])
            var fresh = query
            fresh[kSecUseAuthenticationContext as String] = LAContext()
            #expect(SecItemCopyMatching(fresh as CFDictionary, &item) == errSecSuccess)
            #expect(try keychain.sensor.queuedOutcomes().isEmpty)
        }
    }
}
