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

import KeychainSync

/// Wakes whoever waits for a circle's news: set by the connection's notifications, consumed by
/// the exchange's wait.
actor ChangeSignal {
    private var pending: Set<CircleID> = []
    private var waiters: [Int: (circle: CircleID, continuation: CheckedContinuation<Bool, Never>)] = [:]
    private var nextWaiter = 0

    /// News for `circle` (or for every circle, when the connection dropped: `nil`).
    func notify(_ circle: CircleID?) {
        var woken = false
        for (key, waiter) in waiters where circle == nil || waiter.circle == circle {
            waiters[key] = nil
            waiter.continuation.resume(returning: true)
            woken = true
        }
        if !woken, let circle { pending.insert(circle) }
    }

    /// Returns `true` at the first news of `circle`, `false` when `timeout` passes first.
    func wait(_ circle: CircleID, timeout: Duration) async -> Bool {
        if pending.remove(circle) != nil { return true }
        let key = nextWaiter
        nextWaiter += 1
        return await withCheckedContinuation { continuation in
            waiters[key] = (circle, continuation)
            Task {
                try? await Task.sleep(for: timeout)
                self.expire(key)
            }
        }
    }

    private func expire(_ key: Int) {
        waiters.removeValue(forKey: key)?.continuation.resume(returning: false)
    }
}
