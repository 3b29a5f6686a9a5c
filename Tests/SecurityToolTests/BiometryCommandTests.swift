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

/// The `security` tool end to end with the simulated sensor: each command is its own process, as
/// a person or a script would run them.
@Suite struct BiometryCommandTests {
    @Test func enrolAddReadLockOutUnlockAndReEnrol() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let passcode = "2468\n"
        #expect(try tool.run(["passcode", "set"], input: passcode + passcode).status == 0)
        #expect(try tool.run(["biometry", "sensor", "touchid"]).stdout == "sensor: Touch ID\n")
        var output = try tool.run(["biometry", "enroll", "right thumb"], input: passcode)
        #expect(output.status == 0 && output.stdout == "enrolled right thumb\n")

        output = try tool.run(
            [
                "add-generic-password", "-a", "me", "-s", "Bio", "-w", "s3cret", "--access-control",
                "biometryCurrentSet",
            ],
            input: passcode
        )
        #expect(output.status == 0)

        // A queued match reads it; a queued non-match fails as Apple's errSecAuthFailed.
        #expect(try tool.run(["biometry", "next", "match"]).stdout == "queued: match\n")
        output = try tool.run(["find-generic-password", "-s", "Bio", "-w"], input: passcode)
        #expect(output.status == 0 && output.stdout == "s3cret\n")
        try tool.run(["biometry", "next", "nonmatch"])
        output = try tool.run(["find-generic-password", "-s", "Bio", "-w"], input: passcode)
        #expect(output.status == 51)
        #expect(output.stdout.isEmpty)
        #expect(
            output.stderr.hasSuffix(
                "security: SecKeychainSearchCopyNext: The user name or passphrase you entered is not correct.\n"
            )
        )

        // Five non-matches in a row lock biometry; even a match is then refused.
        try tool.run(["biometry", "next", "nonmatch", "nonmatch", "nonmatch", "nonmatch"])
        for _ in 0..<4 {
            #expect(try tool.run(["find-generic-password", "-s", "Bio", "-w"], input: passcode).status == 51)
        }
        #expect(
            try tool.run(["status"]).stdout.contains(
                "failed biometric matches: 5 (locked out until the passcode is entered)"
            )
        )
        try tool.run(["biometry", "next", "match"])
        #expect(try tool.run(["find-generic-password", "-s", "Bio", "-w"], input: passcode).status == 51)

        // The passcode ends the lockout; the queued match then reads the item.
        #expect(try tool.run(["unlock"], input: passcode).status == 0)
        #expect(try tool.run(["biometry", "status"]).stdout.contains("failed biometric matches: 0\n"))
        output = try tool.run(["find-generic-password", "-s", "Bio", "-w"], input: passcode)
        #expect(output.status == 0 && output.stdout == "s3cret\n")

        // Enrolling another finger invalidates the item for good.
        #expect(try tool.run(["biometry", "enroll", "left index"], input: passcode).status == 0)
        try tool.run(["biometry", "next", "match"])
        output = try tool.run(["find-generic-password", "-s", "Bio", "-w"], input: passcode)
        #expect(output.status == 44)
        #expect(output.stderr.hasSuffix("The specified item could not be found in the keychain.\n"))
    }

    /// One biometry item does not stop the listing: without `-d` it is left out with a line saying
    /// so (listing asks for nothing); with `-d` it is asked for, and listed when a finger matches.
    @Test func dumpKeychainListsAroundABiometryItem() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let passcode = "2468\n"
        #expect(try tool.run(["passcode", "set"], input: passcode + passcode).status == 0)
        try tool.run(["biometry", "sensor", "touchid"])
        #expect(try tool.run(["biometry", "enroll", "thumb"], input: passcode).status == 0)
        // The passcode on standard input for the processes that open the keychain locked (loopback).
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "Plain", "-w", "open"], input: passcode).status == 0
        )
        #expect(
            try tool.run(
                ["add-generic-password", "-a", "me", "-s", "Bio", "-w", "guarded", "--access-control", "biometryAny"],
                input: passcode
            ).status == 0
        )

        var output = try tool.run(["dump-keychain"], input: passcode)
        #expect(output.status == 0)
        #expect(output.stdout.contains("\"svce\"<blob>=\"Plain\"") && !output.stdout.contains("\"Bio\""))
        #expect(output.stderr.contains("security: dump-keychain: \"genp\" items that need authentication"))

        // With -d and nobody to ask, the rest is dumped with its data.
        output = try tool.run(["dump-keychain", "-d"], input: passcode)
        #expect(output.status == 0)
        #expect(output.stdout.contains("\"open\"") && !output.stdout.contains("guarded"))
        #expect(output.stderr.contains("were not listed"))

        // A queued match lets -d read it too.
        try tool.run(["biometry", "next", "match"])
        output = try tool.run(["dump-keychain", "-d"], input: passcode)
        #expect(output.status == 0 && !output.stderr.contains("not listed"))
        #expect(output.stdout.contains("\"open\"") && output.stdout.contains("\"guarded\""))
        output = try tool.run(["dump-keychain", "--json"], input: passcode)
        #expect(output.status == 0 && output.stdout.contains("Plain") && !output.stdout.contains("\"Bio\""))
    }

    @Test func accessControlOptionIsValidatedLikeSecAccessControlCreateWithFlags() throws {
        let tool = SecurityToolRunner(perProcess: true)
        defer { tool.remove() }
        var output = try tool.run([
            "add-generic-password", "-a", "me", "-s", "X", "-w", "x", "--access-control",
            "biometryAny,biometryCurrentSet",
        ])
        #expect(output.status == 2)
        #expect(output.stderr.contains("only one bio constraint can be set"))
        output = try tool.run(["add-generic-password", "-a", "me", "-s", "X", "-w", "x", "--access-control", "retina"])
        #expect(output.status == 2)
        // Without a passcode, a passcode constraint cannot be satisfied.
        output = try tool.run([
            "add-generic-password", "-a", "me", "-s", "X", "-w", "x", "--access-control", "devicePasscode",
        ])
        #expect(output.status == 51)
        // With one, the item is read after the passcode is entered (once to unlock, once for the item).
        try tool.run(["passcode", "set"], input: "1357\n1357\n")
        output = try tool.run(
            [
                "add-generic-password", "-a", "me", "-s", "X", "-w", "x", "--access-control", "devicePasscode",
                "--accessible", "WhenPasscodeSetThisDeviceOnly",
            ],
            input: "1357\n"
        )
        #expect(output.status == 0)
        output = try tool.run(["find-generic-password", "-s", "X", "-w"], input: "1357\n1357\n")
        #expect(output.status == 0 && output.stdout == "x\n")
        output = try tool.run(["find-generic-password", "-s", "X", "-w"], input: "1357\n9999\n")
        #expect(output.status == 51)
    }
}
