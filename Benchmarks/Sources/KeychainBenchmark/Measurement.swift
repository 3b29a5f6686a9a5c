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

/// Monotonic nanoseconds (`CLOCK_MONOTONIC` on Linux).
@inline(__always)
func now() -> UInt64 {
    DispatchTime.now().uptimeNanoseconds
}

/// The latencies of one timed phase, in execution order.
struct Sample {
    private(set) var latencies: [UInt64] = []
    private(set) var errors = 0
    private var started: UInt64 = 0
    private var finished: UInt64 = 0

    init(capacity: Int) {
        latencies.reserveCapacity(capacity)
    }

    /// Times `body` once per index; `body` returns whether the operation did what it should.
    static func measure(_ count: Int, _ body: (Int) -> Bool) -> Sample {
        var sample = Sample(capacity: count)
        sample.started = now()
        for index in 0..<count {
            let start = now()
            let succeeded = body(index)
            sample.latencies.append(now() - start)
            if !succeeded { sample.errors += 1 }
        }
        sample.finished = now()
        return sample
    }

    /// A phase timed by the caller: each operation's latency, and the whole phase's start and end.
    static func recorded(_ latencies: [UInt64], errors: Int, started: UInt64, finished: UInt64) -> Sample {
        var sample = Sample(capacity: latencies.count)
        sample.latencies = latencies
        sample.errors = errors
        sample.started = started
        sample.finished = finished
        return sample
    }

    var count: Int { latencies.count }
    var wallSeconds: Double { Double(finished - started) / 1e9 }
    var operationsPerSecond: Double { wallSeconds > 0 ? Double(count) / wallSeconds : 0 }

    /// Latency percentiles in milliseconds (linear interpolation, as the peers script computes them).
    func percentiles() -> [String: Double] {
        let sorted = latencies.sorted()
        guard !sorted.isEmpty else { return [:] }
        func percentile(_ p: Double) -> Double {
            let rank = Double(sorted.count - 1) * p / 100
            let low = Int(rank)
            let high = min(low + 1, sorted.count - 1)
            let value = Double(sorted[low]) + (Double(sorted[high]) - Double(sorted[low])) * (rank - Double(low))
            return value / 1e6
        }
        let mean = Double(sorted.reduce(0, +)) / Double(sorted.count) / 1e6
        return [
            "min": Double(sorted[0]) / 1e6, "p10": percentile(10), "p50": percentile(50), "p90": percentile(90),
            "p99": percentile(99), "max": Double(sorted[sorted.count - 1]) / 1e6, "mean": mean,
        ]
    }
}
