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

/// What a ``LoginEvent`` did to the keychain.
///
/// The raw values cross to the PAM module, which logs them: they never change meaning.
package enum LoginOutcome: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// The password was the passcode: the keychain is unlocked.
    case unlocked = 0
    /// The keychain was unlocked already: nothing was checked.
    case alreadyUnlocked = 1
    /// The keychain has no passcode, so nothing locks it: nothing was done.
    case noPasscode = 2
    /// The password is not the passcode: the keychain is as it was, and nothing was counted.
    case passcodeDiffers = 3
    /// The keychain had no passcode and took the login password as its passcode.
    case passcodeSet = 4
    /// The passcode was the old password and is the new one now.
    case passcodeChanged = 5
    /// The old password was not the passcode (or there is none): the passcode stays.
    case passcodeKept = 6
    /// The keychain locked with the session.
    case locked = 7
    /// The keychain reopened with the session.
    case reopened = 8
    /// The keychain stays locked: no unlock with the passcode since the daemon started, or the
    /// session was locked too long ago, or the keychain was locked by a request, not the session.
    case passcodeRequired = 9

    /// How the outcome reads in a log line.
    package var summary: String {
        switch self {
        case .unlocked: "the login password unlocked the keychain"
        case .alreadyUnlocked: "the keychain was unlocked already"
        case .noPasscode: "the keychain has no passcode"
        case .passcodeDiffers: "the login password is not the keychain's passcode; it stays locked"
        case .passcodeSet: "the keychain took the login password as its passcode"
        case .passcodeChanged: "the keychain's passcode follows the new login password"
        case .passcodeKept: "the old login password was not the keychain's passcode; the passcode stays"
        case .locked: "the keychain locked with the session"
        case .reopened: "the keychain reopened with the session"
        case .passcodeRequired: "the keychain needs the passcode to reopen"
        }
    }
}
