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

/// `security access-group …`: which groups a sandboxed app may use besides its own.
///
/// Through `securityd`, a Flatpak app's items are in its own group (`flatpak:` and its app id),
/// which no other app can reach and which the user's programs read only after the passcode or a
/// finger. These commands let the user share groups with an app: `default` (the user's own
/// items), another app's group, or any group name.
struct AccessGroupCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "access-group",
        abstract: "Grant sandboxed apps access groups besides their own.",
        discussion: """
            Apps are told apart only by securityd, and only sandboxed (Flatpak) apps, whose app id
            the daemon reads from the sandbox; an unsandboxed program is the user's and may ask for
            any group. Granting needs the passcode, when one is set.
            """,
        subcommands: [List.self, Grant.self, Revoke.self]
    )

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the sandboxed apps seen and the groups granted to each."
        )
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let applications = try BiometryCommands.perform("access-group list") {
                try AccessGroupCommands.daemon(keychain).applications()
            }
            if applications.isEmpty { Swift.print("no sandboxed app has used the keychain") }
            for (app, groups) in applications.sorted(by: { $0.key < $1.key }) {
                let granted =
                    groups.isEmpty ? "its own group only" : groups.map(Terminal.escaped).joined(separator: ", ")
                Swift.print("\(Terminal.escaped(app)): \(granted)")
            }
        }
    }

    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let an app use access groups besides its own.")
        @Argument(help: "The app's id (org.example.Notes).") var app: String
        @Argument(help: "The groups: default (the user's items), flatpak:<app id> (another app's), any group.")
        var groups: [String]
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            try AccessGroupCommands.change("grant", reported: "granted", app: app, groups: groups, keychain: keychain) {
                try $0.grantAccessGroups(groups, to: $1)
            }
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Take access groups back from an app.")
        @Argument(help: "The app's id.") var app: String
        @Argument(help: "The groups.") var groups: [String]
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            try AccessGroupCommands.change("revoke", reported: "revoked", app: app, groups: groups, keychain: keychain)
            {
                try $0.revokeAccessGroups(groups, from: $1)
            }
        }
    }

    /// Grants or revokes through the daemon (`body` gets its engine and the app's id), then says so.
    static func change(
        _ verb: String,
        reported: String,
        app: String,
        groups: [String],
        keychain: String?,
        _ body: (WireEngine, String) throws -> Void
    ) throws {
        try BiometryCommands.perform("access-group \(verb)") { try body(daemon(keychain), appID(app)) }
        Swift.print("\(reported) \(Terminal.escaped(app)): \(groups.map(Terminal.escaped).joined(separator: ", "))")
    }

    /// An app named by its id or by its group.
    static func appID(_ name: String) -> String {
        name.hasPrefix(ClientIdentity.flatpakGroupPrefix)
            ? String(name.dropFirst(ClientIdentity.flatpakGroupPrefix.count)) : name
    }

    /// The engine of the keychain's daemon; an in-process keychain has no apps to tell apart.
    static func daemon(_ keychain: String?) throws -> WireEngine {
        let device = try Session.open(home: keychain)
        guard let engine = device.engine as? WireEngine else {
            Terminal.printError(
                "security: access-group: this keychain is served in-process (KEYCHAIN_ENGINE=embedded), where apps are not told apart"
            )
            throw ExitCode(1)
        }
        return engine
    }
}
