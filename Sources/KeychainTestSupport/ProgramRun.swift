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

    /// Runs a process made ready by the caller (its program, arguments, environment) to its end.
    @discardableResult
    package static func run(_ process: Process, input: String? = "") throws -> ProgramOutput {
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        if let input {
            // A program that exits without reading its input closes the pipe: ignore the failed write.
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        // Read both pipes while the child runs, so that neither fills up and blocks it.
        let errors = ErrorsReader(stderr.fileHandleForReading)
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ProgramOutput(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: errors.wait(), as: UTF8.self)
        )
    }
}

/// Reads a pipe to its end on a thread of its own.
private final class ErrorsReader: @unchecked Sendable {
    // Written by the reading thread before `done` is signalled, read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    func wait() -> Data {
        done.wait()
        return data
    }
}
