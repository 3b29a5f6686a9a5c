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

import Crypto
package import Foundation
package import KeychainCore

extension KeybagService {
    // MARK: The login session

    /// Locks the keychain because its login session locked, keeping what reopens it at the
    /// session's unlock until `deadline` (none: only the passcode reopens it).
    ///
    /// `timer` is how long from now that is forgotten from memory in any case.
    package func lockForSession(reopeningUntil deadline: Date?, timer: Duration) throws(KeychainError) {
        guard try hasPasscode() else { return }
        try sessionResume.serialized { () -> Void in
            keybag.lock()
            sessionResume.keepThroughLock(until: deadline, timer: timer)
        }
    }

    /// Reopens the keychain because its login session unlocked; whether it did.
    ///
    /// It does when the session's lock kept the key of an unlock with the passcode, its time has
    /// not run out at `now`, and the keybag still opens with it (the passcode did not change).
    package func reopenForSession(at now: Date) throws(KeychainError) -> Bool {
        try sessionResume.serialized { () throws(KeychainError) -> Bool in try reopen(at: now) }
    }

    private func reopen(at now: Date) throws(KeychainError) -> Bool {
        let stored = try currentStored()
        guard stored.record.hasPasscode, let key = sessionResume.key(at: now, salt: stored.record.passcodeSalt) else {
            return false
        }
        do throws(KeychainError) {
            try load(passcodeKey: key, checkedAgainst: stored)
        } catch {
            sessionResume.forget()
            if error.code == .authenticationFailed { return false }
            throw error
        }
        sessionResume.noteReopened()
        return true
    }
}
