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
import KeychainCore
import KeychainDevice
import KeychainEngine
import KeychainServices
import KeychainTestSupport
import KeychainTesting

/// The concurrency harness: library processes, `security` processes and threads in this process
/// use one keychain at once, while another thread locks and unlocks it; every status must be the
/// predicted one, and the final keychain must hold what every writer was last told.
struct ConcurrencyRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "concurrency",
        abstract: "Race processes and threads on one keychain; check for lost updates, wrong statuses and stalls."
    )

    @Option(help: "Library processes.") var processes = 3
    @Option(help: "Writer threads in each library process and in this one.") var threads = 4
    @Option(help: "Scripts running the security tool, one process per operation.") var scripts = 2
    @Option(help: "Operations per writer thread.") var operations = 400
    @Option(help: "Operations per security script.") var scriptOperations = 40
    @Option(help: "The seed (random when omitted).") var seed: UInt64?
    @Option(help: "Where to create the keychain home (a new temporary directory when omitted).") var home: String?
    @Option(help: "The security tool (default: beside this executable).") var tool: String?
    @Option(help: "Append the summary as one JSON line to this file.") var results: String?
    @Flag(help: "Serve the keychain from one securityd (beside this program) for every process.")
    var throughDaemon = false

    func run() throws {
        let seed = seed ?? UInt64.random(in: 1...UInt64.max)
        let folder = URL(fileURLWithPath: home ?? NSTemporaryDirectory() + "keychain-concurrency-\(seed)")
        try? FileManager.default.removeItem(at: folder)
        // A daemon serves only a home inside a private folder, and listens in one.
        let daemon = try throughDaemon ? StressDaemon(folder: folder) : nil
        if daemon != nil {
            try FileManager.default.createDirectory(
                at: folder,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        }
        let homeURL = daemon?.home ?? folder
        let server = try daemon?.start()
        defer { server.map(StressDaemon.stop) }
        let tool =
            tool.map(URL.init(fileURLWithPath:))
            ?? ChildProcess.executable.deletingLastPathComponent().appendingPathComponent("security")
        let passcode = "concurrency-passcode"
        let device = try Device.stress(homeURL, daemonSocket: daemon?.socket)
        Device.setProcessDefault(device)
        try device.setPasscode(passcode)
        try Self.addSharedItems()
        print(
            "concurrency: seed \(seed); \(processes) library processes × \(threads) threads, \(threads) threads here, "
                + "\(scripts) security scripts, a lock/unlock thread"
        )

        let (threads, operations, scripts, scriptOperations, homePath) = (
            threads, operations, scripts, scriptOperations, homeURL.path
        )
        let started = Date()
        let deadline = started.addingTimeInterval(900)
        let workers = try (0..<processes).map { index in
            try ChildProcess.startCapturing(
                [
                    "concurrency-worker", "--home", homeURL.path, "--name", "p\(index)", "--threads", String(threads),
                    "--operations", String(operations), "--seed", String(SplitMix64.derive(seed, 100 + index)),
                    "--passcode", passcode,
                ] + (index < 2 ? ["--shared-attribute", String(2 + index)] : []) + (daemon?.workerArguments ?? [])
            )
        }
        let outcomes = Collector<Writer.Outcome>()
        let lockCycles = Collector<[String]>()
        // Thread 0 locks and unlocks; the next `threads` write; the rest run the scripts.
        let finished = runThreads(1 + threads + scripts, deadline: deadline) { index in
            if index == 0 {
                lockCycles.append(
                    Self.lockAndUnlock(device, passcode: passcode, until: { outcomes.all.count >= threads + scripts })
                )
            } else if index <= threads {
                var writer = Writer(
                    name: "t\(index)",
                    sharedAttribute: index <= 2 ? index - 1 : nil,
                    seed: SplitMix64.derive(seed, index)
                )
                writer.run(operations: operations)
                outcomes.append(writer.outcome)
            } else {
                var writer = CommandLineWriter(
                    name: "cli\(index)",
                    tool: tool,
                    home: homePath,
                    passcode: passcode,
                    environment: daemon?.toolEnvironment ?? [:],
                    seed: SplitMix64.derive(seed, 200 + index)
                )
                writer.run(operations: scriptOperations)
                outcomes.append(writer.outcome)
            }
        }
        guard finished else { throw StressError("threads still running after 900 s: deadlock or stall") }
        var all = outcomes.all
        for worker in workers {
            let output = worker.output()
            guard worker.process.terminationStatus == 0 else {
                throw StressError("a library process exited with \(worker.process.terminationStatus): \(output.stderr)")
            }
            all += try JSONDecoder().decode([Writer.Outcome].self, from: output.stdout)
        }
        let elapsed = Date().timeIntervalSince(started)

        // A fresh view, as the next process would see the keychain.
        let verifier = try Device.stress(homeURL)
        try verifier.unlock(passcode: passcode)
        var failures = all.flatMap(\.failures) + lockCycles.all.flatMap { $0 }
        Device.withCurrent(verifier) {
            let shared = Self.sharedAttributes()
            for outcome in all { failures += outcome.verify() + outcome.verifyShared(shared) }
        }
        failures += try verifier.keychain.integrityProblems().map { "SQLite integrity check: \($0)" }
        let totalOperations = all.map(\.operations).reduce(0, +)
        let summary =
            "concurrency: \(processes + 1 + scripts * scriptOperations) processes, \(all.count) writers, "
            + "\(totalOperations) operations in \(String(format: "%.1f", elapsed)) s; \(failures.count) failures; seed \(seed)"
        for failure in failures.prefix(20) { FileHandle.standardError.write(Data("\(failure)\n".utf8)) }
        print(summary)
        if let results {
            try JSONLines.append(
                [
                    "test": "concurrency", "seed": String(seed), "library_processes": processes,
                    "threads_per_process": threads,
                    "security_processes": scripts * scriptOperations, "writers": all.count,
                    "operations": totalOperations,
                    "failures": failures.count, "seconds": elapsed,
                ],
                to: URL(fileURLWithPath: results)
            )
        }
        guard failures.isEmpty else { throw ExitCode(1) }
        try? FileManager.default.removeItem(at: homeURL)
    }

    private static var sharedQuery: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: Writer.service,
            kSecAttrAccount as String: Writer.sharedAccount,
        ]
    }

    private static func addSharedItems() throws {
        var shared = sharedQuery
        shared[kSecValueData as String] = Data("shared".utf8)
        shared[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        var probe = sharedQuery
        probe[kSecAttrAccount as String] = "probe"
        probe[kSecValueData as String] = Data("probe".utf8)
        guard SecItemAdd(shared as CFDictionary, nil) == errSecSuccess,
            SecItemAdd(probe as CFDictionary, nil) == errSecSuccess
        else {
            throw StressError("cannot add the shared items")
        }
    }

    private static func sharedAttributes() -> [String: Any] {
        var query = sharedQuery
        query[kSecReturnAttributes as String] = true
        var result: CFTypeRef?
        _ = SecItemCopyMatching(query as CFDictionary, &result)
        return result as? [String: Any] ?? [:]
    }

    /// Locks and unlocks this process's view until `done`, reading a `WhenUnlocked` item in
    /// between: it must be readable or `errSecInteractionNotAllowed`, nothing else.
    private static func lockAndUnlock(_ device: Device, passcode: String, until done: () -> Bool) -> [String] {
        var failures: [String] = []
        var probe = sharedQuery
        probe[kSecAttrAccount as String] = "probe"
        probe[kSecReturnData as String] = true
        var cycles = 0
        while !done() {
            do {
                try device.lock()
                usleep(2_000)
                try device.unlock(passcode: passcode)
                cycles += 1
            } catch {
                failures.append("lock/unlock: \(error)")
            }
            var result: CFTypeRef?
            let status = SecItemCopyMatching(probe as CFDictionary, &result)
            if status != errSecSuccess && status != errSecInteractionNotAllowed {
                failures.append("probe read returned \(status)")
            } else if status == errSecSuccess && result as? Data != Data("probe".utf8) {
                failures.append("probe read returned another secret")
            }
            usleep(5_000)
        }
        print("concurrency: \(cycles) lock/unlock cycles")
        return failures
    }
}
