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

/// The time the relay gives the server to answer a call, and what happens when it does not.
///
/// The time is counted in half-second ticks, each worth at most two ticks however late it comes:
/// a process starved of threads (a busy machine, a test run full of blocking tests) reads the
/// server's answer late, and that is not the server's silence. A connection lost without a word
/// still runs out of time as the clock says.
package enum CallDeadline {
    private static let tick = Duration.milliseconds(500)

    /// Sleeps for `duration` of time this process could have used.
    ///
    /// - Throws: `CancellationError` when the task is cancelled.
    package static func sleep(for duration: Duration) async throws {
        let clock = ContinuousClock()
        var counted = Duration.zero
        while counted < duration {
            let start = clock.now
            try await Task.sleep(for: tick)
            counted += min(clock.now - start, tick * 2)
        }
    }

    /// Runs `work` and returns what it returns, unless `duration` passes first: then `expire`
    /// runs and the call fails.
    ///
    /// `work` is left behind when the time runs out. postgres-nio never answers a statement
    /// written to a connection that was closed under it, so a call that waited for `work` after
    /// `expire` closed its connection would wait forever. A caller cancelled meanwhile is treated
    /// the same way at once: `expire` runs, then the call throws `CancellationError`.
    ///
    /// - Throws: What `work` throws, ``RelayFailure`` when the time ran out, `CancellationError`
    ///   when the caller was cancelled.
    package static func run<T: Sendable>(
        within duration: Duration,
        _ work: @escaping @Sendable () async throws -> T,
        expire: @escaping @Sendable () async -> Void
    ) async throws -> T {
        let once = ResumeOnce<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                guard once.install(continuation) else {
                    // Cancelled before anything started: nothing to give up.
                    continuation.resume(throwing: CancellationError())
                    return
                }
                let timer = Task {
                    // The call is given up (its connection closed) before its caller hears so.
                    guard (try? await sleep(for: duration)) != nil, let caller = once.take() else { return }
                    await expire()
                    caller.resume(throwing: RelayFailure(timedOut: ()))
                }
                once.attach(timer)
                Task {
                    let result: Result<T, any Error>
                    do { result = .success(try await work()) } catch { result = .failure(error) }
                    once.resume(with: result)
                }
            }
        } onCancel: {
            guard let caller = once.cancel() else { return }
            Task {
                await expire()
                caller.resume(throwing: CancellationError())
            }
        }
    }
}

/// A continuation resumed by whichever of several paths comes first (the answer, a timer, the
/// caller's cancellation); the timer, once attached, is cancelled when another path wins.
final class ResumeOnce<T: Sendable>: Sendable {
    private enum State {
        /// No continuation yet.
        case unset
        case waiting(CheckedContinuation<T, any Error>)
        /// Cancelled before a continuation came.
        case cancelled
        /// A path took the continuation.
        case taken
    }

    private let state = Mutex(State.unset)
    private let timer = Mutex<Task<Void, Never>?>(nil)

    init() {}

    convenience init(_ continuation: CheckedContinuation<T, any Error>) {
        self.init()
        _ = install(continuation)
    }

    /// Hands over the continuation; `false` (and nothing kept) when the caller was already cancelled.
    func install(_ continuation: CheckedContinuation<T, any Error>) -> Bool {
        state.withLock { state in
            guard case .unset = state else { return false }
            state = .waiting(continuation)
            return true
        }
    }

    /// Keeps the timer to cancel when the answer or the caller's cancellation comes first.
    func attach(_ task: Task<Void, Never>) {
        let done = state.withLock { state in if case .waiting = state { return false } else { return true } }
        if done { task.cancel() } else { timer.withLock { $0 = task } }
    }

    /// Resumes the continuation unless another path did; `true` when this one did.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        guard let continuation = take() else { return false }
        timer.withLock { $0 }?.cancel()
        continuation.resume(with: result)
        return true
    }

    /// The continuation, for this path alone to resume; `nil` when another path took it.
    func take() -> CheckedContinuation<T, any Error>? {
        state.withLock { state in
            guard case .waiting(let continuation) = state else { return nil }
            state = .taken
            return continuation
        }
    }

    /// The continuation for the caller's cancellation to resume; `nil` when another path took it
    /// (or none came yet: then the coming one is refused by ``install(_:)``).
    func cancel() -> CheckedContinuation<T, any Error>? {
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            switch state {
            case .unset:
                state = .cancelled
                return nil
            case .waiting(let continuation):
                state = .taken
                return continuation
            case .cancelled, .taken:
                return nil
            }
        }
        if continuation != nil { timer.withLock { $0 }?.cancel() }
        return continuation
    }
}
