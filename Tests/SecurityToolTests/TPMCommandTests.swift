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

/// `security tpm enroll` and `security tpm remove` move a keychain between files and a TPM
/// (swtpm), asking for the passcode; `security status` names the store.
@Suite struct TPMCommandTests {
    @Test func aKeychainMovesIntoTheTPMAndBackWithItsItems() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        // Each command in its own engine: a daemon takes its TPM from its own settings, not the client's.
        let tool = SecurityToolRunner(perProcess: true)
        defer { tool.remove() }
        var files = ProcessInfo.processInfo.environment
        files["KEYCHAIN_TPM"] = "none"
        var withTPM = files
        withTPM["KEYCHAIN_TPM"] = tpm.tcti
        #expect(try tool.run(["passcode", "set"], input: "2468\n2468\n", environment: files).status == 0)
        #expect(
            try tool.run(
                ["add-generic-password", "-s", "svc", "-a", "me", "-w", "kept"],
                input: "2468\n",
                environment: files
            ).status == 0
        )
        #expect(
            try tool.run(["status"], environment: files).stdout.contains(
                "device secret: file (no TPM: KEYCHAIN_TPM=none)"
            )
        )

        let wrong = try tool.run(["tpm", "enroll"], input: "0000\n", environment: withTPM)
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("security: tpm enroll:"))
        let enrolled = try tool.run(["tpm", "enroll"], input: "2468\n", environment: withTPM)
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        #expect(enrolled.stdout == "the keychain is in the TPM\n")
        #expect(try tool.run(["status"], environment: withTPM).stdout.contains("device secret: TPM 2.0 (IBM"))
        #expect(!FileManager.default.fileExists(atPath: tool.home.appendingPathComponent("device.key").path))
        let again = try tool.run(["tpm", "enroll"], input: "2468\n", environment: withTPM)
        #expect(again.status == 1)
        #expect(again.stderr.contains("already in the TPM"))
        #expect(
            try tool.run(["find-generic-password", "-s", "svc", "-w"], input: "2468\n", environment: withTPM).stdout
                == "kept\n"
        )

        let removed = try tool.run(["tpm", "remove"], input: "2468\n", environment: withTPM)
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(FileManager.default.fileExists(atPath: tool.home.appendingPathComponent("device.key").path))
        #expect(
            try tool.run(["find-generic-password", "-s", "svc", "-w"], input: "2468\n", environment: files).stdout
                == "kept\n"
        )
    }
}
