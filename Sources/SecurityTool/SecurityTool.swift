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
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "security",
        abstract: "Command-line interface to the swift-keychain keychain, with macOS's commands.",
        usage: "security [-h] [-i] [-p prompt] [-q] [-v] [command] [options…]",
        discussion: """
            The keychain lives in $KEYCHAIN_HOME, else $XDG_DATA_HOME/swift-keychain, else \
            ~/.local/share/swift-keychain. Prompts read the terminal without echo, or one line of \
            standard input per prompt when standard input is not a terminal. As with macOS's tool, \
            a command may be shortened to its first letters (the first command in the list that \
            begins with them), -i reads commands from standard input (which keeps passwords out \
            of the process list), -p sets its prompt, -q hides failures' statuses there and -v \
            echoes each command first.
            """,
        subcommands: commands
    )

    /// The commands in macOS's order (which decides what a shortened name means), then this
    /// tool's own.
    static let commands: [any ParsableCommand.Type] = [
        Help.self, ListKeychains.self, DefaultKeychain.self, LoginKeychain.self, LockKeychain.self,
        UnlockKeychain.self, ShowKeychainInfo.self, DumpKeychain.self,
        AddGenericPassword.self, AddInternetPassword.self, FindGenericPassword.self, DeleteGenericPassword.self,
        FindInternetPassword.self, DeleteInternetPassword.self, FindCertificate.self, FindKey.self, FindIdentity.self,
        AddCertificates.self,
        DeleteCertificate.self, DeleteIdentity.self, ImportItems.self, ExportItems.self,
        AddTrustedCert.self, RemoveTrustedCert.self, VerifyCert.self,
        Passcode.self, Lock.self, Unlock.self, Status.self, BiometryCommands.self, AccessGroupCommands.self,
        SyncCommands.self,
        EnclaveKeyCommands.self,
        BackupKeychain.self, RestoreKeychain.self, DaemonCommands.self, SecretServiceCommands.self,
        TPMCommands.self, Demo.self,
    ]

    /// The command a (possibly shortened) name means: its exact name, else the first that begins
    /// with it (macOS's `match_command`).
    static func command(named name: String) -> (any ParsableCommand.Type)? {
        guard !name.isEmpty else { return nil }
        return commands.first { $0._commandName == name } ?? commands.first { $0._commandName.hasPrefix(name) }
    }
}

@main
enum Main {
    static func main() {
        // Passcodes pass through this process: no core dumps, no reading of its memory by others.
        KeychainProcess.harden()
        let status = CommandLineSession.run(Array(CommandLine.arguments.dropFirst()))
        Session.close()
        exit(status)
    }
}
