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
import KeychainContract
import KeychainDevice
import KeychainTestSupport
import Testing

/// The installed `security`: the launcher runs `security-lookup` for the `find-…-password`
/// commands and the full tool for the others; `security-lookup` answers a password look-up through
/// `securityd` itself, prints exactly what the full tool prints for every command line, and leaves
/// everything else to it.
@Suite(.serialized)
struct LauncherTests {
    /// The launcher in the build, beside the full tool (`security`) and `security-lookup`.
    static var launcher: URL {
        SecurityToolRunner.executable.deletingLastPathComponent().appendingPathComponent("security-launcher")
    }

    /// `security-lookup` in the build.
    static var lookup: URL {
        SecurityToolRunner.executable.deletingLastPathComponent().appendingPathComponent("security-lookup")
    }

    /// A copy of `security-lookup` alone in a folder of its own: whatever it does not answer
    /// itself ends with the message that the full tool is missing.
    static func loneLookup() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lookup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("security-lookup")
        try FileManager.default.copyItem(at: lookup, to: copy)
        return copy
    }

    @Test func securityLookupAnswersAPasswordLookUpItselfAndNothingElse() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        #expect(try daemon.tool(["add-generic-password", "-a", "me", "-s", "Example", "-w", "s3cret"]).status == 0)
        let lookup = try Self.loneLookup()
        defer { try? FileManager.default.removeItem(at: lookup.deletingLastPathComponent()) }
        let environment = daemon.clientEnvironment()

        var output = try SecurityToolRunner.runProgram(
            lookup.path,
            ["find-generic-password", "-s", "Example", "-w"],
            environment: environment
        )
        #expect(output.status == 0)
        #expect(output.stdout == "s3cret\n")
        #expect(output.stderr.isEmpty)

        // Everything else is the full tool's: the attribute block (-g), another command, an item
        // that is not there (whose message is the tool's).
        let missing =
            "security: cannot find the full security tool beside security-lookup; reinstall it with Scripts/install.sh\n"
        for arguments in [
            ["find-generic-password", "-s", "Example", "-g"],
            ["find-generic-password", "-s", "Example", "-w", "--json"],
            ["find-generic-password", "-s", "Nothing", "-w"],
            ["find-internet-password", "-s", "Example", "-w"],
        ] {
            output = try SecurityToolRunner.runProgram(lookup.path, arguments, environment: environment)
            #expect(output.status == 1, "\(arguments)")
            #expect(output.stdout.isEmpty, "\(arguments)")
            #expect(output.stderr == missing, "\(arguments)")
        }

        // A keychain in the process is the full tool's (security-lookup links no engine), even
        // with a daemon running for the home.
        var embedded = environment
        embedded["KEYCHAIN_ENGINE"] = "embedded"
        output = try SecurityToolRunner.runProgram(
            lookup.path,
            ["find-generic-password", "-s", "Example", "-w"],
            environment: embedded
        )
        #expect(output.status == 1)
        #expect(output.stderr == missing)

        // A locked keychain stays locked to it: the daemon refuses, and the full tool would report it.
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(try daemon.tool(["lock"]).status == 0)
        output = try SecurityToolRunner.runProgram(
            lookup.path,
            ["find-generic-password", "-s", "Example", "-w"],
            environment: environment
        )
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderr == missing)
    }

    @Test func everyLookUpPrintsWhatTheFullToolPrints() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        for add in [
            [
                "add-generic-password", "-a", "me", "-s", "Example", "-w", "s3cret", "-l", "Label", "-G",
                "generic value", "-c", "abcd",
            ],
            ["add-generic-password", "-a", "you", "-s", "Example", "-w", "second"],
            ["add-generic-password", "-a", "me", "-s", "Binary", "-X", "00ff10"],
            ["add-generic-password", "-a", "me", "-s", "Empty"],
            ["add-internet-password", "-a", "me", "-s", "example.com", "-r", "htps", "-P", "443", "-w", "web"],
            ["add-internet-password", "-a", "me", "-s", "example.org", "-w", "no port"],
        ] {
            #expect(try daemon.tool(add).status == 0, "\(add)")
        }
        // An item of another access group, and one that asks for the passcode.
        var other = daemon.clientEnvironment()
        other["KEYCHAIN_ACCESS_GROUPS"] = "other"
        let grouped = try SecurityToolRunner.runProgram(
            SecurityToolRunner.executable.path,
            ["add-generic-password", "-a", "me", "-s", "Grouped", "-w", "other group"],
            environment: other
        )
        #expect(grouped.status == 0)
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(
            try daemon.tool([
                "add-generic-password", "-a", "me", "-s", "Protected", "-w", "asks", "--access-control",
                "devicePasscode",
            ]).status == 0
        )
        var environment = daemon.clientEnvironment()
        environment["KEYCHAIN_PROMPT"] = "none"
        for arguments in [
            ["find-generic-password", "-s", "Example", "-a", "me", "-w"],
            ["find-generic-password", "-wa", "you", "-sExample"],
            ["find-generic-password", "-l", "Label", "-w"],
            ["find-generic-password", "-G", "generic value", "-w"],
            ["find-generic-password", "-c", "abcd", "-w"],
            ["find-generic-password", "-c", "abc", "-w"],
            ["find-generic-password", "-s", "Binary", "-w"],
            ["find-generic-password", "-s", "Empty", "-w"],
            ["find-generic-password", "-s", "Example", "-a", "me", "-a", "you", "-w"],
            ["find-generic-password", "--service=Example", "--account=you", "--password-only"],
            ["find-generic-password", "-s", "Nothing", "-w"],
            ["find-generic-password", "-s", "Example", "-w", "login.keychain"],
            ["find-generic-password", "-s", "Example", "-w", "/nonexistent/keychain"],
            ["find-generic-password", "-s", "Example", "-w", "-h"],
            ["find-generic-password", "-s"],
            ["find-internet-password", "-s", "example.com", "-a", "me", "-r", "htps", "-P", "443", "-w"],
            ["find-internet-password", "-s", "example.com", "--port=443", "-w"],
            ["find-internet-password", "-s", "example.org", "-P", "abc", "-w"],
            ["find-internet-password", "-s", "example.org", "-P", "0", "-a", "me", "-w"],
            ["find-internet-password", "-s", "example.com", "-r", "htp", "-w"],
            ["find-generic-password", "-s", "Grouped", "-w"],
            ["find-generic-password", "-s", "Protected", "-w"],
            // Through the launcher to the full tool.
            ["find-g", "-s", "Example", "-w"],
            ["-v", "find-generic-password", "-s", "Example", "-w"],
            ["-q", "status"],
            ["--version"],
            ["-h", "find-generic-password"],
            [],
        ] {
            let launched = try SecurityToolRunner.runProgram(Self.launcher.path, arguments, environment: environment)
            let full = try SecurityToolRunner.runProgram(
                SecurityToolRunner.executable.path,
                arguments,
                environment: environment
            )
            #expect(launched.status == full.status, "\(arguments)")
            #expect(launched.stdout == full.stdout, "\(arguments)")
            #expect(launched.stderr == full.stderr, "\(arguments)")
        }
        var narrowed = environment
        narrowed["KEYCHAIN_ACCESS_GROUPS"] = "default"
        for arguments in [
            ["find-generic-password", "-s", "Grouped", "-w"],
            ["find-generic-password", "-s", "Example", "-a", "me", "-w"],
        ] {
            let launched = try SecurityToolRunner.runProgram(Self.launcher.path, arguments, environment: narrowed)
            let full = try SecurityToolRunner.runProgram(
                SecurityToolRunner.executable.path,
                arguments,
                environment: narrowed
            )
            #expect(launched.status == full.status, "\(arguments)")
            #expect(launched.stdout == full.stdout, "\(arguments)")
            #expect(launched.stderr == full.stderr, "\(arguments)")
        }
        let hidden = try SecurityToolRunner.runProgram(
            Self.launcher.path,
            ["find-generic-password", "-s", "Grouped", "-w"],
            environment: narrowed
        )
        #expect(hidden.status == 44, "\(hidden)")
        #expect(
            try SecurityToolRunner.runProgram(
                Self.launcher.path,
                ["find-generic-password", "-s", "Grouped", "-w"],
                environment: environment
            ).stdout == "other group\n"
        )
        // What the two agreed on, for the look-ups that find something.
        let binary = try SecurityToolRunner.runProgram(
            Self.launcher.path,
            ["find-generic-password", "-s", "Binary", "-w"],
            environment: environment
        )
        #expect(binary.stdout == "00ff10\n")
        let web = try SecurityToolRunner.runProgram(
            Self.launcher.path,
            ["find-internet-password", "-s", "example.com", "-P", "443", "-w"],
            environment: environment
        )
        #expect(web.stdout == "web\n")
    }

    @Test func aLookUpWhereThereIsNoKeychainCreatesNone() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-home-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_HOME"] = home.path
        environment["KEYCHAIN_ACCESS_GROUPS"] = nil
        let output = try SecurityToolRunner.runProgram(
            Self.launcher.path,
            ["find-generic-password", "-s", "Example", "-w"],
            environment: environment
        )
        #expect(output.status == 44)
        #expect(
            output.stderr
                == "security: SecKeychainSearchCopyNext: The specified item could not be found in the keychain.\n"
        )
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("keychain.db").path))
    }

    @Test func anInstalledLauncherRunsTheFullToolFromLibexecAndStartsTheDaemonBesideIt() throws {
        // The layout of Scripts/install.sh: bin/security (the launcher), bin/securityd,
        // libexec/swift-keychain/security (the full tool) and security-lookup.
        let root = URL(fileURLWithPath: "/tmp/kc-installed-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("prefix/bin")
        let libexec = root.appendingPathComponent("prefix/libexec/swift-keychain")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: libexec, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.launcher, to: bin.appendingPathComponent("security"))
        try FileManager.default.createSymbolicLink(
            at: bin.appendingPathComponent("securityd"),
            withDestinationURL: PrivateDaemon.executable
        )
        // Copies: neither finds a securityd beside it or on the PATH, only through the launcher.
        try FileManager.default.copyItem(
            at: SecurityToolRunner.executable,
            to: libexec.appendingPathComponent("security")
        )
        try FileManager.default.copyItem(at: Self.lookup, to: libexec.appendingPathComponent("security-lookup"))
        let security = bin.appendingPathComponent("security").path

        // A user's environment: the default engine, no securityd on the PATH.
        var environment = ProcessInfo.processInfo.environment
        for name in ["KEYCHAIN_ENGINE", "KEYCHAIN_SOCKET", "KEYCHAIN_SECURITYD", "KEYCHAIN_ACCESS_GROUPS"] {
            environment[name] = nil
        }
        environment["PATH"] = "/usr/bin:/bin"
        environment["XDG_RUNTIME_DIR"] = root.appendingPathComponent("runtime").path
        environment["KEYCHAIN_HOME"] = root.appendingPathComponent("home").path
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try PrivateDaemon.writeSettings([:], to: home.appendingPathComponent("securityd.conf"))
        let add = try SecurityToolRunner.runProgram(
            security,
            ["add-generic-password", "-a", "me", "-s", "Installed", "-w", "from libexec"],
            environment: environment
        )
        #expect(add.status == 0, "\(add.stderr)")
        let endpoint = DaemonEndpoint.forHome(root.appendingPathComponent("home"), environment: environment)
        let lock = try String(contentsOfFile: endpoint.lockPath, encoding: .utf8)
        let processID = try #require(Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(processID, SIGTERM) }
        let read = try SecurityToolRunner.runProgram(
            security,
            ["find-generic-password", "-s", "Installed", "-w"],
            environment: environment
        )
        #expect(read.status == 0)
        #expect(read.stdout == "from libexec\n")
        let help = try SecurityToolRunner.runProgram(security, ["--version"], environment: environment)
        #expect(help.status == 0)
        #expect(help.stdout.hasPrefix("swift-keychain "))

        // Without security-lookup, the full tool answers the look-up.
        try FileManager.default.removeItem(at: libexec.appendingPathComponent("security-lookup"))
        let again = try SecurityToolRunner.runProgram(
            security,
            ["find-generic-password", "-s", "Installed", "-w"],
            environment: environment
        )
        #expect(again.stdout == "from libexec\n")
        // Without the full tool nothing runs (security-lookup would have nothing to fall back to),
        // and a launcher whose folder holds it alone never runs itself.
        try FileManager.default.removeItem(at: libexec.appendingPathComponent("security"))
        try FileManager.default.copyItem(at: Self.lookup, to: bin.appendingPathComponent("security-lookup"))
        let missing =
            "security: cannot find the security tool in libexec/swift-keychain; reinstall it with Scripts/install.sh\n"
        for arguments in [["status"], ["find-generic-password", "-s", "Installed", "-w"]] {
            let output = try SecurityToolRunner.runProgram(security, arguments, environment: environment)
            #expect(output.status == 1)
            #expect(output.stdout.isEmpty)
            #expect(output.stderr == missing)
        }
    }
}
