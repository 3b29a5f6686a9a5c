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
import Testing

/// `security passcode remove` says how many items it would destroy and asks; `-y` is for scripts.
///
/// Each command gets the passcode on standard input where it may need it: under
/// `KEYCHAIN_ENGINE=loopback` every process opens the keychain locked, as a new process does
/// without a daemon.
@Suite struct PasscodeRemovalTests {
    /// A keychain with a passcode, one item of the WhenPasscodeSet class, one protected by the
    /// passcode, and one that survives.
    static func keychain() throws -> SecurityToolRunner {
        let tool = SecurityToolRunner()
        #expect(try tool.run(["passcode", "set"], input: "2468\n2468\n").status == 0)
        let items = [
            ["-s", "Class", "--accessible", "WhenPasscodeSetThisDeviceOnly"],
            ["-s", "Guarded", "--access-control", "devicePasscode"],
            ["-s", "Plain"],
        ]
        for item in items {
            #expect(try tool.run(["add-generic-password", "-a", "me", "-w", "x"] + item, input: "2468\n").status == 0)
        }
        return tool
    }

    @Test func aScriptWithoutYesIsRefusedAndNothingChanges() throws {
        let tool = try Self.keychain()
        defer { tool.remove() }
        let removed = try tool.run(["passcode", "remove"], input: "2468\n")
        #expect(removed.status == 1)
        #expect(removed.stderr.contains("security: 2 items need the passcode"))
        #expect(removed.stderr.contains("not removed; give -y to remove it without asking"))
        #expect(try tool.run(["status"]).stdout.contains("passcode: set"))
        #expect(try tool.run(["find-generic-password", "-s", "Class"], input: "2468\n").status == 0)
    }

    @Test func aWrongPasscodeFailsBeforeTheQuestion() throws {
        let tool = try Self.keychain()
        defer { tool.remove() }
        try tool.run(["lock"])
        let removed = try tool.run(["passcode", "remove", "-y"], input: "0000\n")
        #expect(removed.status != 0)
        #expect(!removed.stderr.contains("items need the passcode"))
        #expect(try tool.run(["status"]).stdout.contains("passcode: set"))
    }

    @Test func yesRemovesItAndSaysWhatWasDestroyed() throws {
        let tool = try Self.keychain()
        defer { tool.remove() }
        let removed = try tool.run(["passcode", "remove", "-y"], input: "2468\n")
        #expect(removed.status == 0)
        #expect(removed.stdout == "passcode removed; 2 items destroyed\n")
        #expect(try tool.run(["find-generic-password", "-s", "Class"]).status == 44)
        #expect(try tool.run(["find-generic-password", "-s", "Plain", "-w"]).stdout == "x\n")
    }

    @Test func theQuestionAtATerminalIsAnsweredThere() throws {
        let tool = try Self.keychain()
        defer { tool.remove() }
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_HOME"] = tool.home.path
        let command = [SecurityToolRunner.executable.path, "passcode", "remove"]
        var transcript = try TerminalSession.run(
            command,
            environment: environment,
            answering: ["current passcode:": "2468", "[y/N]": "n"]
        )
        #expect(transcript.status == 1)
        #expect(transcript.output.contains("2 items need the passcode"))
        #expect(try tool.run(["status"]).stdout.contains("passcode: set"))

        transcript = try TerminalSession.run(
            command,
            environment: environment,
            answering: ["current passcode:": "2468", "[y/N]": "y"]
        )
        #expect(transcript.status == 0)
        #expect(transcript.output.contains("passcode removed; 2 items destroyed"))
        #expect(try tool.run(["status"]).stdout.contains("passcode: not set"))
    }
}
