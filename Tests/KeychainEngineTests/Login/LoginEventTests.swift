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
import KeychainContract
import KeychainCore
import KeychainServices
import KeychainTesting
import Testing

/// What the login tells the engine (``LoginEvent``): a login password unlocks or follows a change
/// only when it is the passcode, and is never counted as a wrong one; a session lock keeps what
/// reopens the keychain for at most 48 hours of a clock the test moves (issue 39).
///
/// Through the engine's protocol, so that `KEYCHAIN_ENGINE=loopback` also carries every event and
/// outcome through the wire format.
struct LoginEventTests {
    static let passcode = "Corr3ct-Horse-Battery"

    @Test func aLoginPasswordUnlocksOnlyWhenItIsThePasscodeAndIsNeverCounted() throws {
        let keychain = try TemporaryKeychain(passcode: Self.passcode)
        let engine = keychain.device.engine
        try engine.lock()
        #expect(
            try engine.login(.sessionOpened(password: "not-the-passcode", setsFirstPasscode: false)) == .passcodeDiffers
        )
        #expect(
            try engine.login(.sessionOpened(password: String(repeating: "x", count: 1500), setsFirstPasscode: false))
                == .passcodeDiffers
        )
        #expect(try engine.lockState().failedAttempts == 0)
        #expect(try engine.isLocked())
        // As many as a brute force would take, none counted, none delayed: only root may send them
        // (the daemon's tests), so that nobody else can guess this way.
        for _ in 0..<6 {
            #expect(try engine.login(.sessionOpened(password: "0000", setsFirstPasscode: true)) == .passcodeDiffers)
        }
        #expect(try engine.lockState().failedAttempts == 0)
        #expect(try engine.login(.sessionOpened(password: Self.passcode, setsFirstPasscode: false)) == .unlocked)
        #expect(try !engine.isLocked())
        #expect(try engine.login(.sessionOpened(password: "whatever", setsFirstPasscode: false)) == .alreadyUnlocked)
    }

    @Test func aRightLoginPasswordClearsEarlierWrongPasscodesAndAWrongOneWaitsOutTheBackOff() throws {
        let clock = TestClock()
        let keychain = try TemporaryKeychain(passcode: Self.passcode, clock: { clock.now })
        let engine = keychain.device.engine
        try engine.lock()
        for _ in 0..<5 {
            #expect(throws: KeychainError.self) { try engine.unlock(passcode: "wrong", endsBiometricLockout: true) }
        }
        #expect(try engine.lockState().failedAttempts == 5)
        // The back-off holds for the login as for anyone: the login proceeds, the keychain stays locked.
        #expect(throws: KeychainError.self) {
            _ = try engine.login(.sessionOpened(password: Self.passcode, setsFirstPasscode: false))
        }
        clock.advance(61)
        #expect(try engine.login(.sessionOpened(password: Self.passcode, setsFirstPasscode: false)) == .unlocked)
        #expect(try engine.lockState().failedAttempts == 0)
    }

    @Test func thePasscodeFollowsAPasswordChangeFromThePasscode() throws {
        let keychain = try TemporaryKeychain(passcode: Self.passcode)
        let engine = keychain.device.engine
        keychain.run {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Login",
                kSecValueData as String: Data("kept".utf8),
            ]
            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
        }
        #expect(try engine.login(.passwordChanged(old: "not-it", new: "N3w-Password")) == .passcodeKept)
        #expect(try engine.lockState().failedAttempts == 0)
        #expect(try engine.login(.passwordChanged(old: Self.passcode, new: "N3w-Password")) == .passcodeChanged)
        try engine.lock()
        #expect(throws: KeychainError.self) { try engine.unlock(passcode: Self.passcode, endsBiometricLockout: true) }
        try engine.unlock(passcode: "N3w-Password", endsBiometricLockout: true)
        keychain.run {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Login",
                kSecReturnData as String: true,
            ]
            var found: AnyObject?
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            #expect((found as? Data) == Data("kept".utf8))
        }
        // Too short to be a passcode: refused, the passcode stays.
        #expect(throws: KeychainError.self) {
            _ = try engine.login(.passwordChanged(old: "N3w-Password", new: "abc"))
        }
    }

    @Test func aFirstLoginSetsThePasscodeOnlyWhenAsked() throws {
        let keychain = try TemporaryKeychain()
        let engine = keychain.device.engine
        #expect(try engine.login(.sessionOpened(password: Self.passcode, setsFirstPasscode: false)) == .noPasscode)
        #expect(try !engine.lockState().hasPasscode)
        #expect(try engine.login(.sessionOpened(password: Self.passcode, setsFirstPasscode: true)) == .passcodeSet)
        #expect(try engine.lockState().hasPasscode)
        try engine.lock()
        #expect(try engine.login(.sessionOpened(password: Self.passcode, setsFirstPasscode: true)) == .unlocked)
    }

    @Test func aSessionLockReopensForAtMost48HoursOfTheClock() throws {
        let clock = TestClock()
        let keychain = try TemporaryKeychain(passcode: Self.passcode, clock: { clock.now })
        let reopened = try keychain.reopened()
        let engine = reopened.engine
        let window = LoginEvent.longestWindowSeconds
        // A fresh process (the analogue of a boot) has no unlock to reopen with.
        #expect(try engine.login(.sessionLocked(reopensWithinSeconds: window)) == .locked)
        #expect(try engine.login(.sessionUnlocked) == .passcodeRequired)

        try engine.unlock(passcode: Self.passcode, endsBiometricLockout: true)
        #expect(try engine.login(.sessionLocked(reopensWithinSeconds: window)) == .locked)
        #expect(try engine.isLocked())
        clock.advance(TimeInterval(window - 60))
        #expect(try engine.login(.sessionUnlocked) == .reopened)
        #expect(try !engine.isLocked())

        // Past 48 hours of lock: the passcode.
        #expect(try engine.login(.sessionLocked(reopensWithinSeconds: window)) == .locked)
        clock.advance(TimeInterval(window + 1))
        #expect(try engine.login(.sessionUnlocked) == .passcodeRequired)
        try engine.unlock(passcode: Self.passcode, endsBiometricLockout: true)

        // Locking again while locked (sleep after the screen lock) never extends the time.
        #expect(try engine.login(.sessionLocked(reopensWithinSeconds: window)) == .locked)
        clock.advance(TimeInterval(window - 3600))
        #expect(try engine.login(.sessionLocked(reopensWithinSeconds: window)) == .locked)
        clock.advance(7200)
        #expect(try engine.login(.sessionUnlocked) == .passcodeRequired)
        try engine.unlock(passcode: Self.passcode, endsBiometricLockout: true)

        // Reopened again and again (a finger every day), the key still ends six and a half days after
        // the passcode was last entered (Apple's rule for Face ID).
        try engine.unlock(passcode: Self.passcode, endsBiometricLockout: true)
        for _ in 0..<6 {
            #expect(try engine.login(.sessionLocked(reopensWithinSeconds: window)) == .locked)
            clock.advance(24 * 3600)
            #expect(try engine.login(.sessionUnlocked) == .reopened)
        }
        #expect(try engine.login(.sessionLocked(reopensWithinSeconds: window)) == .locked)
        clock.advance(13 * 3600)
        #expect(try engine.login(.sessionUnlocked) == .passcodeRequired)
        try engine.unlock(passcode: Self.passcode, endsBiometricLockout: true)

        // A lock asks for more than 48 hours: it gets 48.
        #expect(try engine.login(.sessionLocked(reopensWithinSeconds: 10 * window)) == .locked)
        clock.advance(TimeInterval(window + 1))
        #expect(try engine.login(.sessionUnlocked) == .passcodeRequired)
        try engine.unlock(passcode: Self.passcode, endsBiometricLockout: true)

        // A passcode changed by another process while locked: the kept key opens nothing.
        #expect(try engine.login(.sessionLocked(reopensWithinSeconds: window)) == .locked)
        try keychain.device.engine.setPasscode("An0ther-Passcode", current: Self.passcode, progress: nil)
        #expect(try engine.login(.sessionUnlocked) == .passcodeRequired)
        #expect(try engine.isLocked())
    }
}
