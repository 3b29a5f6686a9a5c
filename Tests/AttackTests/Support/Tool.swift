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

/// The built `security` tool, run as a user would run it: in a keychain home, with input on
/// standard input (not a terminal), optionally as another user.
struct Tool {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    var home: URL
    var user: ThrowawayUser?
    var environment: [String: String] = [:]

    static var executable: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("security")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/security")
    }

    /// The process that runs `security arguments…` (not started).
    func process(_ arguments: [String]) -> Process {
        let process = Process()
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_HOME"] = home.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = nil
        environment["KEYCHAIN_PROMPT"] = nil
        environment.merge(self.environment) { _, new in new }
        if let user {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = user.setprivArguments + [Self.executable.path] + arguments
            environment["HOME"] = "/nonexistent"
        } else {
            process.executableURL = Self.executable
            process.arguments = arguments
        }
        process.environment = environment
        return process
    }

    /// Runs `security arguments…` to the end, feeding `input`.
    @discardableResult
    func run(_ arguments: [String], input: String = "") throws -> Output {
        let process = process(arguments)
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus,
            stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self)
        )
    }
}
