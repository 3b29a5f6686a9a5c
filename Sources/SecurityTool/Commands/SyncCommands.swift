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
import KeychainContract
import KeychainDevice

/// `security sync …`: the circle of the user's devices that share their synchronizable items
/// (`kSecAttrSynchronizable`), end to end encrypted, through a PostgreSQL server the user runs.
struct SyncCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Synchronise the keychain's synchronizable items with your other devices.",
        discussion: """
            Items added with kSecAttrSynchronizable = true reach every device of the circle,
            sealed on the device under the circle's keys: the server (PostgreSQL) holds ciphertext,
            item names that are keyed hashes, versions and device ids. …ThisDeviceOnly items never
            leave. A device joins with a code that a trusted device approves; a device removed
            cannot read anything written afterwards. Synchronisation runs in securityd; making,
            joining, approving and removing need the passcode, when one is set.
            """,
        subcommands: [Create.self, Join.self, Approve.self, Remove.self, Status.self, Leave.self]
    )

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make a circle on a PostgreSQL server, with this device as its first."
        )
        @Option(
            help: """
                The server: postgres://USER@HOST[:PORT]/DATABASE (see README); its password is asked for \
                (a password in the URL is visible to every user while the command runs).
                """
        ) var server: String
        @Option(help: "This device's name in the circle (the host name by default).") var name = ""
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let report = try SyncCommands.send(
                "create",
                .create(server: try SyncServerURL.completing(server), deviceName: name),
                keychain: keychain
            )
            Swift.print("made the circle \(report.circle ?? "?")")
            SyncCommands.print(report)
        }
    }

    struct Join: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask to join the circle on a server; approve the code shown on a trusted device."
        )
        @Option(help: "The circle's server URL (its password is asked for, as for create).") var server: String
        @Option(help: "The circle's id, when the server holds several.") var circle: String?
        @Option(help: "This device's name in the circle (the host name by default).") var name = ""
        @Flag(help: "Print the code and return, without waiting for the approval.") var noWait = false
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let report = try SyncCommands.send(
                "join",
                .join(server: try SyncServerURL.completing(server), circle: circle, deviceName: name),
                keychain: keychain
            )
            Swift.print("on a trusted device, run: security sync approve \(report.joinCode ?? "?")")
            Swift.print("(the code is good for 10 minutes)")
            guard !noWait else { return }
            let deadline = Date().addingTimeInterval(600)
            while Date() < deadline {
                Thread.sleep(forTimeInterval: 1)
                let now = try SyncCommands.send("join", .status, keychain: keychain)
                switch now.membership {
                case .joining:
                    continue
                case .member, .awaitingKeys:
                    Swift.print("joined the circle \(now.circle ?? "?")")
                    SyncCommands.print(now)
                    return
                case .none, .removed:
                    Terminal.printError("security: join: the request was not approved (see `security daemon log`)")
                    throw ExitCode(1)
                }
            }
            Terminal.printError("security: join: no trusted device approved the code in time")
            throw ExitCode(1)
        }
    }

    struct Approve: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Let in the device that shows this code.")
        @Argument(help: "The code the joining device shows (ABCD-EFGH-JKMN).") var code: String
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let report = try SyncCommands.send("approve", .approve(code: code), keychain: keychain)
            if let device = report.changedDevice {
                Swift.print("approved \(Terminal.escaped(device.name)) (\(device.id))")
            }
            SyncCommands.print(report)
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a device from the circle: the circle's keys change, it reads nothing written afterwards."
        )
        @Argument(help: "The device's id, or its first digits (see `security sync status`).") var device: String
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let report = try SyncCommands.send("remove", .remove(device: device), keychain: keychain)
            if let removed = report.changedDevice {
                Swift.print("removed \(Terminal.escaped(removed.name)) (\(removed.id))")
            }
            SyncCommands.print(report)
        }
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show the circle: its devices, the server, the last exchange, what is pending."
        )
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            SyncCommands.print(try SyncCommands.send("status", .status, keychain: keychain))
        }
    }

    struct Leave: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop synchronising this keychain (its items stay; remove it from another device too)."
        )
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            _ = try SyncCommands.send("leave", .leave, keychain: keychain)
            Swift.print("this keychain left its circle")
        }
    }

    // MARK: Support

    static func send(_ verb: String, _ command: SyncCommand, keychain: String?) throws -> SyncReport {
        try BiometryCommands.perform("sync \(verb)") {
            let device = try Session.open(home: keychain)
            guard let engine = device.engine as? WireEngine else {
                Terminal.printError(
                    "security: sync \(verb): synchronisation runs in securityd; this keychain is served in-process (KEYCHAIN_ENGINE=embedded)"
                )
                throw ExitCode(1)
            }
            return try engine.sync(command)
        }
    }

    static func print(_ report: SyncReport) {
        switch report.membership {
        case .none:
            Swift.print("this keychain is in no circle")
            return
        case .joining:
            Swift.print("waiting for approval to join the circle \(report.circle ?? "?")")
        case .member:
            Swift.print("circle \(report.circle ?? "?")")
        case .awaitingKeys:
            Swift.print("circle \(report.circle ?? "?") (waiting for the circle's current keys)")
        case .removed:
            Swift.print("this device was removed from the circle \(report.circle ?? "?")")
        }
        if let server = report.server { Swift.print("server: \(Terminal.escaped(server))") }
        if !report.devices.isEmpty {
            Swift.print("devices:")
            for device in report.devices {
                Swift.print(
                    "  \(device.id)  \(Terminal.escaped(device.name))\(device.isThisDevice ? "  (this device)" : "")"
                )
            }
        }
        guard report.membership != .joining else { return }
        let last = report.lastExchange.map { ISO8601DateFormatter().string(from: $0) } ?? "never"
        Swift.print("last exchange: \(last)")
        Swift.print(
            "pending changes: \(report.pending); sent \(report.sent), received \(report.received) since the daemon started"
        )
        if let error = report.lastError { Swift.print("last error: \(Terminal.escaped(error))") }
        if !report.refused.isEmpty {
            let refused = report.refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            Swift.print("ignored from the server: \(refused.joined(separator: ", "))")
        }
    }
}
