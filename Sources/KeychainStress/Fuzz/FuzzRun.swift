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
import KeychainServices

#if canImport(Glibc)
import Glibc
import KeychainTesting
#endif

/// The hostile-input fuzzer: mutated corpus cases and random dictionaries against the four
/// `SecItem*` functions and `SecAccessControlCreateWithFlags`, on a keychain that holds ordinary
/// and access-controlled items.
///
/// A crash ends the process; a hang is caught by a watchdog; a status outside the documented ones
/// is a failure.
struct FuzzRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz",
        abstract: "Feed hostile query dictionaries to SecItem* and SecAccessControlCreateWithFlags."
    )

    @Option(help: "Executions to run.") var executions = 100_000
    @Option(help: "The seed (random when omitted; with --start, replays a run from an execution).") var seed: UInt64?
    @Option(help: "The first execution to run (earlier ones are generated and skipped).") var start = 0
    @Option(help: "A directory of corpus cases (JSON).") var corpus: String?
    @Option(help: "Seconds one execution may take before it counts as a hang.") var hangSeconds = 20.0
    @Option(help: "Append the summary as one JSON line to this file.") var results: String?

    /// The statuses the API documents for these functions; anything else is a failure.
    static let documented: Set<OSStatus> = [
        errSecSuccess, errSecParam, errSecNoSuchClass, errSecNoSuchAttr, errSecDuplicateItem, errSecItemNotFound,
        errSecInteractionNotAllowed, errSecNotAvailable, errSecAuthFailed, errSecUserCanceled,
        errSecMissingEntitlement, errSecDecode, errSecUnimplemented, errSecDataTooLarge,
    ]

    func run() throws {
        let seed = seed ?? UInt64.random(in: 1...UInt64.max)
        let cases = try corpus.map(Self.loadCorpus) ?? []
        let home = URL(fileURLWithPath: NSTemporaryDirectory() + "keychain-fuzz-\(seed)")
        try? FileManager.default.removeItem(at: home)
        defer { try? FileManager.default.removeItem(at: home) }
        let device = try Device.stress(home)
        Device.setProcessDefault(device)
        try device.setPasscode("fuzz-passcode")
        print("fuzz: seed \(seed), \(executions) executions, \(cases.count) corpus cases")

        let watchdog = Watchdog(limit: hangSeconds, seed: seed)
        var values = HostileValues(generator: SplitMix64(seed: seed))
        var tally = FuzzTally()
        let started = Date()
        for execution in 0..<(start + executions) {
            if execution % 5_000 == 0 && execution >= start { Self.reset() }
            let fuzzCase = Self.next(&values, corpus: cases)
            guard execution >= start else { continue }
            watchdog.begin(execution)
            let status = fuzzCase.run()
            watchdog.end()
            tally.record(fuzzCase.function, status: status, execution: execution, documented: Self.documented)
            if (execution + 1) % 100_000 == 0 {
                print("fuzz: \(execution + 1) executions, \(tally.failures.count) failures")
            }
        }
        let elapsed = Date().timeIntervalSince(started)
        print(tally.summary(seconds: elapsed, seed: seed))
        for failure in tally.failures.prefix(20) { FileHandle.standardError.write(Data("\(failure)\n".utf8)) }
        if let results { try tally.append(to: URL(fileURLWithPath: results), seed: seed, seconds: elapsed) }
        guard tally.failures.isEmpty else { throw ExitCode(1) }
    }

    private static func loadCorpus(_ path: String) throws -> [FuzzCase] {
        let directory = URL(fileURLWithPath: path)
        return try FileManager.default.contentsOfDirectory(atPath: path).sorted().filter { $0.hasSuffix(".json") }
            .map { try FuzzCase(corpusFile: directory.appendingPathComponent($0)) }
    }

    /// A corpus case with one to four mutations, or (one time in four) a random case.
    private static func next(_ values: inout HostileValues, corpus: [FuzzCase]) -> FuzzCase {
        var fuzzCase: FuzzCase
        if corpus.isEmpty || values.chance(25) {
            fuzzCase = FuzzCase(
                function: values.pick(FuzzCase.Function.allCases),
                query: values.dictionary(),
                changes: values.dictionary(),
                flags: values.flagBits()
            )
        } else {
            fuzzCase = values.pick(corpus)
        }
        for _ in 0...values.below(4) {
            switch values.below(7) {
            case 0: fuzzCase.query[values.key()] = values.value()
            case 1:
                if let key = fuzzCase.query.keys.randomElement(using: &values.generator) { fuzzCase.query[key] = nil }
            case 2:
                if let key = fuzzCase.query.keys.randomElement(using: &values.generator) {
                    fuzzCase.query[key] = values.value()
                }
            case 3: fuzzCase.changes[values.key()] = values.value()
            case 4: fuzzCase.query[kSecClass as String] = values.value()
            case 5: fuzzCase.flags ^= CFOptionFlags(1) << CFOptionFlags(values.below(32))
            default: fuzzCase.wantsResult.toggle()
            }
        }
        return fuzzCase
    }

    /// Empties the keychain and adds the standing items: plain, passcode-bound, biometric,
    /// application-password, so that queries meet every kind.
    private static func reset() {
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {
            _ = SecItemDelete([kSecClass as String: itemClass] as CFDictionary)
        }
        let flags: [SecAccessControlCreateFlags] = [
            [], .devicePasscode, .biometryAny, .applicationPassword, .userPresence,
        ]
        for (index, flag) in flags.enumerated() {
            var item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "service-\(index % 4)",
                kSecAttrAccount as String: "account-\(index)",
                kSecValueData as String: Data("standing item \(index)".utf8),
            ]
            if !flag.isEmpty,
                let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flag, nil)
            {
                item[kSecAttrAccessControl as String] = access
            }
            _ = SecItemAdd(item as CFDictionary, nil)
        }
    }
}

