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

/// Runs the built `security` executable in a throw-away keychain home.
package struct SecurityToolRunner {
    package typealias Output = ProgramOutput

    package let home: URL
    /// Whether each command runs its own engine (`embedded`, or the `loopback` the environment
    /// names) instead of the default, the home's `securityd`: for the tests of a process that
    /// starts locked and unlocks only itself.
    package var perProcess = false

    package init(perProcess: Bool = false) {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("security-cli-\(UUID().uuidString)")
        self.perProcess = perProcess
    }

    package init(home: URL) {
        self.home = home
    }

    package func remove() {
        try? FileManager.default.removeItem(at: home)
    }

    package static var executable: URL {
        BuiltProduct.url("security")
    }

    /// Runs `program arguments…` with `environment`, `input` on standard input.
    package static func runProgram(
        _ program: String,
        _ arguments: [String],
        environment: [String: String],
        input: String = ""
    ) throws -> Output {
        try ProgramRun.run(URL(filePath: program), arguments, environment: environment, input: input)
    }

    /// Runs `security arguments…`, feeding `input` on standard input (not a terminal).
    @discardableResult
    package func run(
        _ arguments: [String],
        input: String = "",
        environment base: [String: String] = ProcessInfo.processInfo.environment,
        directory: URL? = nil
    ) throws -> Output {
        var environment = base
        environment["KEYCHAIN_HOME"] = home.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = nil
        if perProcess && environment["KEYCHAIN_ENGINE"] != "loopback" {
            environment["KEYCHAIN_ENGINE"] = "embedded"
        }
        return try ProgramRun.run(
            Self.executable,
            arguments,
            environment: environment,
            input: input,
            directory: directory
        )
    }
}
