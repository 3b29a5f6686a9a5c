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

/// The tool's command line read as macOS's `security` reads it (`SecurityTool/macOS/security.c`,
/// `keychain_add.c`, `keychain_find.c`: BSD `getopt`, `match_command`, `keychain_open`), as
/// scripts written for macOS rely on it.
@Suite struct MacCommandLineTests {
    static let noSuchKeychain = "The specified keychain could not be found.\n"

    @Test func valuesAreTakenAsGetoptTakesThem() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        // A value that begins with "-" is still the value; attached values; "-w" before another flag.
        #expect(try tool.run(["add-generic-password", "-a", "-acct", "-s", "Dash", "-w", "-Xy9"]).status == 0)
        #expect(try tool.run(["add-generic-password", "-aplain", "-sLegacy", "-wsecret"]).status == 0)
        #expect(try tool.run(["add-generic-password", "-a", "x", "-s", "Flag", "-w", "-U"]).status == 0)
        #expect(try tool.run(["add-generic-password", "-a", "x", "-s", "Equals", "-w=x"]).status == 0)
        #expect(try tool.run(["add-generic-password", "-a", "x", "-s", "Legacy-p", "-p", "-old"]).status == 0)
        #expect(try tool.run(["find-generic-password", "-s", "Dash", "-w"]).stdout == "-Xy9\n")
        #expect(try tool.run(["find-generic-password", "-a", "-acct", "-w"]).stdout == "-Xy9\n")
        #expect(try tool.run(["find-generic-password", "-sLegacy", "-w"]).stdout == "secret\n")
        #expect(try tool.run(["find-generic-password", "-s", "Flag", "-w"]).stdout == "-U\n")
        #expect(try tool.run(["find-generic-password", "-s", "Equals", "-w"]).stdout == "=x\n")
        #expect(try tool.run(["find-generic-password", "-s", "Legacy-p", "-w"]).stdout == "-old\n")
        // Grouped flags, and -w last in a group: prompted, the -U before it still counts.
        #expect(
            try tool.run(["add-generic-password", "-a", "x", "-s", "Flag", "-Uw"], input: "new\nnew\n").status == 0
        )
        #expect(try tool.run(["find-generic-password", "-gws", "Flag"]).stdout == "new\n")

        // Options end at the first operand, as BSD getopt has it: the rest are keychains.
        let late = try tool.run(["find-generic-password", "-s", "Dash", "login.keychain", "-w"])
        #expect(late.status == 50)
        #expect(late.stderr == "security: SecKeychainSearchCopyNext: " + Self.noSuchKeychain)

        // Unknown letters: getopt's message for the find commands, the usage on stderr, exit 2.
        let illegal = try tool.run(["find-generic-password", "-Z"])
        #expect(illegal.status == 2)
        #expect(illegal.stderr.hasPrefix("security: illegal option -- Z\n"))
        #expect(illegal.stderr.contains("find-generic-password"))
        let missing = try tool.run(["find-generic-password", "-s"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("security: option requires an argument -- s\n"))
        // The add commands' letters begin with ":": no message of getopt's, only the usage.
        let quiet = try tool.run(["add-generic-password", "-Z"])
        #expect(quiet.status == 2)
        #expect(!quiet.stderr.contains("illegal option"))
    }

    @Test func portsAreReadAsAtoiReadsThem() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        #expect(
            try tool.run(["add-internet-password", "-a", "me", "-s", "ports.example", "-P", "8080x", "-w", "a"]).status
                == 0
        )
        // Out of range, as glibc's atoi: never a crash.
        #expect(
            try tool.run(["find-internet-password", "-s", "ports.example", "-P", "9223372036854775808"]).status == 44
        )
        let found = try tool.run(["find-internet-password", "-s", "ports.example", "-P", "8080", "-g"])
        #expect(found.status == 0)
        #expect(found.stdout.contains("    \"port\"<uint32>=0x00001F90 \n"))
        // "-P abc" is port 0, which matches any port.
        #expect(try tool.run(["find-internet-password", "-s", "ports.example", "-P", "abc", "-w"]).stdout == "a\n")
        // Unset path and security domain print as macOS prints zero-length attributes.
        #expect(found.stdout.contains("    \"path\"<blob>=<NULL>\n"))
        #expect(found.stdout.contains("    \"sdmn\"<blob>=<NULL>\n"))
    }

    @Test func aKeychainArgumentNamesAnExistingKeychainAndNeverCreatesOne() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("security-cwd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = folder.path
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "Named", "-w", "pw"], environment: environment)
                .status == 0
        )

        // A forgotten -s: "One" is a keychain name, which does not exist.
        let find = try tool.run(["find-generic-password", "One"], environment: environment, directory: folder)
        #expect(find.status == 50)
        #expect(find.stderr == "security: SecKeychainSearchCopyNext: " + Self.noSuchKeychain)
        let add = try tool.run(
            ["add-generic-password", "-a", "me", "-s", "x", "-w", "pw", "One"],
            environment: environment,
            directory: folder
        )
        #expect(add.status == 50)
        #expect(add.stderr == "security: SecKeychainItemCreateFromContent (One): " + Self.noSuchKeychain)
        let delete = try tool.run(
            ["delete-generic-password", "-s", "Named", "Other/keychain.db"],
            environment: environment,
            directory: folder
        )
        #expect(delete.status == 50)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        // A keychain.db that is a link (to nothing yet) names no keychain: opening would create its target.
        let planted = FileManager.default.temporaryDirectory.appendingPathComponent(
            "security-link-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: planted, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: planted) }
        let target = planted.appendingPathComponent("target.db")
        try FileManager.default.createSymbolicLink(
            at: planted.appendingPathComponent("keychain.db"),
            withDestinationURL: target
        )
        #expect(
            try tool.run(
                ["add-generic-password", "-a", "me", "-s", "x", "-w", "pw", planted.path],
                environment: environment
            ).status == 50
        )
        #expect(!FileManager.default.fileExists(atPath: target.path))
        // An empty name is a usage error, as on macOS.
        #expect(try tool.run(["find-generic-password", "-s", "Named", ""], environment: environment).status == 2)

        // macOS's login keychain names mean the default keychain; nothing is made under ~/Library.
        for name in ["login.keychain", "login.keychain-db", "\(folder.path)/Library/Keychains/login.keychain-db"] {
            let output = try tool.run(
                ["find-generic-password", "-s", "Named", "-w", name],
                environment: environment,
                directory: folder
            )
            #expect(output.stdout == "pw\n", "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

        // The keychain's own folder, or the database path the tool prints, names it too.
        #expect(try tool.run(["find-generic-password", "-s", "Named", "-w", tool.home.path]).stdout == "pw\n")
        let listed = try tool.run(["list-keychains"])
        #expect(listed.stdout == "    \"\(tool.home.path)/keychain.db\"\n")
        #expect(
            try tool.run(["find-generic-password", "-s", "Named", "-w", tool.home.path + "/keychain.db"]).stdout
                == "pw\n"
        )
        // Several keychains are searched in order; a missing one among them is reported first.
        #expect(
            try tool.run(["find-generic-password", "-s", "Named", "-w", "login.keychain", tool.home.path]).stdout
                == "pw\n"
        )
        #expect(
            try tool.run(["find-generic-password", "-s", "Named", "-w", "login.keychain", "/nonexistent"]).status == 50
        )
    }

    @Test func theTopLevelAsMacOSHasIt() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let none = try tool.run([])
        #expect(none.status == 2)
        #expect(none.stdout.contains("find-generic-password"))
        let unknown = try tool.run(["foo"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr == "security: unknown command \"foo\"\n")
        #expect(try tool.run(["--version"]).stdout.hasPrefix("swift-keychain "))

        // A command may be shortened: the first in macOS's order that begins with what is given.
        #expect(try tool.run(["add-g", "-a", "me", "-s", "Short", "-w", "pw"]).status == 0)
        #expect(try tool.run(["find-g", "-s", "Short", "-w"]).stdout == "pw\n")
        #expect(try tool.run(["find-i", "-s", "Short"]).status == 44)  // find-internet-password

        // -h: the usage of each command named; a command's own -h is its usage on stderr, exit 2.
        let help = try tool.run(["-h", "find-generic-password"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("find-generic-password"))
        let commandHelp = try tool.run(["find-generic-password", "-h"])
        #expect(commandHelp.status == 2)
        #expect(commandHelp.stderr.contains("-w"))

        // -i: one command per line of standard input (secrets stay out of the process list);
        // failures' statuses are reported unless -q; the last command's status is the tool's.
        let script = """
            add-generic-password -a me -s "Typed in" -w 'a secret with spaces'
            find-generic-password -s "Typed in" -w
            find-generic-password -s Nothing

            find-generic-password -s Short -w
            """
        let interactive = try tool.run(["-i"], input: script + "\n")
        #expect(interactive.status == 0)
        #expect(interactive.stdout == "a secret with spaces\npw\n")
        // security.c prints the command's own result: the OSStatus (the exit status is its low byte).
        #expect(interactive.stderr.contains("find-generic-password: returned -25300\n"))
        let quiet = try tool.run(["-q", "-i"], input: "find-generic-password -s Nothing\n")
        #expect(quiet.status == 44)
        #expect(!quiet.stderr.contains("returned"))
        // -v echoes each command, never a password, however it is given.
        let verbose = try tool.run(["-v", "add-generic-password", "-a", "me", "-s", "Echo", "-w", "hunter2"])
        #expect(verbose.status == 0)
        #expect(verbose.stderr.hasPrefix("add-generic-password \"-a\" \"me\""))
        #expect(!verbose.stderr.contains("hunter2"))
        for arguments in [
            ["-s", "-w", "-U", "-a", "x", "-whunter3"], ["-a", "x", "-s", "Echo3", "--password=hunter3"],
            ["-a", "x", "-s", "Echo4", "-X", "68756e74657233"],
        ] {
            let output = try tool.run(["-v", "add-generic-password"] + arguments)
            #expect(!output.stderr.contains("hunter3") && !output.stderr.contains("68756e74657233"), "\(arguments)")
        }
        let unlock = try tool.run(["-v", "unlock-keychain", "-p", "hunter4"])
        #expect(!unlock.stderr.contains("hunter4"))

        // -i reads its lines unbuffered: a line meant for a prompt is the prompt's, never a command.
        let prompted = try tool.run(
            ["-i"],
            input:
                "add-generic-password -a me -s Prompted -w\nsecret-line\nsecret-line\nfind-generic-password -s Prompted -w\n"
        )
        #expect(prompted.stdout == "secret-line\n")
        #expect(!prompted.stderr.contains("unknown command"))
    }

    @Test func primaryKeyMatchingAndUpdateAsMacOSHasThem() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "Keyed", "-l", "Label", "-w", "one"]).status == 0
        )
        // With account and service given, the other attributes are not matched.
        #expect(
            try tool.run(["find-generic-password", "-a", "me", "-s", "Keyed", "-l", "Other", "-w"]).stdout == "one\n"
        )
        #expect(try tool.run(["find-generic-password", "-s", "Keyed", "-l", "Other", "-w"]).status == 44)
        // -U sets the attributes given and the default label (the service), as macOS's tool does.
        #expect(
            try tool.run(["add-generic-password", "-U", "-a", "me", "-s", "Keyed", "-j", "note", "-w", "two"]).status
                == 0
        )
        var found = try tool.run(["find-generic-password", "-a", "me", "-s", "Keyed", "-g"])
        #expect(found.stdout.contains("    0x00000007 <blob>=\"Keyed\"\n"))
        #expect(found.stdout.contains("    \"icmt\"<blob>=\"note\"\n"))
        #expect(found.stderr == "password: \"two\"\n")
        // Without a password, -U leaves the stored one as it is.
        #expect(try tool.run(["add-generic-password", "-U", "-a", "me", "-s", "Keyed", "-l", "Label"]).status == 0)
        found = try tool.run(["find-generic-password", "-a", "me", "-s", "Keyed", "-g"])
        #expect(found.stdout.contains("    0x00000007 <blob>=\"Label\"\n"))
        #expect(found.stderr == "password: \"two\"\n")

        // Internet passwords: -U without protocol and port updates the first match instead of
        // adding a second item.
        #expect(
            try tool.run([
                "add-internet-password", "-a", "me", "-s", "web.example", "-r", "htps", "-P", "443", "-w", "one",
            ]).status == 0
        )
        #expect(
            try tool.run(["add-internet-password", "-U", "-a", "me", "-s", "web.example", "-w", "two"]).status == 0
        )
        #expect(try tool.run(["find-internet-password", "-s", "web.example", "-r", "htps", "-w"]).stdout == "two\n")
        #expect(try tool.run(["delete-internet-password", "-s", "web.example"]).status == 0)
        #expect(try tool.run(["find-internet-password", "-s", "web.example"]).status == 44)
    }

    @Test func theKeychainFileCommandsSayWhatTheyDoHere() throws {
        let tool = SecurityToolRunner(perProcess: true)
        defer { tool.remove() }
        #expect(try tool.run(["add-generic-password", "-a", "me", "-s", "Locked", "-w", "pw"]).status == 0)
        #expect(try tool.run(["passcode", "set"], input: "2468\n2468\n").status == 0)
        for command in ["default-keychain", "login-keychain"] {
            #expect(try tool.run([command]).stdout == "    \"\(tool.home.path)/keychain.db\"\n")
        }
        let set = try tool.run(["default-keychain", "-s", "/tmp/other.keychain"])
        #expect(set.status == 1)
        #expect(set.stderr.contains("cannot be changed"))
        let info = try tool.run(["show-keychain-info"])
        #expect(info.stderr == "Keychain \"<NULL>\" no-timeout\n")
        #expect(try tool.run(["show-keychain-info", "missing.keychain"]).status == 50)
        let wrong = try tool.run(["unlock-keychain", "-p", "1357"])
        #expect(wrong.status == 51)
        #expect(
            wrong.stderr
                == "security: SecKeychainUnlock <NULL>: The user name or passphrase you entered is not correct.\n"
        )
        let right = try tool.run(["unlock-keychain", "-p", "2468"])
        #expect(right.status == 0)
        #expect(right.stdout.isEmpty && right.stderr.isEmpty)
        #expect(try tool.run(["lock-keychain"]).status == 0)
    }

    @Test func aRefusedAddSaysWhatToDoAndTheLogStaysQuiet() throws {
        let tool = SecurityToolRunner()
        defer { tool.remove() }
        let refused = try tool.run([
            "add-generic-password", "-a", "me", "-s", "Akpu", "-w", "pw", "--accessible",
            "WhenPasscodeSetThisDeviceOnly",
        ])
        #expect(refused.status == 53)
        #expect(
            refused.stderr.hasPrefix(
                "security: SecKeychainItemCreateFromContent (<default>): No keychain is available."
            )
        )
        #expect(refused.stderr.contains("security passcode set"))
        // The engine's notices and information are not the tool's output; KEYCHAIN_LOG_LEVEL shows them.
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_LOG_LEVEL"] = "nonsense"
        let quiet = try tool.run(["find-generic-password", "-s", "Nothing"], environment: environment)
        #expect(quiet.stderr == SecurityToolTests.notFound)
    }
}
