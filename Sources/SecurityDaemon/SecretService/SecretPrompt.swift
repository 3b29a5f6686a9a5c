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
import KeychainBus
import KeychainContract
import KeychainCore

/// A prompt the provider returned (`org.freedesktop.Secret.Prompt`): nothing happens until its
/// caller calls `Prompt`, and it ends with one `Completed` signal, whether the work was done, the
/// person declined, or the caller called `Dismiss` (or left the bus).
final class SecretPrompt: @unchecked Sendable {
    let path: String
    /// The connection that was given the prompt: only it may use it.
    let owner: String
    /// The work, run off the bus thread once `Prompt` is called.
    ///
    /// It returns the result to send with `Completed`, or `nil` when the person declined, and asks
    /// its argument before each question whether the prompt is still wanted (not dismissed, its
    /// caller still there).
    private let work: @Sendable (_ isWanted: @Sendable () -> Bool) -> BusValue?
    /// What `Completed` carries when the prompt is dismissed.
    private let emptyResult: BusValue
    private let state = LockedState<State>(.waiting)

    private enum State {
        case waiting
        case running
        case completed
    }

    init(
        path: String,
        owner: String,
        emptyResult: BusValue,
        work: @escaping @Sendable (_ isWanted: @Sendable () -> Bool) -> BusValue?
    ) {
        self.path = path
        self.owner = owner
        self.emptyResult = emptyResult
        self.work = work
    }

    /// Starts the work; `completed` is called on the bus thread with the signal's arguments, once.
    func start(on bus: BusConnection, completed: @escaping @Sendable () -> Void) -> Bool {
        let starts = state.withLock { state in
            guard case .waiting = state else { return false }
            state = .running
            return true
        }
        guard starts else { return false }
        let (work, emptyResult, path) = (work, emptyResult, path)
        let state = self.state
        Thread.detachNewThread { [self] in
            let result = work {
                state.withLock { state in
                    if case .running = state { return true }
                    return false
                }
            }
            bus.perform {
                guard self.finish() else { return }
                Self.complete(
                    on: bus,
                    path: path,
                    owner: self.owner,
                    dismissed: result == nil,
                    result: result ?? emptyResult
                )
                completed()
            }
        }
        return true
    }

    /// Ends the prompt as dismissed (from the bus thread): `Completed(true, …)` unless it already ended.
    func dismiss(on bus: BusConnection) {
        guard finish() else { return }
        Self.complete(on: bus, path: path, owner: owner, dismissed: true, result: emptyResult)
    }

    /// Ends the prompt silently: its caller left.
    func cancel() {
        _ = finish()
    }

    private func finish() -> Bool {
        state.withLock { state in
            if case .completed = state { return false }
            state = .completed
            return true
        }
    }

    /// Says how the prompt ended, to the connection that asked for it alone.
    private static func complete(
        on bus: BusConnection,
        path: String,
        owner: String,
        dismissed: Bool,
        result: BusValue
    ) {
        bus.emit(
            path: path,
            interface: "org.freedesktop.Secret.Prompt",
            member: "Completed",
            [.boolean(dismissed), .variant(result)],
            to: owner
        )
    }
}
