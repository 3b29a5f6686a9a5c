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

import Synchronization

/// The way to end one biometric match in progress.
///
/// The gate makes one for each match and files it under the match's context; releasing or
/// invalidating that context cancels it, and with it that match only: a match another context
/// (another process) waits for on the same sensor goes on.
package final class MatchCancellation: Sendable {
    private struct State {
        var isCancelled = false
        var handler: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    package init() {}

    /// Whether the match was cancelled.
    package var isCancelled: Bool {
        state.withLock { $0.isCancelled }
    }

    /// Cancels the match: the sensor's handler runs, once, under the lock that
    /// whileWaiting(onCancel:_:) takes to remove it, so it never runs after the wait ended.
    package func cancel() {
        state.withLock { state in
            guard !state.isCancelled else { return }
            state.isCancelled = true
            state.handler?()
        }
    }

    /// Runs `body` (a sensor waiting for a finger) with `handler` as what cancelling does; the
    /// handler runs at once if the match was cancelled already.
    ///
    /// It must be brief: it runs under a lock.
    package func whileWaiting<T, Failure: Error>(
        onCancel handler: @escaping @Sendable () -> Void,
        _ body: () throws(Failure) -> T
    ) throws(Failure) -> T {
        state.withLock { state in
            if state.isCancelled { handler() } else { state.handler = handler }
        }
        defer { state.withLock { $0.handler = nil } }
        return try body()
    }
}
