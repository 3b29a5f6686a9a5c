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

/// Runs the built `security` executable in a throw-away keychain home.
struct SecurityToolRunner {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    let home: URL
    /// Whether each command runs its own engine (`embedded`, or the `loopback` the environment
    /// names) instead of the default, the home's `securityd`: for the tests of a process that
    /// starts locked and unlocks only itself.
    var perProcess = false

    init(perProcess: Bool = false) {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("security-cli-\(UUID().uuidString)")
        self.perProcess = perProcess
    }

    init(home: URL) {
        self.home = home
    }

    func remove() {
        try? FileManager.default.removeItem(at: home)
    }

    static var executable: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("security")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/security")
    }

    /// Runs `program arguments…` with `environment`, nothing on standard input.
    static func runProgram(_ program: String, _ arguments: [String], environment: [String: String], input: String = "") throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        process.environment = environment
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
        return Output(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self), stderr: String(decoding: err, as: UTF8.self))
    }

    /// Runs `security arguments…`, feeding `input` on standard input (not a terminal).
    @discardableResult
    func run(
        _ arguments: [String],
        input: String = "",
        environment base: [String: String] = ProcessInfo.processInfo.environment,
        directory: URL? = nil
    ) throws -> Output {
        let process = Process()
        process.executableURL = Self.executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = base
        environment["KEYCHAIN_HOME"] = home.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = nil
        if perProcess && environment["KEYCHAIN_ENGINE"] != "loopback" {
            environment["KEYCHAIN_ENGINE"] = "embedded"
        }
        process.environment = environment
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
