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

import ArgumentParser
import Foundation
import KeychainDevice

/// The child-process half of ``DaemonRun``: look-ups from one client process, as JSON.
struct ClientCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Look-ups from one process (internal)."
    )

    @Option var engine: String
    @Option var home: String
    @Option var socket: String
    @Option var size: Int
    @Option var lookups: Int
    @Option var prefix: String
    @Option var seed: UInt64
    @Option(help: "Seeds the choice of items to look up.") var samplerSeed: UInt64
    @Option(help: "When to begin (monotonic nanoseconds): every client of a run begins at once.") var startAt: UInt64?
    @Option(help: "Look up for this long (cycling through the chosen items) instead of once each.") var seconds: Double?

    struct Result: Codable {
        var lookups: Int
        var errors: Int
        var loopSeconds: Double
        /// When the loop began (monotonic seconds), to see how much the processes overlapped.
        var startedAt: Double
        /// How many processes were not ready when the common window began (they looked up for
        /// less of it, and the aggregate understates the rate).
        var lateProcesses = 0

        var operationsPerSecond: Double { loopSeconds > 0 ? Double(lookups) / loopSeconds : 0 }
    }

    func run() throws {
        let kind: DeviceConfiguration.EngineKind =
            switch engine {
            case "daemon": .daemon
            case "loopback": .loopback
            default: .embedded
            }
        let configuration = DeviceConfiguration(
            passcodePrompt: .none,
            engine: kind,
            daemonSocket: kind == .daemon ? socket : nil
        )
        let device = try Device(
            home: KeychainHome(url: URL(fileURLWithPath: home, isDirectory: true)),
            configuration: configuration
        )
        let workload = Workload(prefix: prefix, seed: seed)
        let operations = ItemOperations(workload: workload)
        var sampler = IndexSampler(seed: samplerSeed)
        let indices = sampler.indices(lookups, below: size)
        let result = try Device.withCurrent(device) { () throws -> Result in
            guard operations.lookup(0) else { throw OpenProbe.ProbeError.firstItemMissing }
            if let startAt, let seconds, !indices.isEmpty {
                return Self.window(from: startAt, seconds: seconds) { operations.lookup(indices[$0 % indices.count]) }
            }
            let started = now()
            let loop = Sample.measure(indices.count) { operations.lookup(indices[$0]) }
            return Result(
                lookups: loop.count,
                errors: loop.errors,
                loopSeconds: loop.wallSeconds,
                startedAt: Double(started) / 1e9
            )
        }
        FileHandle.standardOutput.write(try JSONEncoder().encode(result))
    }

    /// Look-ups from `start` (monotonic ns) for `seconds`: every process of a run looks up over the
    /// same window, so none of them is timed alone while the others start or have finished.
    static func window(from start: UInt64, seconds: Double, _ lookup: (Int) -> Bool) -> Result {
        let late = now() > start
        while now() < start { usleep(200) }
        let end = start + UInt64(seconds * 1e9)
        var (count, errors) = (0, 0)
        var finished = now()
        while finished < end {
            if !lookup(count) { errors += 1 }
            count += 1
            finished = now()
        }
        return Result(
            lookups: count,
            errors: errors,
            loopSeconds: Double(finished - start) / 1e9,
            startedAt: Double(start) / 1e9,
            lateProcesses: late ? 1 : 0
        )
    }
}
