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
import KeychainServices

/// The same item operations through `securityd` and through the in-process engine, in one run on
/// one keychain: latency from one process, and aggregate look-ups from several client processes
/// at once (``ClientCommand``), so that every figure has its in-process reference beside it.
struct DaemonRun {
    let count: Int
    let sample: Int
    let clients: Int
    let workload: Workload
    let directory: URL
    let log: ResultLog

    static let daemonSubject = "swift-keychain via securityd"
    static let embeddedSubject = "swift-keychain in-process (same run)"
    /// The in-process engine with every request and reply encoded and decoded, with no socket:
    /// what the wire format alone costs.
    static let loopbackSubject = "swift-keychain in-process, wire format"

    func run() throws {
        let home = directory.appendingPathComponent("daemon-\(count)", isDirectory: true)
        let socket = directory.appendingPathComponent("daemon-\(count).socket").path
        try? FileManager.default.removeItem(at: home)
        let daemon = try Self.startDaemon(home: home, socket: socket)
        defer {
            daemon.terminate()
            daemon.waitUntilExit()
            try? FileManager.default.removeItem(at: home)
        }
        let operations = ItemOperations(workload: workload)
        let embedded = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none, engine: .embedded)
        )
        let loopback = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none, engine: .loopback)
        )
        let remote = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none, engine: .daemon, daemonSocket: socket)
        )
        // The keychain is filled through the daemon; both engines then read the same items.
        Device.withCurrent(remote) {
            let fill = Sample.measure(count) { operations.store($0) }
            log.record(Self.daemonSubject, "store", size: count, fill)
        }
        var sampler = IndexSampler(seed: workload.seed &+ 31)
        let indices = sampler.indices(sample, below: count)
        for (subject, device) in [
            (Self.embeddedSubject, embedded), (Self.loopbackSubject, loopback), (Self.daemonSubject, remote),
        ] {
            Device.withCurrent(device) {
                _ = operations.lookup(0)  // a connection, a warm cache
                let lookup = Sample.measure(indices.count) { operations.lookup(indices[$0]) }
                log.record(subject, "lookup", size: count, lookup)
                let update = Sample.measure(indices.count) { operations.update(indices[$0], generation: 1) }
                log.record(subject, "update", size: count, update)
                _ = Sample.measure(indices.count) { operations.update(indices[$0], generation: 0) }
            }
        }
        let floor = try SocketFloor.measure(count: indices.count, directory: directory)
        log.record(SocketFloor.subject, "round trip, 300 bytes", size: nil, floor)
        for engine in ["embedded", "daemon"] {
            let aggregate = try concurrentLookups(engine: engine, home: home, socket: socket)
            let subject = engine == "daemon" ? Self.daemonSubject : Self.embeddedSubject
            log.record(
                subject,
                "lookup, \(clients) processes",
                size: count,
                value: aggregate.operationsPerSecond,
                unit: "ops/s",
                extra: [
                    "processes": clients, "errors": aggregate.errors, "lookups": aggregate.lookups,
                    "late_processes": aggregate.lateProcesses,
                ]
            )
        }
    }

    /// Starts `securityd` (beside this executable) for `home` on `socket` and waits until it listens.
    static func startDaemon(home: URL, socket: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("securityd")
        // Its settings come from a file of its own, never from this process's environment.
        let settings = URL(fileURLWithPath: home.path + ".securityd.conf")
        try Data("pinentry = none\n".utf8).write(to: settings)
        guard chmod(settings.path, 0o600) == 0 else { throw BenchmarkError.daemonDidNotStart }
        process.arguments = ["--keychain", home.path, "--socket", socket, "--config", settings.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(20)
        while !FileManager.default.fileExists(atPath: socket) {
            guard process.isRunning, Date() < deadline else { throw BenchmarkError.daemonDidNotStart }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return process
    }

    /// Look-ups per second over `clients` processes running at once: each opens the keychain, then
    /// all look up over one common window of two seconds; the aggregate is all their look-ups over
    /// the window. (Each timing its own 1,000 look-ups, about 0.1 s, made the figure depend on
    /// which process the VM delayed at its start or end.)
    private func concurrentLookups(engine: String, home: URL, socket: String) throws -> ClientCommand.Result {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        // One window for all: a second to start every process and open its keychain, then two of look-ups.
        let startAt = now() + 1_000_000_000
        let children = try (0..<clients).map { index -> (Process, Pipe) in
            let process = Process()
            process.executableURL = executable
            process.arguments = [
                "client", "--engine", engine, "--home", home.path, "--socket", socket, "--size", "\(count)",
                "--lookups", "\(sample)", "--prefix", workload.prefix, "--seed", "\(workload.seed)",
                "--sampler-seed", "\(workload.seed &+ UInt64(index) &+ 1)", "--start-at", "\(startAt)", "--seconds",
                "2",
            ]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            return (process, output)
        }
        var results: [ClientCommand.Result] = []
        for (process, output) in children {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw BenchmarkError.clientFailed(process.terminationStatus) }
            results.append(try JSONDecoder().decode(ClientCommand.Result.self, from: data))
        }
        let lookups = results.map(\.lookups).reduce(0, +)
        let longest = results.map(\.loopSeconds).max() ?? 0
        return ClientCommand.Result(
            lookups: lookups,
            errors: results.map(\.errors).reduce(0, +),
            loopSeconds: longest,
            startedAt: results.map(\.startedAt).min() ?? 0,
            lateProcesses: results.map(\.lateProcesses).reduce(0, +)
        )
    }

    enum BenchmarkError: Error, CustomStringConvertible {
        case daemonDidNotStart
        case clientFailed(Int32)

        var description: String {
            switch self {
            case .daemonDidNotStart: "securityd did not start (is it built beside keychain-bench?)"
            case .clientFailed(let status): "a client process exited with status \(status)"
            }
        }
    }
}
