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

/// The test kit's process runner: the tool's tests feed it secrets of up to 16 MiB on standard input.
@Suite struct ProgramRunTests {
    static let shell = URL(filePath: "/bin/sh")

    @Test(.timeLimit(.minutes(1)))
    func aProgramThatPrintsBeforeItReadsItsInputDoesNotBlockEitherSide() throws {
        // 256 KiB out before a byte is read, then 4 MiB in: more than either pipe holds.
        let input = String(repeating: "x", count: 4 << 20)
        let result = try ProgramRun.run(Self.shell, ["-c", "head -c 262144 /dev/zero; wc -c"], input: input)
        #expect(result.status == 0)
        #expect(result.stdout.utf8.count == 262_144 + "4194304\n".utf8.count)
        #expect(result.stdout.hasSuffix("4194304\n"))
    }

    @Test func aProgramThatExitsWithoutReadingItsInputEndsTheWriteNotTheTest() throws {
        let result = try ProgramRun.run(
            Self.shell,
            ["-c", "echo early >&2; exit 3"],
            input: String(repeating: "x", count: 1 << 20)
        )
        #expect(result.status == 3)
        #expect(result.stderr == "early\n")
    }
}
