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

/// Biometry-protected items operation by operation (apple-surface.md §1.4), with the simulated sensor.
@Suite struct BiometryTests {
    typealias Items = ProtectedItems

    static func enrolledKeychain() throws -> TemporaryKeychain {
        try TemporaryKeychain(passcode: "1234", biometry: .touchID, enrolled: ["right thumb"])
    }

    @Test func readingNeedsAMatchEveryTimeWithoutAContext() throws {
        let keychain = try Self.enrolledKeychain()
        try keychain.run {
            #expect(Items.add("a", flags: .biometryCurrentSet) == errSecSuccess)
            try keychain.queueBiometricOutcomes([.match])
            #expect(Items.read("a") == (errSecSuccess, "secret"))
            // The queue is empty and nobody can be asked: not interactive.
            #expect(Items.read("a").0 == errSecInteractionNotAllowed)
        }
    }

    /// The refusal says how to answer the simulated sensor (LAError's message is all a program sees).
    @Test func anEmptyQueueSaysHowToQueueAMatch() async throws {
        let keychain = try Self.enrolledKeychain()
        try await keychain.run {
            do {
                _ = try await LAContext().evaluatePolicy(
                    .deviceOwnerAuthenticationWithBiometrics,
                    localizedReason: "test"
                )
                Issue.record("an empty queue matched")
            } catch let error as LAError {
                #expect(error.code == .notInteractive)
                #expect(error.localizedDescription.contains("security biometry next match"))
            }
        }
    }

    @Test(arguments: [
        (SimulatedOutcome.nonMatch, errSecAuthFailed),
        (.cancel, errSecUserCanceled),
        (.fallback, errSecAuthFailed),  // biometry only: userFallback maps to errSecAuthFailed
    ])
    func failedEvaluationsMapToApplesStatus(outcome: SimulatedOutcome, status: OSStatus) throws {
        let keychain = try Self.enrolledKeychain()
        try keychain.run {
            #expect(Items.add("a", flags: .biometryAny) == errSecSuccess)
            try keychain.queueBiometricOutcomes([outcome])
            #expect(Items.read("a") == (status, nil))
        }
    }

