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
import KeychainTestSupport

/// The built `security` tool, run as a user would run it: in a keychain home, with input on
/// standard input (not a terminal), optionally as another user.
struct Tool {
    typealias Output = ProgramOutput

    var home: URL
    var user: ThrowawayUser?
    var environment: [String: String] = [:]

    static var executable: URL {
        BuiltProduct.url("security")
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
        try ProgramRun.run(process(arguments), input: input)
    }
}
