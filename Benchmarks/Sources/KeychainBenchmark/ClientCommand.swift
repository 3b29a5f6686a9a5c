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
    static let configuration = CommandConfiguration(commandName: "client", abstract: "Look-ups from one process (internal).")

    @Option var engine: String
    @Option var home: String
    @Option var socket: String
    @Option var size: Int
    @Option var lookups: Int
    @Option var prefix: String
    @Option var seed: UInt64
    @Option(help: "Seeds the choice of items to look up.") var samplerSeed: UInt64

    struct Result: Codable {
        var lookups: Int
        var errors: Int
        var loopSeconds: Double
        /// When the loop began (monotonic seconds), to see how much the processes overlapped.
        var startedAt: Double

        var operationsPerSecond: Double { loopSeconds > 0 ? Double(lookups) / loopSeconds : 0 }
    }

    func run() throws {
        let kind: DeviceConfiguration.EngineKind = switch engine {
        case "daemon": .daemon
        case "loopback": .loopback
        default: .embedded
        }
        let configuration = DeviceConfiguration(passcodePrompt: .none, engine: kind, daemonSocket: kind == .daemon ? socket : nil)
        let device = try Device(home: KeychainHome(url: URL(fileURLWithPath: home, isDirectory: true)), configuration: configuration)
        let workload = Workload(prefix: prefix, seed: seed)
        let operations = ItemOperations(workload: workload)
        var sampler = IndexSampler(seed: samplerSeed)
        let indices = sampler.indices(lookups, below: size)
        let (loop, started) = try Device.withCurrent(device) {
            guard operations.lookup(0) else { throw OpenProbe.ProbeError.firstItemMissing }
            let started = now()
            return (Sample.measure(indices.count) { operations.lookup(indices[$0]) }, started)
        }
        let result = Result(lookups: loop.count, errors: loop.errors, loopSeconds: loop.wallSeconds, startedAt: Double(started) / 1e9)
        FileHandle.standardOutput.write(try JSONEncoder().encode(result))
    }
}
