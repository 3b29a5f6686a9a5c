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

@main
struct KeychainBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keychain-bench",
        abstract: "Measures swift-keychain through its public API against SQLite and swift-crypto floors.",
        subcommands: [
            RunCommand.self, ProbeCommand.self, ClientCommand.self, EchoCommand.self, BackupCommand.self,
            TPMCommand.self, SyncCommand.self,
        ],
        defaultSubcommand: RunCommand.self
    )
}

/// The whole in-process benchmark: every size, the floors, the protected items.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "run", abstract: "Runs every measurement.")

    @Option(
        help: "Keychain sizes, comma-separated.",
        transform: { text in
            try text.split(separator: ",").map { value in
                guard let size = Int(value.trimmingCharacters(in: .whitespaces)), size > 0 else {
                    throw ValidationError("not a size: \(value)")
                }
                return size
            }
        }
    )
    var sizes: [Int] = [1_000, 10_000, 100_000, 1_000_000]

    @Option(help: "Operations timed per phase at each size (at most the size).")
    var sample = 10_000

    @Option(help: "Items in the passcode, application-password and biometry runs.")
    var protectedItems = 1_000

    @Option(help: "Keychain sizes at which setting and changing the passcode are timed, comma-separated (none: skip).")
    var rekeySizes = "10000,100000"

    @Option(help: "AES-GCM operations per message size.")
    var aesOperations = 100_000

    @Option(help: "Operations per key phase: signing, verifying, ECIES (0: skip).")
    var keyOperations = 2_000

    @Option(help: "Items backed up and restored, beside storing them (0: skip).")
    var backupItems = 100_000

    @Option(help: "Items stored and looked up with swtpm beside the file store (0: skip).")
    var tpmItems = 1_000

    @Option(help: "Items in the run through securityd beside the in-process engine (0: skip).")
    var daemonItems = 1_000

    @Option(help: "Client processes looking up at once through each engine.")
    var daemonClients = 4

    @Option(help: "Where results are appended, one JSON object per line.")
    var out: String

    @Option(help: "A directory for the keychains and databases (removed afterwards).")
    var workdir = "/var/tmp/keychain-bench"

    @Flag(help: "Keep the keychains (for profiling with `probe`).")
    var keep = false

    func run() throws {
        let directory = URL(fileURLWithPath: workdir, isDirectory: true)
            .appendingPathComponent("run-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let log = try ResultLog(url: URL(fileURLWithPath: out))
        let workload = Workload()
        defer {
            if keep {
                log.echo("kept \(directory.path) (prefix \(workload.prefix), seed \(workload.seed))")
            } else {
                try? FileManager.default.removeItem(at: directory)
            }
        }
        let crypto = CryptoFloor(log: log)

        var rowBytes: Int?
        for size in sizes {
            let sampled = min(size, sample)
            log.echo("size \(size) (\(sampled) timed operations per phase)")
            let home = try SizeRun(size: size, sample: sampled, workload: workload, directory: directory, log: log)
                .run()
            if rowBytes == nil {
                let files = KeychainFiles(directory: home)
                rowBytes = try files.meanRowBytes()
                let columns = try files.meanColumnBytes()
                let messageSizes = [64] + ["data", "skey"].compactMap { columns[$0] }.filter { $0 > 0 }
                crypto.aesGCM(byteCounts: messageSizes.map { $0 }, operations: aesOperations)
            }
            let probe = OpenProbe(home: home, size: size, lookups: min(size, 20_000), workload: workload)
            let (result, wall) = try probe.measureInChildProcess()
            log.record(
                SizeRun.subject,
                "open + first item",
                size: size,
                value: result.firstItemMilliseconds,
                unit: "ms",
                extra: ["open_ms": result.openMilliseconds, "process_wall_ms": wall]
            )
            log.record(
                SizeRun.subject,
                "lookup loop peak RSS",
                size: size,
                value: Double(result.peakResidentBytes) / 1_048_576,
                unit: "MiB",
                extra: [
                    "lookups_per_s": result.lookupsPerSecond, "lookups": probe.lookups,
                    "errors": result.lookupErrors, "rss_after_mib": Double(result.residentAfterBytes) / 1_048_576,
                ]
            )
            if !keep { try? FileManager.default.removeItem(at: home) }
            try SQLiteFloor(
                size: size,
                sample: sampled,
                rowBytes: rowBytes ?? 0,
                workload: workload,
                directory: directory,
                log: log
            ).run()
        }
        crypto.scrypt(log2Rounds: 16, repeats: 5)
        if protectedItems > 0 {
            log.echo("passcode, application password, biometry (\(protectedItems) items)")
            try ProtectedItemRun(count: protectedItems, directory: directory, seed: workload.seed, log: log).run()
        }
        if keyOperations > 0 {
            log.echo("key operations (\(keyOperations) each)")
            try KeyOperationRun(operations: keyOperations, directory: directory, log: log).run()
        }
        if daemonItems > 0 {
            log.echo("securityd beside the in-process engine (\(daemonItems) items, \(daemonClients) client processes)")
            try DaemonRun(
                count: daemonItems,
                sample: min(daemonItems, sample),
                clients: daemonClients,
                workload: workload,
                directory: directory,
                log: log
            ).run()
        }
        if tpmItems > 0 {
            log.echo("the TPM beside the file store (\(tpmItems) items, swtpm)")
            try TPMRun(items: tpmItems, operations: min(keyOperations, 500), directory: directory, log: log).run()
        }
        if backupItems > 0 {
            log.echo("backup and restore (\(backupItems) items)")
            try BackupRun(size: backupItems, directory: directory, seed: workload.seed, log: log).run()
        }
        let rekeyed = rekeySizes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        log.echo(
            "data protection: passcode over \(rekeyed.map(String.init).joined(separator: ", ")) items, log truncation"
        )
        try DataProtectionRun(sizes: rekeyed, directory: directory, seed: workload.seed, log: log).run()
    }
}

