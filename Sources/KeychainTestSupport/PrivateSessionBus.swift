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

/// A private session bus (`dbus-daemon --session`) for one test: what a desktop session gives its
/// programs, without anything else of the machine on it.
package final class PrivateSessionBus {
    package let directory: URL
    /// The address to give clients (`DBUS_SESSION_BUS_ADDRESS`).
    package let address: String
    private let daemon: Process

    /// Whether dbus-daemon is installed.
    package static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon")
    }

    package init() throws {
        directory = URL(fileURLWithPath: "/tmp/kc-session-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let socket = directory.appendingPathComponent("bus").path
        address = "unix:path=\(socket)"
        daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        daemon.arguments = ["--session", "--address=\(address)", "--nofork", "--nopidfile"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: socket) {
            guard daemon.isRunning, Date() < deadline else { throw SessionBusError.didNotStart }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// This process's environment, with the bus's address.
    package var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        return environment
    }

    /// Runs `arguments` (a program's path first) on this bus, ended after `seconds`; what it printed.
    @discardableResult
    package func run(
        _ arguments: [String],
        input: String? = nil,
        seconds: Int = 30,
        environment extra: [String: String] = [:]
    ) throws -> ProgramOutput {
        try ProgramRun.run(
            URL(fileURLWithPath: "/usr/bin/timeout"),
            ["\(seconds)"] + arguments,
            environment: environment.merging(extra) { $1 },
            input: input
        )
    }

    /// Starts `arguments` (a program's path first) on this bus in the background, its output
    /// (both streams) into `output`; ``ProgramRun/end(_:)`` ends it.
    package func start(
        _ arguments: [String],
        environment extra: [String: String] = [:],
        output: URL? = nil
    ) throws -> Process {
        try ProgramRun.start(
            URL(fileURLWithPath: arguments[0]),
            Array(arguments.dropFirst()),
            environment: environment.merging(extra) { $1 },
            output: output
        )
    }

    deinit {
        kill(daemon.processIdentifier, SIGKILL)
        daemon.waitUntilExit()
        try? FileManager.default.removeItem(at: directory)
    }

    enum SessionBusError: Error {
        case didNotStart
    }
}
