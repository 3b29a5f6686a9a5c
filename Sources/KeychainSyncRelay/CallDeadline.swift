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
    /// `expire` closed its connection would wait forever.
    ///
    /// - Throws: What `work` throws, or ``RelayFailure`` when the time ran out.
    package static func run<T: Sendable>(
        within duration: Duration,
        _ work: @escaping @Sendable () async throws -> T,
        expire: @escaping @Sendable () async -> Void
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let once = ResumeOnce(continuation)
            let timer = Task {
                // The call is given up (its connection closed) before its caller hears so.
                guard (try? await sleep(for: duration)) != nil, let caller = once.take() else { return }
                await expire()
                caller.resume(throwing: RelayFailure(timedOut: ()))
            }
            Task {
                let result: Result<T, any Error>
                do { result = .success(try await work()) } catch { result = .failure(error) }
                if once.resume(with: result) { timer.cancel() }
            }
        }
    }
}

/// A continuation resumed by whichever of several paths comes first.
final class ResumeOnce<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, any Error>?>

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = Mutex(continuation) }

    /// Resumes the continuation unless another path did; `true` when this one did.
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        guard let continuation = take() else { return false }
        continuation.resume(with: result)
        return true
    }

    /// The continuation, for this path alone to resume; `nil` when another path took it.
    func take() -> CheckedContinuation<T, any Error>? { continuation.withLock { $0.take() } }
}
