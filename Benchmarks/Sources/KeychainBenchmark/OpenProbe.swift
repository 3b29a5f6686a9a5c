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
import KeychainDevice

/// Opening a filled keychain in a new process: the time to open it and return its first item, then
/// a look-up loop, with the process's peak resident memory over all of it.
///
/// Runs in a child process (``ProbeCommand``) so that neither the parent's heap nor its open
/// connections count.
struct OpenProbe {
    let home: URL
    let size: Int
    let lookups: Int
    let workload: Workload

    struct Result: Codable {
        var openMilliseconds: Double
        var firstItemMilliseconds: Double
        var lookupsPerSecond: Double
        var lookupErrors: Int
        var peakResidentBytes: Int
        var residentAfterBytes: Int
    }

    func measure() throws -> Result {
        let operations = ItemOperations(workload: workload)
        let start = now()
        let device = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none)
        )
        let opened = now()
        return try Device.withCurrent(device) {
            guard operations.lookup(0) else { throw ProbeError.firstItemMissing }
            let first = now()
            var sampler = IndexSampler(seed: workload.seed &+ 99)
            let indices = sampler.indices(lookups, below: size)
            let loop = Sample.measure(indices.count) { operations.lookup(indices[$0]) }
            return Result(
                openMilliseconds: Double(opened - start) / 1e6,
                firstItemMilliseconds: Double(first - start) / 1e6,
                lookupsPerSecond: loop.operationsPerSecond,
                lookupErrors: loop.errors,
                peakResidentBytes: ProcessMemory.peakResident ?? 0,
                residentAfterBytes: ProcessMemory.resident ?? 0
            )
        }
    }

    enum ProbeError: Error, CustomStringConvertible {
        case firstItemMissing
        case childFailed(Int32)

        var description: String {
            switch self {
            case .firstItemMissing: "the probe did not find item 0"
            case .childFailed(let status): "the probe process exited with status \(status)"
            }
        }
    }

    /// Runs the probe in a new process of this executable and returns what it printed.
    func measureInChildProcess() throws -> (Result, wallMilliseconds: Double) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = [
            "probe", "--home", home.path, "--size", "\(size)", "--lookups", "\(lookups)",
            "--prefix", workload.prefix, "--seed", "\(workload.seed)",
        ]
        let output = Pipe()
        process.standardOutput = output
        let start = now()
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let wall = Double(now() - start) / 1e6
        guard process.terminationStatus == 0 else { throw ProbeError.childFailed(process.terminationStatus) }
        return (try JSONDecoder().decode(Result.self, from: data), wall)
    }
}
