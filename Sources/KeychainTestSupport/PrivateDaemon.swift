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

package import Foundation
package import KeychainContract
import KeychainCore
import KeychainDevice

/// A `securityd` of its own for one test: a throw-away home and socket, stopped with SIGTERM.
package final class PrivateDaemon {
    package let root: URL
    package let home: URL
    package let endpoint: DaemonEndpoint
    private var process: Process
    /// Variables the daemon runs with beyond the test's own.
    private let environment: [String: String]
    /// Options beyond the keychain, socket and configuration (`--secret-service`).
    private let arguments: [String]
    /// The daemon's configuration file (`--config`).
    package let settingsFile: URL
    /// The network namespace it runs in (`ip netns exec`), if not the test's own.
    private let networkNamespace: String?

    package static var executable: URL {
        SecurityToolRunner.executable.deletingLastPathComponent().appendingPathComponent("securityd")
    }

    /// Starts a daemon; with `user`, as that user (`setpriv`, which needs root); with
    /// `memoryLockLimit`, under that `RLIMIT_MEMLOCK` (`prlimit`; raising it needs root); `confined`,
    /// with `no_new_privs` and a seccomp filter, as the shipped unit runs it (``SandboxConfinement``).
    ///
    /// Its configuration file holds `settings` (`securityd.conf`'s names): it shows no pinentry
    /// unless they name one.
    package init(
        user: UInt32? = nil,
        idleTimeout: Int? = nil,
        memoryLockLimit: String? = nil,
        confined: Bool = false,
        settings: [String: String] = [:],
        environment: [String: String] = [:],
        arguments: [String] = [],
        networkNamespace: String? = nil
    ) throws {
        self.environment = environment
        self.arguments = arguments
        self.networkNamespace = networkNamespace
        root = URL(fileURLWithPath: "/tmp/kc-daemon-\(UUID().uuidString.prefix(8))")
        home = root.appendingPathComponent("home")
        settingsFile = root.appendingPathComponent("securityd.conf")
        endpoint = DaemonEndpoint(socketPath: root.appendingPathComponent("run/socket").path)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Self.writeSettings(settings, to: settingsFile)
        var executable = Self.executable
        if let user {
            guard chown(root.path, user, user) == 0 else { throw DaemonError.didNotStart }
            // The build folder may be closed to that user (a checkout in a private folder): run a copy.
            if try !Self.succeeds(["/usr/bin/test", "-x", executable.path], as: user) {
                let copy = root.appendingPathComponent("securityd")
                try FileManager.default.copyItem(at: executable, to: copy)
                executable = copy
            }
        }
        process = try Self.launch(
            executable,
            home: home,
            endpoint: endpoint,
            settingsFile: settingsFile,
            user: user,
            idleTimeout: idleTimeout,
            memoryLockLimit: memoryLockLimit,
            confined: confined,
            environment: environment,
            arguments: arguments,
            networkNamespace: networkNamespace,
            log: root.appendingPathComponent("daemon.log")
        )
        // Generous: a machine running the whole suite (Xvfb, fprintd, other daemons) is slow to start
        // one (a loopback run once gave up on a start after 60 s); a daemon that exits ends the wait.
        let deadline = Date().addingTimeInterval(180)
        while !FileManager.default.fileExists(atPath: endpoint.socketPath) {
            guard process.isRunning else {
                process.waitUntilExit()
                let log = (try? String(contentsOf: root.appendingPathComponent("daemon.log"), encoding: .utf8)) ?? ""
                throw DaemonError.exited(status: process.terminationStatus, log: String(log.suffix(2_000)))
            }
            guard Date() < deadline else { throw DaemonError.didNotStart }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    package var isRunning: Bool { process.isRunning }

    /// The daemon's process ID.
    package var processID: Int32 { process.processIdentifier }

    /// Kills the daemon with SIGKILL (no clean-up at all), then starts a new one on the same home
    /// and socket, as a crash and a restart would.
    package func killAndRestart() throws {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        process = try Self.launch(
            Self.executable,
            home: home,
            endpoint: endpoint,
            settingsFile: settingsFile,
            environment: environment,
            arguments: arguments,
            networkNamespace: networkNamespace,
            log: root.appendingPathComponent("daemon.log")
        )
        let deadline = Date().addingTimeInterval(60)
        // The killed daemon's socket file stays: wait until the new one answers.
        while (try? RawClient.connect(endpoint.socketPath)).map({ close($0) }) == nil {
            guard process.isRunning, Date() < deadline else { throw DaemonError.didNotStart }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    /// Starts another daemon for the same home and socket.
    package func startAnother() throws -> Process {
        try Self.launch(
            Self.executable,
            home: home,
            endpoint: endpoint,
            settingsFile: settingsFile,
            environment: environment,
            arguments: arguments
        )
    }

    /// Stops the daemon (SIGTERM) and removes its files; its exit status.
    @discardableResult
    package func stop() -> Int32 {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        defer { try? FileManager.default.removeItem(at: root) }
        return process.terminationStatus
    }

    /// Runs `security` as a client of this daemon (`starting`: whether it may start a daemon).
    package func tool(
        _ arguments: [String],
        input: String = "",
        starting: Bool = true,
        environment extra: [String: String] = [:]
    ) throws -> SecurityToolRunner.Output {
        try SecurityToolRunner(home: home).run(
            arguments,
            input: input,
            environment: clientEnvironment(starting: starting, extra)
        )
    }

    /// The environment of a `security` client of this daemon.
    package func clientEnvironment(starting: Bool = true, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_ENGINE"] = "daemon"
        environment["KEYCHAIN_SOCKET"] = endpoint.socketPath
        environment["KEYCHAIN_SECURITYD"] = starting ? Self.executable.path : "/nonexistent/securityd"
        environment["KEYCHAIN_HOME"] = home.path
        environment["DISPLAY"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        environment.merge(extra) { $1 }
        return environment
    }

    private static func launch(
        _ executable: URL,
        home: URL,
        endpoint: DaemonEndpoint,
        settingsFile: URL,
        user: UInt32? = nil,
        idleTimeout: Int? = nil,
        memoryLockLimit: String? = nil,
        confined: Bool = false,
        environment extra: [String: String] = [:],
        arguments options: [String] = [],
        networkNamespace: String? = nil,
        log: URL? = nil
    ) throws -> Process {
        let process = Process()
        let arguments =
            ["--keychain", home.path, "--socket", endpoint.socketPath, "--config", settingsFile.path]
            + (idleTimeout.map { ["--idle-timeout", "\($0)"] } ?? []) + options
        // The daemon's command line, then what runs it: confined, as another user, under a limit.
        var command = [executable.path] + arguments
        if confined { command = SandboxConfinement.command(executable, arguments) }
        if let user {
            command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command
        } else if let memoryLockLimit {
            command = ["/usr/bin/prlimit", "--memlock=\(memoryLockLimit)"] + command
        }
        if let networkNamespace { command = ["/usr/sbin/ip", "netns", "exec", networkNamespace] + command }
        process.executableURL = URL(filePath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_PROMPT"] = "none"
        environment["KEYCHAIN_ACCESS_GROUPS"] = nil
        environment.merge(extra) { $1 }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let log, FileManager.default.createFile(atPath: log.path, contents: nil) {
            process.standardError = try FileHandle(forWritingTo: log)
        }
        try process.run()
        return process
    }

    /// Writes a daemon configuration file at `file` (root's or this user's, 0644): `settings`
    /// (`pinentry`, `passcode-cost`, `auto-lock`), with no pinentry unless they name one.
    package static func writeSettings(_ settings: [String: String], to file: URL) throws {
        let lines = ["pinentry": "none"].merging(settings) { $1 }.sorted { $0.key < $1.key }.map {
            "\($0.key) = \($0.value)\n"
        }
        try Data(lines.joined().utf8).write(to: file)
        guard chmod(file.path, 0o644) == 0 else { throw DaemonError.didNotStart }
    }

    package enum DaemonError: Error {
        case didNotStart
        /// It ended before it listened: its status and the end of what it logged.
        case exited(status: Int32, log: String)
        case didNotAnswer
    }

    /// Whether `command` exits with status 0 when run as `user`.
    package static func succeeds(_ command: [String], as user: UInt32) throws -> Bool {
        let arguments = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command
        return try ProgramRun.run(URL(filePath: "/usr/bin/setpriv"), arguments, input: nil).status == 0
    }

    /// Whether the tests run as root with `setpriv`, which the tests of other users need.
    package static var canSwitchUsers: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }
}

/// A client that speaks raw bytes to a socket, for hostile frames.
package enum RawClient {
    package static func connect(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PrivateDaemon.DaemonError.didNotStart }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: Array(path.utf8) + [0])
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Foundation.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw PrivateDaemon.DaemonError.didNotStart
        }
        return descriptor
    }

    /// Sends one request as a frame and reads the final reply (interim replies are skipped).
    package static func exchange(_ request: EngineRequest, on descriptor: Int32) throws -> EngineResponse {
        let message = try EngineWire.encode(request)
        write(EngineFrame.header(forLength: message.count) + message, to: descriptor)
        while true {
            let header = try readExactly(EngineFrame.headerLength, from: descriptor)
            guard let length = EngineFrame.length(ofHeader: header) else {
                throw PrivateDaemon.DaemonError.didNotAnswer
            }
            let response = try EngineWire.decode(EngineResponse.self, from: try readExactly(length, from: descriptor))
            if !response.isInterim { return response }
        }
    }

    /// Exactly `count` bytes, waiting at most 20 seconds for each part.
    package static func readExactly(_ count: Int, from descriptor: Int32) throws -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: count)
        while received.count < count {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 20_000) > 0 else { throw PrivateDaemon.DaemonError.didNotAnswer }
            let read = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count - received.count, 0) }
            guard read > 0 else { throw PrivateDaemon.DaemonError.didNotAnswer }
            received += buffer[0..<read]
        }
        return received
    }

    package static func write(_ bytes: [UInt8], to descriptor: Int32) {
        _ = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// The first reply the peer sends within `milliseconds`, decoded as soon as it is whole;
    /// `nil` when none arrives whole in time (or before the peer closes) or it does not decode.
    package static func firstResponse(on descriptor: Int32, milliseconds: Int32) -> EngineResponse? {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            if received.count >= EngineFrame.headerLength,
                let length = EngineFrame.length(ofHeader: Array(received.prefix(EngineFrame.headerLength))),
                received.count >= EngineFrame.headerLength + length
            {
                let message = Array(received[EngineFrame.headerLength..<(EngineFrame.headerLength + length)])
                return try? EngineWire.decode(EngineResponse.self, from: message)
            }
            let left = deadline - ContinuousClock.now
            let wait = Int32(
                max(0, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            )
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard wait > 0, poll(&poller, 1, wait) > 0 else { return nil }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            received += buffer[0..<count]
        }
    }

    /// Everything the peer sends until it closes or goes quiet for `timeout` seconds.
    package static func readAll(from descriptor: Int32, timeout: Int32) -> [UInt8] {
        readAll(from: descriptor, milliseconds: timeout * 1000)
    }

    /// Everything the peer sends until it closes or goes quiet for `milliseconds`.
    package static func readAll(from descriptor: Int32, milliseconds: Int32) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) > 0 else { return received }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return received }
            received += buffer[0..<count]
        }
    }
}
