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

/// The short version of the concurrency harness (RELIABILITY.md has the long one).
@Suite struct ConcurrencyTests {
    @Test func processesThreadsAndScriptsAgreeOnOneKeychain() throws {
        let home = StressRunner.temporaryHome("concurrency")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let output = try StressRunner.run([
            "concurrency", "--processes", "2", "--threads", "3", "--operations", "150",
            "--scripts", "1", "--script-operations", "12", "--seed", "20261121", "--home", home,
            "--tool", StressRunner.executable.deletingLastPathComponent().appendingPathComponent("security").path,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("0 failures"))
    }

    /// The same with every process's calls going to one `securityd`, whose lock every process sees.
    @Test func processesThreadsAndScriptsAgreeThroughOneDaemon() throws {
        let home = StressRunner.temporaryHome("concurrency-daemon")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let output = try StressRunner.run([
            "concurrency", "--processes", "2", "--threads", "3", "--operations", "150",
            "--scripts", "1", "--script-operations", "12", "--seed", "20261125", "--home", home, "--through-daemon",
            "--tool", StressRunner.executable.deletingLastPathComponent().appendingPathComponent("security").path,
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("0 failures"))
    }
}
