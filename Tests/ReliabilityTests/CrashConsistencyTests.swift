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

/// The short version of the crash harness (RELIABILITY.md has the long one).
@Suite struct CrashConsistencyTests {
    @Test func killedWritersLoseNothingAcknowledged() throws {
        let home = StressRunner.temporaryHome("crash")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let output = try StressRunner.run(["crash", "--kills", "16", "--seed", "20261121", "--home", home])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("16 kill points"))
        #expect(output.stdout.contains("0 lost, 0 half-written"))
    }

    /// The same with the keychain in `securityd`, which is killed instead of the writer: what the
    /// daemon acknowledged is on disk, whatever it was doing when it died.
    @Test func aKilledDaemonLosesNothingItAcknowledged() throws {
        let home = StressRunner.temporaryHome("crash-daemon")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let output = try StressRunner.run([
            "crash", "--kills", "12", "--seed", "20261125", "--home", home, "--through-daemon",
        ])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("12 kill points"))
        #expect(output.stdout.contains("0 lost, 0 half-written"))
        // And it catches a daemon client that acknowledges before the daemon has answered.
        let broken = try StressRunner.run([
            "crash", "--kills", "12", "--seed", "7", "--home", home + "-broken", "--through-daemon", "--broken-worker",
        ])
        try? FileManager.default.removeItem(atPath: home + "-broken")
        #expect(broken.status != 0)
        // An early acknowledgement shows as lost items, or as a passcode change acknowledged but
        // never made: which one depends on what the daemon was doing when it died.
        #expect(
            broken.stderr.contains("lost or unexpected state")
                || broken.stderr.contains("no longer opens with the passcode"),
            "\(broken.stderr)"
        )
    }

    /// The harness itself can fail: a worker that reports success before writing is caught.
    @Test func harnessCatchesAWorkerThatAcknowledgesTooEarly() throws {
        let home = StressRunner.temporaryHome("crash-broken")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let output = try StressRunner.run(["crash", "--kills", "16", "--seed", "7", "--home", home, "--broken-worker"])
        #expect(output.status != 0)
        #expect(output.stderr.contains("round"))
    }
}
