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
import KeychainBus
import KeychainContract
import KeychainCore
import KeychainDevice

/// `security secret-service …`: the desktop's keyring, served by `securityd --secret-service`.
struct SecretServiceCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "secret-service",
        abstract: "Move the desktop's keyring (the freedesktop Secret Service) into this keychain.",
        discussion: """
            securityd --secret-service serves org.freedesktop.secrets from this keychain. Before it \
            takes the name over (--replace), import copies every item of the keyring that serves it \
            now (gnome-keyring, KWallet, KeePassXC), unlocking its collections through its own prompt.
            """,
        subcommands: [Import.self]
    )

    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Copy every item of the running Secret Service provider into this keychain."
        )
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let device = try Session.open(home: keychain, context: "secret-service import")
            let report: SecretServiceImport.Report
            do {
                let bus = try BusConnection.open(.session)
                report = try SecretServiceImport(bus: bus, store: SecretStore(engine: device.engine)).run()
            } catch {
                let message =
                    switch error {
                    case let error as BusError where error.name == "org.freedesktop.DBus.Error.NameHasNoOwner":
                        "no program serves org.freedesktop.secrets: there is nothing to import"
                    case let error as BusError: error.message
                    case let error as KeychainError: error.message
                    default: "\(error)"
                    }
                FileHandle.standardError.write(
                    Data("security: secret-service import: \(Terminal.escaped(message))\n".utf8)
                )
                throw ExitCode(1)
            }
            Swift.print(
                "imported \(report.added) item\(report.added == 1 ? "" : "s") from \(report.collections) collection\(report.collections == 1 ? "" : "s")"
                    + (report.alreadyThere > 0 ? "; \(report.alreadyThere) already in the keychain" : "")
            )
            for line in report.skipped { Swift.print("skipped \(Terminal.escaped(line))") }
        }
    }
}
