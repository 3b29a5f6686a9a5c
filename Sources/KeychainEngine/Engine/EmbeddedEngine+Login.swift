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
package import KeychainContract
package import KeychainCore

extension EmbeddedEngine {
    /// Takes what the login says (``LoginEvent``).
    ///
    /// A login password that is not the passcode changes nothing and is not counted: the PAM
    /// stack verified it as the login password, and a keychain whose passcode is another one is
    /// the user's choice. The back-off of earlier wrong passcodes still applies.
    package func login(_ event: LoginEvent) throws(KeychainError) -> LoginOutcome {
        let service = keychain.keybagService
        switch event {
        case .sessionOpened(let password, let setsFirstPasscode):
            guard try service.hasPasscode() else {
                guard setsFirstPasscode else { return .noPasscode }
                try service.setPasscode(password, current: nil)
                return .passcodeSet
            }
            if service.isUnlocked { return .alreadyUnlocked }
            // Longer than any passcode: it cannot be the passcode, and costs no KDF to say so.
            if password.utf8.count > KeybagService.maximumPasscodeLength { return .passcodeDiffers }
            do throws(KeychainError) {
                try service.unlock(passcode: password, endsBiometricLockout: true, countsWrongPasscode: false)
            } catch  where error.code == .authenticationFailed {
                return .passcodeDiffers
            }
            moveIntoTheTPMIfOneAppeared(passcode: password)
            return .unlocked
        case .passwordChanged(let old, let new):
            guard try service.hasPasscode(), old.utf8.count <= KeybagService.maximumPasscodeLength else {
                return .passcodeKept
            }
            do throws(KeychainError) {
                try service.setPasscode(new, current: old, countsWrongPasscode: false)
            } catch  where error.code == .authenticationFailed {
                return .passcodeKept
            }
            return .passcodeChanged
        case .sessionLocked(let seconds):
            guard try service.hasPasscode() else { return .noPasscode }
            let window = min(max(0, seconds), LoginEvent.longestWindowSeconds)
            try service.lockForSession(
                reopeningUntil: window > 0 ? keychain.clock().addingTimeInterval(TimeInterval(window)) : nil,
                timer: .seconds(window)
            )
            return .locked
        case .sessionUnlocked:
            guard try service.hasPasscode() else { return .noPasscode }
            if service.isUnlocked { return .alreadyUnlocked }
            return try service.reopenForSession(at: keychain.clock()) ? .reopened : .passcodeRequired
        }
    }
}
