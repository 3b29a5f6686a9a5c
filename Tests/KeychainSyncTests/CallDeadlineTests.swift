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
import KeychainSyncRelay
import Synchronization
import Testing

/// The relay's deadline for a call: a call the server never answers fails in time, and one it
/// answers returns its result untouched.
@Suite struct CallDeadlineTests {
    /// Whether `expire` ran.
    final class Expiry: Sendable {
        let ran = Mutex(false)
    }

    @Test func aCallThatNeverEndsFailsWhenItsTimeRunsOutAndIsLeftBehind() async throws {
        let expiry = Expiry()
        let started = ContinuousClock.now
        await #expect(throws: RelayFailure.self) {
            try await CallDeadline.run(within: .seconds(1)) {
                // As a statement written to a closed connection: never answered.
                try await Task.sleep(for: .seconds(3600))
                return 1
            } expire: {
                expiry.ran.withLock { $0 = true }
            }
        }
        // Not before its time (a starved test process may see it much later).
        #expect(ContinuousClock.now - started >= .seconds(1))
        #expect(expiry.ran.withLock { $0 })
    }

    @Test func aCancelledCallerHearsAtOnceAfterItsCallIsGivenUp() async throws {
        let expiry = Expiry()
        let started = Expiry()
        let call = Task {
            try await CallDeadline.run(within: .seconds(60)) {
                started.ran.withLock { $0 = true }
                try await Task.sleep(for: .seconds(3600))
                return 1
            } expire: {
                expiry.ran.withLock { $0 = true }
            }
        }
        // Cancelled once the call is under way (a call cancelled before it starts never runs).
        while !started.ran.withLock({ $0 }) { try await Task.sleep(for: .milliseconds(10)) }
        call.cancel()
        // Ended by the cancellation, not by the deadline (which throws RelayFailure): no clock is
        // read, as a full test run can starve this process of threads for minutes. The
        // connection was closed before the caller heard.
        await #expect(throws: CancellationError.self) { try await call.value }
        #expect(expiry.ran.withLock { $0 })

        // A caller cancelled before the call starts: nothing runs, nothing to give up.
        let ran = Expiry()
        let never = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await CallDeadline.run(within: .seconds(60)) {
                ran.ran.withLock { $0 = true }
                return 1
            } expire: {
                ran.ran.withLock { $0 = true }
            }
        }
        await #expect(throws: CancellationError.self) { try await never.value }
        #expect(ran.ran.withLock { $0 } == false)
    }

    @Test func aCallThatEndsInTimeKeepsItsResultOrError() async throws {
        let expiry = Expiry()
        // A deadline of a few half-second ticks: a starved process may count a late tick twice.
        let value = try await CallDeadline.run(within: .seconds(5)) {
            try await Task.sleep(for: .milliseconds(50))
            return 42
        } expire: {
            expiry.ran.withLock { $0 = true }
        }
        #expect(value == 42)
        await #expect(throws: CancellationError.self) {
            try await CallDeadline.run(within: .seconds(5)) { () async throws -> Int in
                throw CancellationError()
            } expire: {
                expiry.ran.withLock { $0 = true }
            }
        }
        // Past both deadlines: a call that ended left nothing to expire.
        try await CallDeadline.sleep(for: .seconds(6))
        #expect(expiry.ran.withLock { $0 } == false)
    }
}
