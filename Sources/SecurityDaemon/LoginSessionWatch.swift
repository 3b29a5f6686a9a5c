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
import Logging
import ServiceLifecycle

/// Locks the keychain when the user's login session locks or the machine goes to sleep, as a
/// phone's keychain locks with its screen, and reopens it when the session unlocks, as Touch ID
/// reopens a Mac's: the `WhenUnlocked` classes are unreadable for every process in between.
///
/// systemd-logind asks a session to lock (`loginctl lock-session`, `lock-sessions`, idle and lid
/// policies) with the `Lock` signal on the session's object and to unlock with `Unlock`; screen
/// lockers report a lock and an unlock by setting the session's `LockedHint`; logind announces
/// sleep with `PrepareForSleep(true)`. The watch follows all of them on the system bus, and only
/// the bus name `org.freedesktop.login1`, which only logind (root) may own on a system bus. A
/// request for another user's session changes nothing of this user's.
///
/// A lock keeps what reopens the keychain for ``reopenWindow`` (48 hours at most), and only
/// after an unlock with the passcode since the daemon started (``LoginEvent``): a restart, an
/// explicit `security lock`, a passcode change or a lock older than that needs the passcode. An
/// unlock is only as good as what set it: logind lets the session's own user set `LockedHint` and
/// ask for `Unlock`, so a program of the user can reopen the keychain inside that window (the
/// README says so; `session-unlock-window = 0` turns reopening off).
struct LoginSessionWatch: Service {
    /// The open connection to the system bus.
    let bus: LoginBus
    /// The keychains a lock of `userID`'s session locks; with `nil` (sleep), every one open.
    let engines: @Sendable (_ userID: UInt32?) -> [any Engine]
    /// How long after a lock an unlock of the session reopens the keychain.
    let reopenWindow: Duration
    let logger: Logger

    func run() async throws {
        let stopping = LockedState(false)
        await cancelWhenGracefulShutdown {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    // sd-bus blocks: a thread of its own, never one of the cooperative pool's.
                    let thread = Thread { [bus, engines, reopenWindow, logger] in
                        let locked = LoginEvent.sessionLocked(
                            reopensWithinSeconds: Int(reopenWindow.components.seconds)
                        )
                        while !stopping.withLock({ $0 }) {
                            switch bus.next(timeout: .milliseconds(250)) {
                            case .nothing:
                                continue
                            case .lockSession(let userID):
                                Self.tell(engines(userID), locked, because: "the login session locked", logger: logger)
                            case .unlockSession(let userID):
                                Self.tell(
                                    engines(userID),
                                    .sessionUnlocked,
                                    because: "the login session unlocked",
                                    logger: logger
                                )
                            case .sleep:
                                Self.tell(
                                    engines(nil),
                                    locked,
                                    because: "the machine is going to sleep",
                                    logger: logger
                                )
                            case .closed:
                                logger.warning(
                                    "the system bus connection closed: the keychain no longer locks with the login session"
                                )
                                stopping.withLock { $0 = true }
                            }
                        }
                        done.resume()
                    }
                    thread.name = "securityd logind watch"
                    thread.start()
                }
            } onCancel: {
                stopping.withLock { $0 = true }
            }
        }
    }

    /// Tells each keychain of `engines` about `event`, logging what it did and `reason`.
    static func tell(_ engines: [any Engine], _ event: LoginEvent, because reason: String, logger: Logger) {
        for engine in engines {
            do throws(KeychainError) {
                let outcome = try engine.login(event)
                guard outcome != .noPasscode, outcome != .alreadyUnlocked else { continue }
                logger.info("\(outcome.summary): \(reason)")
            } catch {
                logger.error("could not tell the keychain \(reason): \(error.code)")
            }
        }
    }
}
