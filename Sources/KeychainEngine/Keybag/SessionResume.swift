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
import Foundation
import KeychainContract
import KeychainCore

/// What reopens a keychain when the login session that locked it unlocks, without the passcode:
/// the key derived from the passcode at the last unlock, as the Secure Enclave keeps what Touch ID
/// releases.
///
/// It is remembered at every unlock with the passcode (so never before the first one since the
/// process started), kept through a lock of the session for as long as that lock allows (at most
/// 48 hours, and never past six and a half days from the last passcode), and forgotten by any
/// other lock, by a passcode change or removal, when that time runs out (a timer, so that the key
/// does not outlive its use in memory), and when it no longer opens the keybag. It lives in the daemon's memory, beside the class keys it reopens: locked out
/// of swap where the daemon may lock memory, out of core dumps, readable by root.
final class SessionResume: Sendable {
    private struct Kept {
        var key: SymmetricKey
        /// The passcode salt of the keybag the key opened: a keybag with another salt (a new
        /// passcode) needs the passcode.
        var salt: Data?
        /// Until when a session lock lets it reopen the keychain; `nil` while unlocked.
        var reopensUntil: Date?
        /// When the passcode last unlocked: reopenings never take it past
        /// ``LoginEvent/passcodeLifetimeSeconds`` from then.
        var unlockedWithPasscode: Date
        /// Which lock this is, so that a timer of an earlier lock forgets nothing of a later one.
        var generation: UInt64
    }

    private let kept = LockedState<Kept?>(nil)
    private let generations = LockedState<UInt64>(0)
    /// Held across a lock, a session's lock and a reopening, so that a `security lock` between a
    /// reopening's look-up and its load cannot end unlocked.
    private let serial = NSLock()

    /// Runs `body` while no other lock, session lock or reopening runs.
    func serialized<T>(_ body: () throws(KeychainError) -> T) throws(KeychainError) -> T {
        serial.lock()
        defer { serial.unlock() }
        return try body()
    }

    /// Remembers the passcode key of an unlock with the passcode at `now`.
    func remember(_ key: SymmetricKey, salt: Data?, at now: Date) {
        let generation = nextGeneration()
        kept.withLock {
            $0 = Kept(key: key, salt: salt, reopensUntil: nil, unlockedWithPasscode: now, generation: generation)
        }
    }

    /// Notes that the key reopened the keychain: it is kept as after an unlock, with the time of
    /// the last unlock with the passcode unchanged.
    func noteReopened() {
        let generation = nextGeneration()
        kept.withLock { current in
            current?.reopensUntil = nil
            current?.generation = generation
        }
    }

    /// Forgets the key: only the passcode unlocks now.
    func forget() {
        kept.withLock { $0 = nil }
    }

    /// Keeps the key through a session lock until `deadline` (`now` plus at most 48 hours), and
    /// forgets it then; with no `deadline`, forgets it now.
    ///
    /// A lock while the session is locked already (sleep after the screen lock, a screen locker
    /// that reports its lock again) keeps the earlier deadline: locking again never extends it.
    /// `timer` is how long from now the key is erased from memory whatever the clock says (the
    /// daemon's clock may be a test's), in wall time, which runs on through a suspend.
    func keepThroughLock(until deadline: Date?, timer: Duration) {
        guard let deadline else { return forget() }
        let generation = nextGeneration()
        let keeps = kept.withLock { current -> Bool in
            guard let held = current, held.reopensUntil == nil else { return false }
            let lifetime = held.unlockedWithPasscode.addingTimeInterval(
                TimeInterval(LoginEvent.passcodeLifetimeSeconds)
            )
            current?.reopensUntil = min(deadline, lifetime)
            current?.generation = generation
            return true
        }
        guard keeps else { return }
        let seconds = Double(timer.components.seconds) + Double(timer.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(wallDeadline: .now() + max(0, seconds)) { [self] in
            kept.withLock { current in
                if current?.generation == generation { current = nil }
            }
        }
    }

    /// The key that reopens the keychain at `now` for a keybag whose passcode salt is `salt`.
    ///
    /// Only a key kept through a session lock whose time has not run out does; any other is
    /// forgotten.
    func key(at now: Date, salt: Data?) -> SymmetricKey? {
        kept.withLock { current in
            guard let held = current, let until = held.reopensUntil, now < until, held.salt == salt else {
                current = nil
                return nil
            }
            return held.key
        }
    }

    private func nextGeneration() -> UInt64 {
        generations.withLock { value in
            value &+= 1
            return value
        }
    }
}
