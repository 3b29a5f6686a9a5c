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

import Dispatch
import Foundation
import KeychainCore

/// Truncates the write-ahead log shortly after writes, so that the earlier versions of pages it
/// holds — a deleted item, an overwritten secret, a replaced keybag — leave the home's files within
/// about a second while the keychain stays open.
///
/// SQLite's `secure_delete` zeroes deleted content in the database file, but a write-ahead log
/// keeps whole earlier pages until it is checkpointed and reset, and a reset log is overwritten
/// from its start, not shortened. The first write after a quiet spell schedules a `TRUNCATE`
/// checkpoint ``delay`` later; writes meanwhile join it. If another process's reader holds the log
/// (it cannot be truncated under a reader), the scrubber tries again a ``delay`` later, until it
/// succeeds. When the last connection closes, SQLite folds the log in and deletes it.
final class LogScrubber: Sendable {
    /// How long after a write the log is truncated.
    static let delay: TimeInterval = 1

    private let isScheduled = LockedState(false)
    private let queue = DispatchQueue(label: "swift-keychain.log-scrubber", qos: .utility)
    private let truncate: @Sendable () -> Bool

    /// - Parameter truncate: Folds and truncates the log; whether it was emptied.
    init(truncate: @escaping @Sendable () -> Bool) {
        self.truncate = truncate
    }

    /// Notes a committed write: the log is truncated within ``delay``.
    func noteWrite() {
        let schedule = isScheduled.withLock { scheduled -> Bool in
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { scheduleRun() }
    }

    private func scheduleRun() {
        queue.asyncAfter(deadline: .now() + Self.delay) { [weak self] in
            guard let self else { return }
            self.isScheduled.withLock { $0 = false }
            if !self.truncate() {
                self.noteWrite()
            }
        }
    }
}
