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
import KeychainContract
import KeychainDevice
import KeychainTestSupport
import Testing

#if canImport(CoreFoundation)
// `struct stat` for the log's mode (member import visibility).
import CoreFoundation
#endif

/// Daemons a client starts leave nothing behind: one for a throw-away home exits when idle, each
/// logs where `security daemon log` finds it, and lock files go with their daemons.
@Suite struct DaemonHousekeepingTests {
    /// The arguments of a running process.
    static func commandLine(of processID: Int32) -> [String] {
        let data = FileManager.default.contents(atPath: "/proc/\(processID)/cmdline") ?? Data()
        return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    }

    static func processID(holding endpoint: DaemonEndpoint) -> Int32? {
        (try? String(contentsOfFile: endpoint.lockPath, encoding: .utf8)).flatMap {
            Int32($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    /// Whether `processID` ends within `seconds`.
    static func waitForExit(_ processID: Int32, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        // Gone, or a zombie nobody has reaped yet (a daemon whose launcher exited is no child of ours).
        func isZombie() -> Bool {
            (try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8))?.split(separator: " ")[2] == "Z"
        }
        while kill(processID, 0) == 0, !isZombie() {
            guard Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return true
    }

    @Test(
        .enabled(
            if: ["", "auto"].contains(ProcessInfo.processInfo.environment["KEYCHAIN_ENGINE"] ?? ""),
            "a client starts a daemon with the default engine only"
        )
    )
    func aDaemonAClientStartsForAThrowAwayHomeExitsWhenIdleAndLogsWhereTheToolFindsIt() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_HOME"] = tool.home.path
        let endpoint = DaemonEndpoint.forHome(tool.home, environment: environment)

        // Lock files a killed daemon left (no socket, nobody holds them) go when a daemon starts
        // there; one still held, or whose socket exists, stays.
        try FileManager.default.createDirectory(atPath: endpoint.directory, withIntermediateDirectories: true)
        let stale = endpoint.directory + "/home-\(UUID().uuidString.prefix(8)).socket.lock"
        let held = endpoint.directory + "/home-\(UUID().uuidString.prefix(8)).socket.lock"
        #expect(FileManager.default.createFile(atPath: stale, contents: Data("1\n".utf8)))
        let holder = open(held, O_RDWR | O_CREAT, 0o600)
        defer {
            close(holder)
            unlink(held)
        }
        #expect(flock(holder, LOCK_EX) == 0)

        #expect(
            try tool.run(["add-generic-password", "-a", "idle-account", "-s", "Idle", "-w", "idle-secret"]).status == 0
        )
        let processID = try #require(Self.processID(holding: endpoint))
        defer { kill(processID, SIGTERM) }
        let arguments = Self.commandLine(of: processID)
        #expect(arguments.contains("--exit-when-idle") && arguments.contains("\(DaemonLauncher.idleExit)"))
        #expect(arguments.contains("--log-file") && arguments.contains(endpoint.logPath))
        #expect(!FileManager.default.fileExists(atPath: stale))
        #expect(FileManager.default.fileExists(atPath: held))

        // Its log, found by the tool.
        let log = try tool.run(["daemon", "log"])
        #expect(log.status == 0)
        #expect(log.stdout.contains("[SecurityDaemon] listening"))
        #expect(
            !log.stdout.contains("Idle") && !log.stdout.contains("idle-account") && !log.stdout.contains("idle-secret")
        )
        var mode = stat()
        #expect(stat(endpoint.logPath, &mode) == 0 && mode.st_mode & 0o077 == 0)

        // Stopped, it leaves neither its socket nor its lock file.
        kill(processID, SIGTERM)
        #expect(Self.waitForExit(processID, seconds: 60))
        #expect(!FileManager.default.fileExists(atPath: endpoint.socketPath))
        #expect(!FileManager.default.fileExists(atPath: endpoint.lockPath))
    }

    /// `--exit-when-idle`, which a client asks for any home but the standard one: the daemon
    /// exits once no client has been connected that long, and takes its files with it.
    @Test func anIdleDaemonExitsAndTakesItsFiles() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kc-idle-\(UUID().uuidString.prefix(8))"
        )
        defer { try? FileManager.default.removeItem(at: root) }
        let endpoint = DaemonEndpoint(socketPath: root.appendingPathComponent("run/socket").path)
        let daemon = Process()
        daemon.executableURL = PrivateDaemon.executable
        daemon.arguments = [
            "--keychain", root.appendingPathComponent("home").path, "--socket", endpoint.socketPath,
            "--exit-when-idle", "5", "--log-file", endpoint.logPath, "--config",
            root.appendingPathComponent("conf").path,
        ]
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try PrivateDaemon.writeSettings([:], to: root.appendingPathComponent("conf"))
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate() } }
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_SOCKET"] = endpoint.socketPath
        environment["KEYCHAIN_ENGINE"] = "daemon"
        // A connection held from the start until the tool's request is done: a daemon whose clients
        // came later than its idle time allows would be gone already.
        let deadline = Date().addingTimeInterval(60)
        var connected: Int32?
        while connected == nil && Date() < deadline {
            connected = try? RawClient.connect(endpoint.socketPath)
            if connected == nil { Thread.sleep(forTimeInterval: 0.02) }
        }
        let held = try #require(connected)
        var isHeld = true
        defer { if isHeld { close(held) } }
        let tool = SecurityToolRunner(home: root.appendingPathComponent("home"))
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "Idle", "-w", "x"], environment: environment).status
                == 0
        )
        close(held)
        isHeld = false
        #expect(Self.waitForExit(daemon.processIdentifier, seconds: 60))
        daemon.waitUntilExit()
        #expect(daemon.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: endpoint.socketPath))
        #expect(!FileManager.default.fileExists(atPath: endpoint.lockPath))
        let log = try String(contentsOfFile: endpoint.logPath, encoding: .utf8)
        #expect(log.contains("listening"))
    }
}
