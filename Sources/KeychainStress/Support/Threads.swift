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

/// Runs `body(index)` on `count` new threads at once and waits for all of them (or the deadline).
///
/// - Returns: Whether every thread finished before `deadline`: a thread still running then is
///   reported as a stall (a deadlock, or a wait that never ends).
func runThreads(_ count: Int, deadline: Date, _ body: @escaping @Sendable (Int) -> Void) -> Bool {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.stackSize = 4 << 20
        thread.start()
    }
    return group.wait(timeout: .now() + deadline.timeIntervalSinceNow) == .success
}

/// Results collected from many threads.
final class Collector<Element>: @unchecked Sendable {
    private let lock = NSLock()
    private var elements: [Element] = []

    func append(_ element: Element) {
        lock.lock()
        elements.append(element)
        lock.unlock()
    }

    var all: [Element] {
        lock.lock()
        defer { lock.unlock() }
        return elements
    }
}
