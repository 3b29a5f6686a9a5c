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

/// A value behind a POSIX mutex (`NSLock`): the project's one lock primitive.
///
/// `Synchronization.Mutex` would do, but on Linux it is a futex that the thread sanitizer does not
/// model: every sanitized run of the concurrency harness reported the keybag's accesses inside
/// `Mutex.withLock` as races. A pthread mutex is modelled, so a sanitized run shows real races only.
package final class LockedState<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
