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

/// Locks the keychain after a time without requests, as macOS's "Lock after N minutes of
/// inactivity" does: the `WhenUnlocked` classes become unreadable for every process until the
/// next unlock (the `AfterFirstUnlock` classes stay readable, as after a device locks).
///
/// Off unless `securityd --auto-lock SECONDS` (or `KEYCHAIN_AUTO_LOCK`) asks for it. A request
/// that is running (an evaluation waiting for a finger, say) keeps the keychain unlocked.
struct AutoLock: Service {
    /// The keychains to lock (a system-mode daemon's are all those open; the quiet time is the
    /// daemon's, across every user).
    let engines: @Sendable () -> [any Engine]
    let clients: ClientTable
    let logger: Logger
    /// How long without requests before the keychain locks.
    let after: Duration

    func run() async throws {
        let interval = min(.seconds(1), after / 4)
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                guard clients.quietTime >= after else { continue }
                Self.lock(engines(), because: "a time without requests", logger: logger)
            }
        }
    }

    /// Locks each keychain that has a passcode and is unlocked, logging `reason`.
    static func lock(_ engines: [any Engine], because reason: String, logger: Logger) {
        for engine in engines {
            guard let state = try? engine.lockState(), state.hasPasscode, state.isUnlocked else { continue }
            do throws(KeychainError) {
                try engine.lock()
                logger.info("locked the keychain: \(reason)")
            } catch {
                logger.error("could not lock the keychain: \(error.code)")
            }
        }
    }

    /// The time `KEYCHAIN_AUTO_LOCK` names (seconds, a positive integer), if any.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Duration? {
        environment["KEYCHAIN_AUTO_LOCK"].flatMap(Int.init).flatMap { $0 > 0 ? .seconds($0) : nil }
    }
}
