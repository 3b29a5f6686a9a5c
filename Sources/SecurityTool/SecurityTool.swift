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

import ArgumentParser
import Foundation
import KeychainDevice

/// `security`: macOS's keychain commands, plus the Linux "Settings" for passcode and lock state.
struct SecurityTool: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "security",
        abstract: "Command-line interface to the swift-keychain keychain, with macOS's commands.",
        discussion: """
            The keychain lives in $KEYCHAIN_HOME, else $XDG_DATA_HOME/swift-keychain, else \
            ~/.local/share/swift-keychain. Prompts read the terminal without echo, or one line of \
            standard input per prompt when standard input is not a terminal.
            """,
        subcommands: [
            AddGenericPassword.self, FindGenericPassword.self, DeleteGenericPassword.self,
            AddInternetPassword.self, FindInternetPassword.self, DeleteInternetPassword.self,
            DumpKeychain.self, Passcode.self, Lock.self, Unlock.self, Status.self, BiometryCommands.self, AccessGroupCommands.self, Demo.self,
        ]
    )
}

@main
enum Main {
    static func main() {
        // Passcodes pass through this process: no core dumps, no reading of its memory by others.
        KeychainProcess.harden()
        var arguments = Array(CommandLine.arguments.dropFirst())
        // macOS: `-w` (or `-p` in the generic commands) given last, without a value, means "prompt for it".
        if let command = arguments.first, command.hasPrefix("add-"), let last = arguments.last,
            last == "-w" || (last == "-p" && command == "add-generic-password")
        {
            arguments.removeLast()
            arguments.append("--prompt-for-password")
        }
        if command(arguments.first) == "add-generic-password", let index = arguments.firstIndex(of: "-p") {
            arguments[index] = "-w"  // "-p: legacy option, equivalent to -w"
        }
        do {
            var command = try parse(arguments)
            try command.run()
            Session.close()
        } catch let exit as ExitCode {
            Session.close()
            Foundation.exit(exit.rawValue)
        } catch {
            let code = SecurityTool.exitCode(for: error)
            if code == .success {
                print(SecurityTool.fullMessage(for: error))
                Foundation.exit(0)
            }
            // Usage errors: macOS prints the usage on standard error and exits with 2.
            FileHandle.standardError.write(Data((SecurityTool.fullMessage(for: error) + "\n").utf8))
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }

    private static func command(_ name: String?) -> String? { name }

    /// The item commands, which scripts run once per secret: parsed on their own, without building
    /// the whole command tree (a few milliseconds of reflection per process).
    private static let itemCommands: [String: any ParsableCommand.Type] = [
        "add-generic-password": AddGenericPassword.self, "find-generic-password": FindGenericPassword.self,
        "delete-generic-password": DeleteGenericPassword.self, "add-internet-password": AddInternetPassword.self,
        "find-internet-password": FindInternetPassword.self, "delete-internet-password": DeleteInternetPassword.self,
    ]

    /// Parses `arguments`; any help request or error goes through the full tree, so that usage and
    /// messages read exactly as they do for every other command.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        let helpFlags: Set<String> = ["-h", "--help", "-help", "help"]
        if let name = arguments.first, let type = itemCommands[name],
            !arguments.contains(where: helpFlags.contains),
            let command = try? type.parseAsRoot(Array(arguments.dropFirst()))
        {
            return command
        }
        return try SecurityTool.parseAsRoot(arguments)
    }
}
