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

/// What a program printed, and how it ended.
package struct ProgramOutput: Sendable {
    /// The exit status (or the signal's number when a signal ended it).
    package var status: Int32
    package var stdout: String
    package var stderr: String
}

/// Runs programs to their end for tests and harnesses: arguments, environment, standard input
/// given as text (never a terminal), both outputs collected.
package enum ProgramRun {
    /// Runs `executable arguments…`.
    ///
    /// - Parameters:
    ///   - executable: The program to run.
    ///   - arguments: Its arguments.
    ///   - environment: The program's whole environment; `nil` passes this process's.
    ///   - input: Written to the program's standard input, which is then closed; `nil` gives it
    ///     `/dev/null`.
    ///   - directory: The working directory; `nil` keeps this process's.
    /// - Returns: What the program printed, and how it ended.
    /// - Throws: What `Process.run()` throws when the program cannot be started.
    @discardableResult
    package static func run(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        input: String? = "",
        directory: URL? = nil
    ) throws -> ProgramOutput {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        return try run(process, input: input)
    }

    /// Starts `executable arguments…` in the background; ``end(_:)`` stops it.
    ///
    /// - Parameters:
    ///   - executable: The program to run.
    ///   - arguments: Its arguments.
    ///   - environment: The program's whole environment; `nil` passes this process's.
    ///   - output: The file both its outputs go to; `nil` sends them nowhere.
    /// - Returns: The running process.
    /// - Throws: What `Process.run()` throws when the program cannot be started.
    package static func start(
        _ executable: URL,
        _ arguments: [String],
        environment: [String: String]? = nil,
        output: URL? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if let output, FileManager.default.createFile(atPath: output.path, contents: nil) {
            let handle = try FileHandle(forWritingTo: output)
            process.standardOutput = handle
            process.standardError = handle
        }
        try process.run()
        return process
    }

    /// Ends a process ``start(_:_:environment:output:)`` started, if it still runs: SIGKILL, since
    /// a process started from a test's thread inherits a blocked SIGTERM.
    package static func end(_ process: Process?) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// Runs a process made ready by the caller (its program, arguments, environment) to its end.
    ///
    /// The input is written, and standard error read, each on a thread of its own while standard
    /// output is read here: a program that prints a lot before it has read all its input (a 16 MiB
    /// secret on standard input) blocks neither side. A program that exits without reading all of
    /// its input ends the write (`EPIPE`; `SIGPIPE` is ignored in this process), not the test.
    ///
    /// - Parameters:
    ///   - process: The process, not started yet; its standard streams are replaced.
    ///   - input: Written to the program's standard input, which is then closed; `nil` gives it
    ///     `/dev/null`.
    /// - Returns: What the program printed, and how it ended.
    /// - Throws: What `Process.run()` throws when the program cannot be started.
    @discardableResult
    package static func run(_ process: Process, input: String? = "") throws -> ProgramOutput {
        _ = brokenPipesIgnored
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let errorOutput = stderr.fileHandleForReading
        let errors = BackgroundTransfer { errorOutput.readDataToEndOfFile() }
        let inputEnd = stdin.fileHandleForWriting
        let feeding = input.map { text in
            BackgroundTransfer {
                try? inputEnd.write(contentsOf: Data(text.utf8))
                try? inputEnd.close()
                return Data()
            }
        }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        _ = feeding?.wait()
        return ProgramOutput(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errors.wait(), as: UTF8.self)
        )
    }

    /// A write to a pipe whose reader has gone fails with `EPIPE` instead of killing the process.
    private static let brokenPipesIgnored: Void = {
        signal(SIGPIPE, SIG_IGN)
    }()
}

/// One transfer to or from a pipe, run to its end on a thread of its own.
private final class BackgroundTransfer: @unchecked Sendable {
    // Written by the transferring thread before `done` is signalled, read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ transfer: @escaping @Sendable () -> Data) {
        Thread.detachNewThread { [self] in
            data = transfer()
            done.signal()
        }
    }

    /// What the transfer read, once it has ended.
    func wait() -> Data {
        done.wait()
        return data
    }
}
