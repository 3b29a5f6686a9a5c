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
import KeychainCore

/// Runs an asynchronous body to its end on the calling thread.
///
/// `SecTrustEvaluateWithError` is synchronous and swift-certificates' verifier is asynchronous.
/// Waiting on a semaphore for a task on the shared pool would tie up one of its few threads (and
/// deadlock when the caller is itself one of them); instead the body's jobs are run here, by the
/// thread that waits for them. The verifier hops to no actor, so every job lands on this executor.
final class CallingThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var finished = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on this thread until it returns.
    ///
    /// - Parameter body: The asynchronous work.
    /// - Returns: What `body` returned.
    static func run<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
        let executor = CallingThreadExecutor()
        let result = LockedState<Value?>(nil)
        Task(executorPreference: executor) {
            let value = await body()
            result.withLock { $0 = value }
            executor.finish()
        }
        executor.drain()
        guard let value = result.withLock({ $0 }) else {
            preconditionFailure("the task finished without a value")
        }
        return value
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.signal()
        condition.unlock()
    }

    /// Runs jobs as they come until the task has finished.
    private func drain() {
        while true {
            condition.lock()
            while jobs.isEmpty, !finished { condition.wait() }
            if jobs.isEmpty, finished {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
