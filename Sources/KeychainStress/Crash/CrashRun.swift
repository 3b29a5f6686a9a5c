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

/// The crash-consistency harness: start a worker, SIGKILL it at a random moment, reopen the
/// keychain and check that every acknowledged operation is there and nothing is half-written.
struct CrashRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crash",
        abstract: "Kill a writing process at random moments and check that nothing acknowledged is lost."
    )

    @Option(help: "Kill points to run.") var kills = 200
    @Option(help: "The seed of the whole run (random when omitted; printed for a replay).") var seed: UInt64?
    @Option(help: "Longest wait after the worker is ready before the kill, in milliseconds.") var maxDelay = 80.0
    @Option(help: "Where to create the keychain home (a new temporary directory when omitted).") var home: String?
    @Option(help: "Append the summary as one JSON line to this file.") var results: String?
    @Flag(help: "Use a worker that acknowledges before it writes: the harness must then report losses.")
    var brokenWorker = false
    @Flag(
        help:
            "Serve the keychain from a securityd (beside this program) and kill the daemon in the middle of the worker's writes."
    )
    var throughDaemon = false

    func run() throws {
        let seed = seed ?? UInt64.random(in: 1...UInt64.max)
        var generator = SplitMix64(seed: seed)
        let home = URL(fileURLWithPath: home ?? NSTemporaryDirectory() + "keychain-crash-\(seed)")
        try? FileManager.default.removeItem(at: home)
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        // A daemon serves only a home inside a private folder, and listens in one.
        let daemon = try throughDaemon ? StressDaemon(folder: home) : nil
        let keychainHome = daemon?.home ?? home
        print("crash: seed \(seed), \(kills) kill points, keychain \(keychainHome.path)")

        var model = KeychainModel()
        try Self.withDevice(keychainHome) { device in try device.setPasscode(KeychainModel.passcode(0)) }
        var tally = CrashTally()
        for round in 0..<kills {
            let journalURL = home.appendingPathComponent("journal-\(round)")
            let server = try daemon?.start()
            let worker = try ChildProcess.start(
                [
                    "crash-worker", "--home", keychainHome.path, "--journal", journalURL.path,
                    "--seed", String(SplitMix64.derive(seed, round)),
                    "--passcode-index", String(model.passcodeIndex),
                    "--first-version", String(UInt64(round + 1) << 32),
                ] + (brokenWorker ? ["--acknowledge-early"] : []) + (daemon?.workerArguments ?? [])
            )
            // One kill in ten lands while the worker opens, unlocks and lists; the others while it writes.
            if generator.next() % 10 == 0 {
                ChildProcess.sleep(milliseconds: Double(generator.next() % 60))
            } else {
                try Self.waitUntilReady(journalURL, worker: worker)
                ChildProcess.sleep(milliseconds: Double(generator.next() % 1_000) / 1_000 * maxDelay)
            }
            // Through the daemon, the daemon dies: the worker's call in flight then fails, which
            // leaves its outcome unknown, as a kill does.
            let serverKilled = server.map { ChildProcess.terminate($0) } ?? true
            let killed = ChildProcess.terminate(worker)
            let journal = try CrashJournal.read(journalURL)
            try? FileManager.default.removeItem(at: journalURL)
            if let failure = journal.failure, server == nil {
                throw StressError("round \(round): the worker failed: \(failure)")
            }
            guard killed || server != nil, serverKilled else {
                throw StressError("round \(round): the \(serverKilled ? "worker" : "daemon") exited by itself")
            }

            var expected = model
            for operation in journal.acknowledged { expected = operation.apply(to: expected) }
            model = try Self.verify(keychainHome, expected: expected, inFlight: journal.inFlight, round: round)
            tally.record(journal)
            if (round + 1) % 50 == 0 {
                print("crash: \(round + 1) kill points, \(tally.acknowledged) operations acknowledged")
            }
        }
        print(tally.summary(seed: seed))
        if let results { try tally.append(to: URL(fileURLWithPath: results), seed: seed) }
        try? FileManager.default.removeItem(at: home)
    }

    private static func withDevice<T>(_ home: URL, _ body: (Device) throws -> T) throws -> T {
        let device = try Device.stress(home)
        return try Device.withCurrent(device) { try body(device) }
    }

    private static func waitUntilReady(_ journal: URL, worker: Process) throws {
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline {
            if let data = try? Data(contentsOf: journal), data.first == UInt8(ascii: "R") { return }
            if !worker.isRunning {
                throw StressError("the worker exited before it was ready (\(worker.terminationStatus))")
            }
            ChildProcess.sleep(milliseconds: 1)
        }
        throw StressError("the worker was not ready within 60 s")
    }

    /// Reopens the keychain as a new process would and checks it against the model; returns the
    /// state found (the in-flight operation either happened entirely or not at all).
    private static func verify(
        _ home: URL,
        expected: KeychainModel,
        inFlight: CrashJournal.Operation?,
        round: Int
    ) throws -> KeychainModel {
        let allowed = [expected] + (inFlight.map { [$0.apply(to: expected)] } ?? [])
        return try withDevice(home) { device in
            let problems = try device.keychain.integrityProblems()
            guard problems.isEmpty else { throw StressError("round \(round): SQLite integrity check: \(problems)") }
            var passcodeIndex: Int?
            for candidate in Set(allowed.map(\.passcodeIndex)).sorted(by: >) {
                do {
                    try device.unlock(passcode: KeychainModel.passcode(candidate))
                    passcodeIndex = candidate
                    break
                } catch {
                    continue
                }
            }
            guard let passcodeIndex else {
                throw StressError(
                    "round \(round): the keychain no longer opens with the passcode (in flight: \(inFlight?.description ?? "none"))"
                )
            }
            switch StressItems(service: "crash").list() {
            case .failed(let status):
                throw StressError("round \(round): listing the items failed with \(status)")
            case .damaged(let reason):
                throw StressError("round \(round): half-written item: \(reason)")
            case .items(let items):
                let found = KeychainModel(items: items, passcodeIndex: passcodeIndex)
                guard allowed.contains(found) else {
                    let missing = expected.items.filter { items[$0.key] != $0.value }.map(\.key).sorted()
                    let extra = items.filter { expected.items[$0.key] == nil }.map(\.key).sorted()
                    throw StressError(
                        "round \(round): lost or unexpected state (in flight: \(inFlight?.description ?? "none"); "
                            + "items differing from the acknowledged state: \(missing), unexpected: \(extra))"
                    )
                }
                return found
            }
        }
    }
}

/// Kill points by what the worker was doing when it died.
struct CrashTally {
    var byKind: [String: Int] = [:]
    var acknowledged = 0

    mutating func record(_ journal: CrashJournal.Record) {
        let kind = !journal.ready ? "opening" : journal.inFlight?.kind ?? "between operations"
        byKind[kind, default: 0] += 1
        acknowledged += journal.acknowledged.count
    }

    var kills: Int { byKind.values.reduce(0, +) }

    func summary(seed: UInt64) -> String {
        let kinds = byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        return
            "crash: \(kills) kill points (\(kinds)); \(acknowledged) operations acknowledged; 0 lost, 0 half-written; seed \(seed)"
    }

    func append(to url: URL, seed: UInt64) throws {
        var record: [String: Any] = [
            "test": "crash", "seed": String(seed), "kills": kills, "acknowledged": acknowledged, "lost": 0,
        ]
        record["kill_points"] = byKind
        try JSONLines.append(record, to: url)
    }
}