    @Test func authenticationUIFailAndSkip() throws {
        let keychain = try Self.enrolledKeychain()
        try keychain.run {
            #expect(Items.add("protected", flags: .biometryAny) == errSecSuccess)
            #expect(Items.add("plain", flags: []) == errSecSuccess)
            try keychain.queueBiometricOutcomes([.match])
            #expect(
                Items.read("protected", extra: [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]).0
                    == errSecInteractionNotAllowed
            )
            #expect(
                Items.read("protected", extra: [kSecUseNoAuthenticationUI as String: true]).0
                    == errSecInteractionNotAllowed
            )
            // Attribute-only searches over protected items need authentication too; Skip leaves them out.
            #expect(
                Items.accounts(extra: [kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail]).0
                    == errSecInteractionNotAllowed
            )
            #expect(
                Items.accounts(extra: [kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]) == (
                    errSecSuccess, ["plain"]
                )
            )
            // None of that prompted: the queued match is still there.
            #expect(try keychain.sensor.queuedOutcomes() == [.match])
            #expect(Items.accounts() == (errSecSuccess, ["plain", "protected"]))
        }
    }

    @Test func deleteNeverPromptsUpdateDoes() throws {
        let keychain = try Self.enrolledKeychain()
        try keychain.run {
            #expect(Items.add("a", flags: .biometryAny) == errSecSuccess)
            #expect(Items.update("a", secret: "new").self == errSecInteractionNotAllowed)
            try keychain.queueBiometricOutcomes([.match])
            #expect(Items.update("a", secret: "new") == errSecSuccess)
            try keychain.queueBiometricOutcomes([.match])
            #expect(Items.read("a") == (errSecSuccess, "new"))
            #expect(Items.delete("a") == errSecSuccess)
            #expect(Items.read("a").0 == errSecItemNotFound)
        }
    }

    @Test func anEvaluatedContextReadsWithoutASecondPrompt() async throws {
        let keychain = try Self.enrolledKeychain()
        try await keychain.run {
            #expect(Items.add("a", flags: .biometryCurrentSet) == errSecSuccess)
            #expect(Items.add("b", flags: .biometryCurrentSet) == errSecSuccess)
            let access = try #require(
                SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .biometryCurrentSet, nil)
            )
            let context = LAContext()
            try keychain.queueBiometricOutcomes([.match])
            #expect(try await context.evaluateAccessControl(access, operation: .useItem, localizedReason: "read"))
            #expect(
                Items.read("a", extra: [kSecUseAuthenticationContext as String: context]) == (errSecSuccess, "secret")
            )
            #expect(
                Items.read("b", extra: [kSecUseAuthenticationContext as String: context]) == (errSecSuccess, "secret")
            )
            // An invalidated context is refused.
            context.invalidate()
            #expect(Items.read("a", extra: [kSecUseAuthenticationContext as String: context]).0 == errSecAuthFailed)
        }
    }

    @Test func aContextPassedToSecItemIsEvaluatedOnceAndReused() throws {
        let keychain = try Self.enrolledKeychain()
        try keychain.run {
            #expect(Items.add("a", flags: .biometryAny) == errSecSuccess)
            let context = LAContext()
            try keychain.queueBiometricOutcomes([.match])
            #expect(
                Items.read("a", extra: [kSecUseAuthenticationContext as String: context]) == (errSecSuccess, "secret")
            )
            #expect(
                Items.read("a", extra: [kSecUseAuthenticationContext as String: context]) == (errSecSuccess, "secret")
            )
            context.interactionNotAllowed = true
            #expect(
                Items.read("a", extra: [kSecUseAuthenticationContext as String: context]) == (errSecSuccess, "secret")
            )
            #expect(
                Items.read("a", extra: [kSecUseAuthenticationContext as String: LAContext()]).0
                    == errSecInteractionNotAllowed
            )
        }
    }

    @Test func fiveFailedMatchesLockBiometryUntilThePasscode() async throws {
        let keychain = try Self.enrolledKeychain()
        try await keychain.run {
            #expect(Items.add("a", flags: .biometryCurrentSet) == errSecSuccess)
            try keychain.queueBiometricOutcomes(Array(repeating: .nonMatch, count: 5))
            for _ in 0..<5 { #expect(Items.read("a").0 == errSecAuthFailed) }
            var error: NSError?
            #expect(!LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect((error as? LAError)?.code == .biometryLockout)
            try keychain.queueBiometricOutcomes([.match])
            #expect(Items.read("a").0 == errSecAuthFailed)  // locked out: the match is not even asked for
            // Across processes too.
            #expect(try keychain.reopened().biometryStatus().isLockedOut)
            // The passcode (deviceOwnerAuthentication falls back to it at lockout) ends the lockout.
            keychain.queuePasscodeReplies([.entered("1234")])
            #expect(await Items.evaluate(LAContext(), .deviceOwnerAuthentication) == nil)
            #expect(LAContext().canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: nil))
            #expect(Items.read("a") == (errSecSuccess, "secret"))
        }
    }

    @Test func reEnrollingInvalidatesCurrentSetItemsButNotAnyItems() throws {
        let keychain = try Self.enrolledKeychain()
        try keychain.run {
            #expect(Items.add("current", flags: .biometryCurrentSet) == errSecSuccess)
            #expect(Items.add("any", flags: .biometryAny) == errSecSuccess)
            #expect(Items.add("either", flags: [.biometryCurrentSet, .or, .devicePasscode]) == errSecSuccess)
            try keychain.sensor.enroll("left index")
            #expect(Items.read("current").0 == errSecItemNotFound)
            try keychain.queueBiometricOutcomes([.match])
            #expect(Items.read("any") == (errSecSuccess, "secret"))
            // The passcode alternative survives the new enrolment; only it is asked for.
            keychain.queuePasscodeReplies([.entered("1234")])
            #expect(Items.read("either") == (errSecSuccess, "secret"))
            #expect(try keychain.sensor.queuedOutcomes().isEmpty)
            // The invalidated item is gone: its primary key is free again.
            #expect(Items.add("current", flags: .biometryCurrentSet) == errSecSuccess)
            #expect(Items.add("any", flags: .biometryAny) == errSecDuplicateItem)
        }
    }

    @Test func removingThePasscodeDestroysPasscodeAndBiometryItems() throws {
        let keychain = try Self.enrolledKeychain()
        try keychain.run {
            #expect(Items.add("passcode", flags: .devicePasscode) == errSecSuccess)
            #expect(Items.add("presence", flags: .userPresence) == errSecSuccess)
            #expect(Items.add("plain", flags: []) == errSecSuccess)
            try keychain.device.removePasscode(current: "1234")
            try keychain.device.setPasscode("5678")
            keychain.queuePasscodeReplies([.entered("5678"), .entered("5678")])
            #expect(Items.read("passcode").0 == errSecItemNotFound)
            #expect(Items.read("presence").0 == errSecItemNotFound)
            #expect(Items.read("plain") == (errSecSuccess, "secret"))
        }
    }

    @Test func devicePasscodeItemsOpenWithThePasscodeOnly() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        try keychain.run {
            #expect(Items.add("a", flags: .devicePasscode) == errSecSuccess)
            keychain.queuePasscodeReplies([.entered("0000")])
            #expect(Items.read("a").0 == errSecAuthFailed)
            #expect(try keychain.device.passcodeAttempts().failures == 1)
            keychain.queuePasscodeReplies([.cancelled])
            #expect(Items.read("a").0 == errSecUserCanceled)
            keychain.queuePasscodeReplies([.entered("1234")])
            #expect(Items.read("a") == (errSecSuccess, "secret"))
            // Changing the passcode keeps the item readable with the new one.
            try keychain.device.changePasscode(from: "1234", to: "2468")
            keychain.queuePasscodeReplies([.entered("2468")])
            #expect(Items.read("a") == (errSecSuccess, "secret"))
        }
    }

    @Test func userPresenceFallsBackToThePasscodeWithoutBiometry() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        try keychain.run {
            #expect(
                Items.add("a", flags: .userPresence, protection: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly)
                    == errSecSuccess
            )
            keychain.queuePasscodeReplies([.entered("1234")])
            #expect(Items.read("a") == (errSecSuccess, "secret"))
            // Enrolling later: biometry now opens the same item (userPresence survives enrolment changes).
            try keychain.sensor.install(.faceID)
            try keychain.sensor.enroll("face")
            try keychain.queueBiometricOutcomes([.match])
            #expect(Items.read("a") == (errSecSuccess, "secret"))
        }
    }

    @Test func applicationPasswordIsNeededOnEveryPath() throws {
        let keychain = try Self.enrolledKeychain()
        try keychain.run {
            let context = LAContext()
            #expect(context.setCredential(Data("app-password".utf8), type: .applicationPassword))
            #expect(context.isCredentialSet(.applicationPassword))
            let flags: SecAccessControlCreateFlags = [.biometryAny, .applicationPassword, .and]
            #expect(
                Items.add("a", flags: flags, extra: [kSecUseAuthenticationContext as String: context]) == errSecSuccess
            )
            // A context with the wrong password cannot read it, even after a match.
            let wrong = LAContext()
            wrong.setCredential(Data("guess".utf8), type: .applicationPassword)
            try keychain.queueBiometricOutcomes([.match])
            #expect(Items.read("a", extra: [kSecUseAuthenticationContext as String: wrong]).0 == errSecAuthFailed)
            try keychain.queueBiometricOutcomes([.match])
            #expect(
                Items.read("a", extra: [kSecUseAuthenticationContext as String: context]) == (errSecSuccess, "secret")
            )
            // Without a credential, the password is asked for through the prompt.
            keychain.queuePasscodeReplies([.entered("app-password")])
            try keychain.queueBiometricOutcomes([.match])
            #expect(Items.read("a") == (errSecSuccess, "secret"))
        }
    }
}
