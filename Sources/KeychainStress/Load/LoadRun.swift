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

/// One user floods a system-mode `securityd` while two others read and write (issue 34).
///
/// Their 99th percentile stays within `--allowed-slowdown` (5×) of a run without the flood and
/// none of their calls fails. Run as root: the daemon and the users are this machine's (uids
/// without accounts, through `setpriv`).
struct LoadRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract:
            "Flood a system-mode securityd as one user while two others use it; compare their latency with a quiet run."
    )

    @Option(help: "Seconds of each phase (quiet, then flooded).") var seconds: Double = 15
    @Option(help: "Processes of the flooding user (each takes its own share; together, the user's).")
    var flooders = 5
    @Option(help: "The first of the three uids used (readers, then the flooder).") var firstUid: UInt32 = 61201

    @Option(
        help:
            "How much slower the other users' 99th percentile may be under the flood (the issue's criterion; a test run beside other tests allows more)."
    )
    var allowedSlowdown = 5.0

    @Option(
        help:
            "A flooded 99th percentile under this many milliseconds passes whatever the ratio (0: none; for a test run beside other tests, where the quiet run is not quiet)."
    )
    var allowedLatency = 0.0

    func run() throws {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw StressError("load runs as root with setpriv (it runs the users' processes)")
        }
        let root = URL(fileURLWithPath: "/tmp/kc-load-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755]
        )
        // A copy every user can run (the build folder may be closed to them).
        let stress = root.appendingPathComponent("keychain-stress")
        try FileManager.default.copyItem(at: ChildProcess.executable, to: stress)
        let socket = root.appendingPathComponent("run/socket").path
        let settings = root.appendingPathComponent("securityd.conf")
        // Its users are bare uids, without accounts.
        try Data("passcode-cost = testing\npinentry = none\nserve-uids-without-account = yes\n".utf8).write(
            to: settings
        )
        let daemon = try ChildProcess.start(
            ChildProcess.executable.deletingLastPathComponent().appendingPathComponent("securityd"),
            [
                "--system", "--state-directory", root.appendingPathComponent("state").path, "--socket", socket,
                "--config", settings.path,
            ],
            quiet: true
        )
        defer { _ = ChildProcess.terminate(daemon) }
        let started = Date()
        while !FileManager.default.fileExists(atPath: socket) {
            guard daemon.isRunning, Date().timeIntervalSince(started) < 180 else {
                throw StressError("securityd --system did not start")
            }
            ChildProcess.sleep(milliseconds: 20)
        }
        let readers = [firstUid, firstUid + 1]
        let flooder = firstUid + 2
        func asUser(_ uid: UInt32, _ arguments: [String]) throws -> ChildProcess.Captured {
            try ChildProcess.startCapturing(
                URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", stress.path] + arguments
            )
        }
        func readersRun() throws -> [LoadReader.Report] {
            let running = try readers.map {
                try asUser($0, ["load-reader", "--socket", socket, "--seconds", "\(seconds)"])
            }
            return try running.map { reader in
                let (stdout, stderr) = reader.output()
                guard reader.process.terminationStatus == 0 else { throw StressError("a reader failed: \(stderr)") }
                return try JSONDecoder().decode(LoadReader.Report.self, from: stdout)
            }
        }

        print("quiet: two users read and write for \(seconds) s")
        let quiet = try readersRun()
        print("flooded: a third user floods with \(flooders) processes meanwhile")
        let flooding = try (0..<flooders).map { _ in
            try asUser(flooder, ["load-flood", "--socket", socket, "--seconds", "\(seconds + 2)"])
        }
        let loaded = try readersRun()
        let floods = try flooding.map { flood in
            let (stdout, stderr) = flood.output()
            guard flood.process.terminationStatus == 0 else { throw StressError("a flooder failed: \(stderr)") }
            return try JSONDecoder().decode(LoadFlood.Report.self, from: stdout)
        }
        guard daemon.isRunning else { throw StressError("securityd exited under the flood") }

        var failed = false
        for (index, (before, during)) in zip(quiet, loaded).enumerated() {
            let (p50, p99) = (Self.percentile(during.latencies, 0.50), Self.percentile(during.latencies, 0.99))
            let quietP99 = Self.percentile(before.latencies, 0.99)
            let ratio = p99 / max(quietP99, 1)
            print(
                String(
                    format:
                        "user %d: quiet %d calls p99 %.0f µs; flooded %d calls p50 %.0f µs p99 %.0f µs (%.2f×), failures %@",
                    index + 1,
                    before.operations,
                    quietP99,
                    during.operations,
                    p50,
                    p99,
                    ratio,
                    "\(during.failures.merging(before.failures) { $0 + $1 })"
                )
            )
            let tooSlow = ratio > allowedSlowdown && p99 >= allowedLatency * 1000
            if !during.failures.isEmpty || !before.failures.isEmpty || tooSlow { failed = true }
        }
        for (index, flood) in floods.enumerated() {
            print(
                "flooder \(index + 1): \(flood.connections) connections (refused \(flood.refusedConnections)), "
                    + "\(flood.contexts) contexts (refused \(flood.refusedContexts)), "
                    + "\(flood.parkedEvaluations) evaluations parked (refused \(flood.refusedEvaluations)), "
                    + "\(flood.refusedFrames) frames refused, \(flood.reconnections) reconnections"
            )
        }
        if failed {
            throw StressError("the flood slowed the other users past \(allowedSlowdown)× or made their calls fail")
        }
        print("the other users were served throughout")
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
}
