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
import KeychainTesting

/// A library user in its own process: several writer threads on the shared keychain; prints
/// their outcomes as JSON (started by `concurrency`).
struct ConcurrencyWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concurrency-worker",
        abstract: "Run writer threads on a keychain (started by `concurrency`).",
        shouldDisplay: false
    )

    @Option var home: String
    @Option var name: String
    @Option var threads: Int
    @Option var operations: Int
    @Option var seed: UInt64
    @Option var passcode: String
    @Option(help: "The shared attribute the first thread owns.") var sharedAttribute: Int?
    @Option(help: "The socket of the securityd that serves the keychain (in this process when omitted).")
    var socket: String?

    func run() throws {
        let device = try Device.stress(URL(fileURLWithPath: home), daemonSocket: socket)
        Device.setProcessDefault(device)
        try device.unlock(passcode: passcode)
        let outcomes = Collector<Writer.Outcome>()
        let (name, operations, seed, shared) = (name, operations, seed, sharedAttribute)
        let finished = runThreads(threads, deadline: Date().addingTimeInterval(600)) { index in
            var writer = Writer(
                name: "\(name)t\(index)",
                sharedAttribute: index == 0 ? shared : nil,
                seed: SplitMix64.derive(seed, index)
            )
            writer.run(operations: operations)
            outcomes.append(writer.outcome)
        }
        guard finished else { throw StressError("\(name): writer threads did not finish within 600 s") }
        let json = try JSONEncoder().encode(outcomes.all)
        FileHandle.standardOutput.write(json)
    }
}