/// Statuses by function; executions whose status is not documented.
struct FuzzTally {
    var byFunction: [String: [OSStatus: Int]] = [:]
    var failures: [String] = []
    var executions = 0

    mutating func record(_ function: FuzzCase.Function, status: OSStatus, execution: Int, documented: Set<OSStatus>) {
        executions += 1
        byFunction[function.rawValue, default: [:]][status, default: 0] += 1
        if !documented.contains(status) {
            failures.append("execution \(execution): \(function.rawValue) returned undocumented status \(status)")
        }
    }

    func summary(seconds: Double, seed: UInt64) -> String {
        let lines = byFunction.sorted { $0.key < $1.key }.map { function, statuses in
            "  \(function): "
                + statuses.sorted { $0.value > $1.value }.map { "\($0.key)×\($0.value)" }.joined(separator: " ")
        }
        return
            (["fuzz: statuses by function"] + lines + [
                "fuzz: \(executions) executions in \(String(format: "%.0f", seconds)) s; 0 crashes, 0 hangs, "
                    + "\(failures.count) undocumented statuses; seed \(seed)"
            ]).joined(separator: "\n")
    }

    func append(to url: URL, seed: UInt64, seconds: Double) throws {
        try JSONLines.append(
            [
                "test": "fuzz", "seed": String(seed), "executions": executions, "crashes": 0, "hangs": 0,
                "undocumented_statuses": failures.count, "seconds": seconds,
            ],
            to: url
        )
    }
}

/// Ends the process if one execution runs longer than `limit` seconds, naming the execution.
final class Watchdog: @unchecked Sendable {
    private let lock = NSLock()
    private var current: (execution: Int, started: Date)?

    init(limit: Double, seed: UInt64) {
        Thread { [self] in
            while true {
                usleep(250_000)
                lock.lock()
                let running = current
                lock.unlock()
                if let running, Date().timeIntervalSince(running.started) > limit {
                    FileHandle.standardError.write(
                        Data(
                            "fuzz: hang: execution \(running.execution) ran over \(limit) s (replay: --seed \(seed) --start \(running.execution))\n"
                                .utf8
                        )
                    )
                    exit(3)
                }
            }
        }.start()
    }

    func begin(_ execution: Int) {
        lock.lock()
        current = (execution, Date())
        lock.unlock()
    }

    func end() {
        lock.lock()
        current = nil
        lock.unlock()
    }
}
