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

/// A secret read from standard input is stored whole, or refused with a message naming the
/// limit — never cut (lines were kept to their first 4,096 bytes, with exit 0).
@Suite struct SecretLengthTests {
    static let megabyte = String(repeating: "s", count: 1 << 20)

    @Test func aMegabyteSecretPipedToThePromptIsStoredWhole() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let added = try tool.run(
            ["add-generic-password", "-a", "me", "-s", "Long", "-w"],
            input: Self.megabyte + "\n" + Self.megabyte + "\n"
        )
        #expect(added.status == 0)
        let found = try tool.run(["find-generic-password", "-s", "Long", "-w"])
        #expect(found.status == 0)
        #expect(found.stdout == Self.megabyte + "\n")
    }

    @Test func aMegabyteSecretOnAnInteractiveLineIsStoredWhole() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let added = try tool.run(["-i"], input: "add-generic-password -a me -s Long -w \(Self.megabyte)\n")
        #expect(added.status == 0)
        #expect(added.stderr.isEmpty)
        let found = try tool.run(["find-generic-password", "-s", "Long", "-w"])
        #expect(found.stdout == Self.megabyte + "\n")
    }

    /// Reading 16 MiB a byte at a time takes seconds: run once, not again under the loopback engine
    /// (the reading is the tool's, before any engine).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["KEYCHAIN_ENGINE"] != "loopback"))
    func aLineLongerThanTheLongestSecretIsRefusedWhole() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let tooLong = String(repeating: "s", count: 16 << 20 + 1)
        let added = try tool.run(["add-generic-password", "-a", "me", "-s", "Huge", "-w"], input: tooLong + "\n")
        #expect(added.status == 1)
        #expect(
            added.stderr.hasSuffix(
                "security: the input line is longer than 16777216 bytes (16 MiB, the longest secret a keychain item holds); nothing was read from it\n"
            )
        )
        let found = try tool.run(["find-generic-password", "-s", "Huge"])
        #expect(found.status == 44)

        // In `-i`, the long line fails alone: the next line runs.
        let interactive = try tool.run(["-i"], input: tooLong + "\nadd-generic-password -a me -s After -w short\n")
        #expect(interactive.status == 0)
        #expect(interactive.stderr.contains("longer than 16777216 bytes"))
        #expect(try tool.run(["find-generic-password", "-s", "After", "-w"]).stdout == "short\n")
    }
}
