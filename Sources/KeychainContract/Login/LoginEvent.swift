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

/// What the login tells a keychain: a session opened with a password, a password changed, the
/// session locked or unlocked.
///
/// The first two come from the PAM module `pam_swift_keychain.so`, inside `login`, `gdm`, `sshd`
/// or `su`, which runs as root: `securityd` takes them only from a client running as root (a guess
/// handed in this way is not counted, so a program of the user must not be able to make one).
/// The last two come from systemd-logind, which the daemon watches itself.
package enum LoginEvent: Sendable, Hashable, Codable {
    /// A session opened with `password`, the one the PAM stack verified: it unlocks the keychain
    /// when it is the passcode, and does nothing otherwise (not counted as a wrong passcode).
    ///
    /// With `setsFirstPasscode`, a keychain without a passcode takes `password` as its passcode,
    /// as macOS makes the login keychain with the login password.
    case sessionOpened(password: String, setsFirstPasscode: Bool)
    /// The login password changed from `old` to `new`: the passcode follows when it was `old`.
    case passwordChanged(old: String, new: String)
    /// The login session locked (or the machine went to sleep): the keychain locks, and for
    /// `reopensWithinSeconds` (at most ``longestWindowSeconds``; none with 0) keeps what reopens it
    /// when the session unlocks.
    case sessionLocked(reopensWithinSeconds: Int)
    /// The login session unlocked, by whatever method its screen locker took (a password, a
    /// finger): the keychain reopens when it locked with the session within the time that lock
    /// allowed, and the passcode unlocked it since the daemon started (Apple's rule for Touch ID:
    /// the passcode after a restart, and after 48 hours).
    case sessionUnlocked

    /// The longest time a locked session may reopen the keychain without the passcode (48 hours).
    package static let longestWindowSeconds = 48 * 3600

    /// How long after the last unlock with the passcode the session's unlocks may reopen the
    /// keychain at all, however often they do (Apple's six and a half days for Face ID).
    package static let passcodeLifetimeSeconds = 156 * 3600

    /// Whether the event carries a password, which only the login (root) may hand in.
    package var carriesPassword: Bool {
        switch self {
        case .sessionOpened, .passwordChanged: true
        case .sessionLocked, .sessionUnlocked: false
        }
    }
}
