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
/// phone's keychain locks with its screen: the `WhenUnlocked` classes become unreadable for every
/// process until the next unlock.
///
/// systemd-logind asks a session to lock (`loginctl lock-session`, `lock-sessions`, idle and lid
/// policies) with the `Lock` signal on the session's object; screen lockers report a lock by
/// setting the session's `LockedHint`; logind announces sleep with `PrepareForSleep(true)`. The
/// watch follows all three on the system bus. A lock request for another
/// user's session locks nothing of this user's. Only the bus name `org.freedesktop.login1` is
/// listened to, which only logind (root) may own on a system bus; and a request can only lock,
/// never unlock, so a forged one costs the user an unlock, nothing more.
struct LoginSessionWatch: Service {
    /// The open connection to the system bus.
    let bus: LoginBus
    /// The keychains a lock of `userID`'s session locks; with `nil` (sleep), every one open.
    let engines: @Sendable (_ userID: UInt32?) -> [any Engine]
    let logger: Logger

    func run() async throws {
        let stopping = LockedState(false)
        await cancelWhenGracefulShutdown {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    // sd-bus blocks: a thread of its own, never one of the cooperative pool's.
                    let thread = Thread { [bus, engines, logger] in
                        while !stopping.withLock({ $0 }) {
                            switch bus.next(timeout: .milliseconds(250)) {
                            case .nothing:
                                continue
                            case .lockSession(let userID):
                                AutoLock.lock(engines(userID), because: "the login session locked", logger: logger)
                            case .sleep:
                                AutoLock.lock(engines(nil), because: "the machine is going to sleep", logger: logger)
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
}
