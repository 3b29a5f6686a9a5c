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

/// The `security` tool as a shell user sees it: stdout, stderr and exit status, as on macOS.
@Suite struct SecurityToolTests {
    static let notFound =
        "security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n"

    @Test func addFindDeleteGenericPasswordAsOnMacOS() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        var output = try tool.run(["add-generic-password", "-a", "me", "-s", "Example", "-w", "secret password"])
        #expect(output.status == 0)
        #expect(output.stdout.isEmpty && output.stderr.isEmpty)

        output = try tool.run(["add-generic-password", "-a", "me", "-s", "Example", "-w", "again"])
        #expect(output.status == 45)
        #expect(
            output.stderr
                == "security: SecKeychainItemCreateFromContent (<default>): The specified item already exists in the keychain.\n"
        )

        output = try tool.run(["find-generic-password", "-a", "me", "-s", "Example", "-w"])
        #expect(output.status == 0)
        #expect(output.stdout == "secret password\n")

        output = try tool.run(["find-generic-password", "-a", "me", "-s", "Missing", "-w"])
        #expect(output.status == 44)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == Self.notFound)

        output = try tool.run(["find-generic-password", "-s", "Example", "-g"])
        #expect(output.status == 0)
        #expect(
            output.stdout.hasPrefix(
                "keychain: \"\(tool.home.path)/keychain.db\"\nversion: 512\nclass: \"genp\"\nattributes:\n"
            )
        )
        #expect(output.stdout.contains("    \"acct\"<blob>=\"me\"\n"))
        #expect(output.stdout.contains("    \"svce\"<blob>=\"Example\"\n"))
        #expect(output.stdout.contains("    0x00000007 <blob>=\"Example\"\n"))
        #expect(output.stdout.contains("    \"crtr\"<uint32>=<NULL>\n"))
        #expect(output.stderr == "password: \"secret password\"\n")

        output = try tool.run(["delete-generic-password", "-a", "me", "-s", "Example"])
        #expect(output.status == 0)
        #expect(output.stdout.contains("class: \"genp\""))
        #expect(output.stderr == "password has been deleted.\n")

        output = try tool.run(["delete-generic-password", "-a", "me", "-s", "Example"])
        #expect(output.status == 44)
        #expect(output.stderr == Self.notFound)
    }

    @Test func passwordGivenLastIsPromptedTwiceFromStandardInput() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        var output = try tool.run(
            ["add-generic-password", "-a", "me", "-s", "Prompted", "-w"],
            input: "typed secret\ntyped secret\n"
        )
        #expect(output.status == 0)
        #expect(output.stderr == "password data for new item: retype password for new item: ")
        output = try tool.run(["find-generic-password", "-s", "Prompted", "-w"])
        #expect(output.stdout == "typed secret\n")
    }

    @Test func hexPasswordsAndNonPrintableOutput() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        #expect(try tool.run(["add-generic-password", "-a", "me", "-s", "Hex", "-X", "00ff41"]).status == 0)
        let output = try tool.run(["find-generic-password", "-s", "Hex", "-w"])
        #expect(output.stdout == "00ff41\n")
        let bad = try tool.run(["add-generic-password", "-a", "me", "-s", "Hex2", "-X", "zz"])
        #expect(bad.status == 2)
    }

    @Test func updateWithU() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        #expect(try tool.run(["add-generic-password", "-a", "me", "-s", "U", "-w", "one"]).status == 0)
        #expect(try tool.run(["add-generic-password", "-U", "-a", "me", "-s", "U", "-w", "two"]).status == 0)
        #expect(try tool.run(["find-generic-password", "-a", "me", "-s", "U", "-w"]).stdout == "two\n")
    }

    @Test func usageErrorsExitWithTwo() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let missingService = try tool.run(["add-generic-password", "-a", "me", "-w", "x"])
        #expect(missingService.status == 2)
        #expect(missingService.stderr.contains("Usage"))
        #expect(try tool.run(["find-generic-password", "--no-such-flag"]).status == 2)
        #expect(try tool.run(["delete-generic-password"]).status == 2)
        let badCode = try tool.run(["add-generic-password", "-a", "me", "-s", "x", "-c", "abc"])
        #expect(badCode.status == 1)
        #expect(
            badCode.stderr
                == "Error: four-character types must be exactly 4 characters long. (Try \"abc \" instead of \"abc\")\n"
        )
    }

    @Test func internetPasswords() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let add = [
            "add-internet-password", "-a", "me", "-s", "example.com", "-r", "htps", "-P", "443", "-p", "/login", "-w",
            "pw",
        ]
        #expect(try tool.run(add).status == 0)
        let duplicate = try tool.run(add)
        #expect(duplicate.status == 45)
        #expect(
            duplicate.stderr
                == "security: SecKeychainAddInternetPassword <NULL>: The specified item already exists in the keychain.\n"
        )
        let found = try tool.run(["find-internet-password", "-s", "example.com", "-g"])
        #expect(found.status == 0)
        #expect(found.stdout.contains("    \"ptcl\"<uint32>=\"htps\"\n"))
        #expect(found.stdout.contains("    \"port\"<uint32>=0x000001BB \n"))
        #expect(found.stdout.contains("    \"atyp\"<blob>=\"dflt\"\n"))
        #expect(found.stderr == "password: \"pw\"\n")
        #expect(try tool.run(["find-internet-password", "-s", "example.com", "-r", "ftp "]).status == 44)
        #expect(try tool.run(["delete-internet-password", "-s", "example.com"]).status == 0)
    }

    @Test func jsonOutput() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "Json", "-w", "pw", "-j", "a comment"]).status == 0
        )
        let output = try tool.run(["find-generic-password", "-s", "Json", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
        #expect(object["class"] as? String == "genp")
        let attributes = try #require(object["attributes"] as? [String: Any])
        #expect(attributes["acct"] as? String == "me")
        #expect(attributes["icmt"] as? String == "a comment")
        #expect(object["password"] == nil)
        let dump = try tool.run(["dump-keychain", "--json"])
        #expect((try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [Any])?.count == 1)
    }

    @Test func passcodeLockAndUnlockThroughStandardInput() throws {
        let tool = SecurityToolRunner(perProcess: true)
        defer { tool.remove() }
        #expect(try tool.run(["add-generic-password", "-a", "me", "-s", "Locked", "-w", "pw"]).status == 0)
        let set = try tool.run(["passcode", "set"], input: "2468\n2468\n")
        #expect(set.status == 0)
        #expect(set.stdout == "passcode set\n")

        // A new process starts locked: it asks for the passcode on standard input.
        var output = try tool.run(["find-generic-password", "-s", "Locked", "-w"], input: "2468\n")
        #expect(output.status == 0)
        #expect(output.stdout == "pw\n")
        #expect(output.stderr == "passcode to unlock the keychain: ")

        output = try tool.run(["find-generic-password", "-s", "Locked", "-w"], input: "1111\n")
        #expect(output.status == 51)
        #expect(output.stdout.isEmpty)
        #expect(!output.stderr.contains("2468"))

        output = try tool.run(["find-generic-password", "-s", "Locked", "-w"])
        #expect(output.status == 36)

        let status = try tool.run(["status"])
        #expect(status.stdout.contains("passcode: set"))
        #expect(status.stdout.contains("failed passcode attempts: 1"))

        #expect(try tool.run(["unlock"], input: "2468\n").stdout == "unlocked\n")
        #expect(try tool.run(["passcode", "change"], input: "2468\n1357\n1357\n").status == 0)
        #expect(try tool.run(["find-generic-password", "-s", "Locked", "-w"], input: "1357\n").stdout == "pw\n")
        #expect(try tool.run(["passcode", "remove"], input: "1357\n").status == 0)
        #expect(try tool.run(["find-generic-password", "-s", "Locked", "-w"]).stdout == "pw\n")
    }

    @Test func accessibleOption() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let output = try tool.run([
            "add-generic-password", "-a", "me", "-s", "A", "-w", "x", "--accessible", "WhenPasscodeSetThisDeviceOnly",
        ])
        #expect(output.status == Int32(UInt32(bitPattern: -25291) & 0xFF))
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "A", "-w", "x", "--accessible", "Sometimes"]).status
                == 2
        )
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "A", "-w", "x", "--accessible", "AfterFirstUnlock"])
                .status == 0
        )
        #expect(try tool.run(["find-generic-password", "-s", "A", "--json"]).stdout.contains("\"pdmn\" : \"ck\""))
    }
}