/// The child-process half of ``OpenProbe``: prints its result as JSON.
struct ProbeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Opens a filled keychain (internal)."
    )

    @Option var home: String
    @Option var size: Int
    @Option var lookups: Int
    @Option var prefix: String
    @Option var seed: UInt64

    func run() throws {
        let probe = OpenProbe(
            home: URL(fileURLWithPath: home, isDirectory: true),
            size: size,
            lookups: lookups,
            workload: Workload(prefix: prefix, seed: seed)
        )
        let result = try probe.measure()
        FileHandle.standardOutput.write(try JSONEncoder().encode(result))
    }
}

/// Backup and restore alone: `keychain-bench backup --items 100000 --out r.jsonl`.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "backup", abstract: "Times backup and restore alone.")

    @Option(help: "Items stored, backed up and restored.") var items = 100_000
    @Option(help: "Where results are appended, one JSON object per line.") var out: String
    @Option(help: "A directory for the keychains (removed afterwards).") var workdir = "/var/tmp/keychain-bench"

    func run() throws {
        let directory = URL(fileURLWithPath: workdir, isDirectory: true).appendingPathComponent("backup-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try ResultLog(url: URL(fileURLWithPath: out))
        try BackupRun(size: items, directory: directory, seed: Workload().seed, log: log).run()
    }
}

/// The TPM beside the file store alone: `keychain-bench tpm --items 1000 --out r.jsonl`.
struct TPMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tpm",
        abstract: "Times unlocking, items and enclave keys with swtpm beside the file store."
    )

    @Option(help: "Items stored and looked up in each keychain.") var items = 1_000
    @Option(help: "Signatures and agreements timed.") var operations = 500
    @Option(help: "Where results are appended, one JSON object per line.") var out: String
    @Option(help: "A directory for the keychains and swtpm (removed afterwards).") var workdir =
        "/var/tmp/keychain-bench"

    func run() throws {
        let directory = URL(fileURLWithPath: workdir, isDirectory: true).appendingPathComponent("tpm-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try ResultLog(url: URL(fileURLWithPath: out))
        try TPMRun(items: items, operations: operations, directory: directory, log: log).run()
    }
}

/// Synchronisation through a PostgreSQL server: `keychain-bench sync --server postgres://… --out r.jsonl`.
struct SyncCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Times changes reaching other devices, a new device's first sync, and SecItemAdd in a circle."
    )

    @Option(help: "The circle's server (postgres://USER:PASSWORD@127.0.0.1:PORT/DATABASE).") var server: String
    @Option(help: "Changes timed until two other devices hold them.") var changes = 200
    @Option(help: "Items a new device receives.") var initialItems = 10_000
    @Option(help: "SecItemAdd calls per round, in a circle and in none.") var writes = 500
    @Option(help: "Where results are appended, one JSON object per line.") var out: String
    @Option(help: "A directory for the keychains (removed afterwards).") var workdir = "/var/tmp/keychain-bench"

    func run() throws {
        let directory = URL(fileURLWithPath: workdir, isDirectory: true).appendingPathComponent("sync-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try ResultLog(url: URL(fileURLWithPath: out))
        try SyncRun(
            server: server,
            changes: changes,
            initialItems: initialItems,
            writes: writes,
            directory: directory,
            log: log
        ).run()
    }
}
