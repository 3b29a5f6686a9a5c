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
import Logging

/// `KEYCHAIN_TEST_PASSCODE_FILE`: a test run's processes start unlocked.
///
/// On a device a test runs while the phone is unlocked. A test process here starts locked when its
/// keychain has a passcode and no daemon holds it unlocked (`KEYCHAIN_ENGINE=embedded`, or a CI job
/// without a session); naming a file with the passcode in this variable makes the process's
/// default keychain unlock its own view when it opens, as `security unlock` would. It is for test
/// runs only and never a default: nothing happens unless the variable is set, and the file must be
/// a regular file of this user that nobody else can read (mode 0600 or 0400), else it is ignored
/// with a warning. The passcode's first line is used. It is not tried once a wrong passcode was
/// entered since the last unlock (a stale file would otherwise spend the back-off at every start).
/// With `securityd` this unlocks the session's keychain, as `security unlock` does.
package enum TestRunUnlock {
    package static let variable = "KEYCHAIN_TEST_PASSCODE_FILE"

    /// Unlocks `device`'s view for this process if the environment names a usable passcode file.
    package static func apply(to device: Device, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let path = environment[variable], !path.isEmpty else { return }
        let logger = device.configuration.logger
        guard var passcode = PrivateLineFile.firstLine(of: path) else {
            logger.warning("\(variable) is not a regular file of this user that only this user can read: ignored")
            return
        }
        defer { passcode.removeAll() }
        guard (try? device.hasPasscode()) == true, !device.isUnlocked else { return }
        // A stale file must not spend the back-off on every process start: after one refusal
        // (or while a wait is due) it is left alone until the passcode is entered by hand.
        guard let attempts = try? device.passcodeAttempts(), attempts.failures == 0, attempts.nextAttempt == nil else {
            logger.warning("\(variable): not tried, as a wrong passcode was entered since the last unlock")
            return
        }
        do {
            try device.unlockThisProcess(passcode: passcode)
        } catch {
            logger.warning("\(variable): the keychain stays locked (the passcode was refused)")
        }
    }
}
