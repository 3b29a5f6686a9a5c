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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Another run of this executable, started with a subcommand.
enum ChildProcess {
    /// This executable's path (`/proc/self/exe` where there is one, so a relative `argv[0]` works).
    static var executable: URL {
        let procSelf = "/proc/self/exe"
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: procSelf) {
            return URL(fileURLWithPath: resolved)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0])
    }

    /// Starts `keychain-stress arguments…` with standard input closed and standard output discarded.
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Process {
        try start(executable, arguments, environment: environment)
    }

    /// Starts `executable arguments…` with standard input closed and standard output discarded
    /// (standard error too when `quiet`).
    static func start(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String] = [:],
        quiet: Bool = false
    ) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        if quiet { process.standardError = FileHandle.nullDevice }
        try process.run()
        return process
    }

    /// A child whose standard output and error are collected while it runs.
    struct Captured {
        let process: Process
        private let stdout: Pipe
        private let stderr: Pipe
        private let collected: Collector<Data>

        init(process: Process, stdout: Pipe, stderr: Pipe) {
            self.process = process
            self.stdout = stdout
            self.stderr = stderr
            collected = Collector()
            let (errorHandle, collected) = (stderr.fileHandleForReading, collected)
            Thread { collected.append(errorHandle.readDataToEndOfFile()) }.start()
        }

        /// Waits for the child to exit; what it printed.
        func output() -> (stdout: Data, stderr: String) {
            let out = stdout.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            while collected.all.isEmpty { usleep(1_000) }
            return (out, String(decoding: collected.all[0], as: UTF8.self))
        }
    }

    /// Starts `keychain-stress arguments…`, collecting its output.
    static func startCapturing(_ arguments: [String]) throws -> Captured {
        try startCapturing(executable, arguments)
    }

    /// Starts `program arguments…`, collecting its output.
    static func startCapturing(_ program: URL, _ arguments: [String]) throws -> Captured {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return Captured(process: process, stdout: stdout, stderr: stderr)
    }

    /// Sends SIGKILL and reaps the process; whether it was still running (and so died of the signal).
    static func terminate(_ process: Process) -> Bool {
        _ = kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
    }

    static func sleep(milliseconds: Double) {
        usleep(useconds_t(max(0, milliseconds * 1_000)))
    }
}
