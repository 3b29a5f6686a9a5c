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
        subcommands: [Import.self, Protect.self, Confirm.self]
    )

    struct Confirm: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask before a program reads a secret that another program stored.",
            discussion: """
                With on, a program that reads a secret of the desktop's keyring over D-Bus, and is \
                not the program that stored it, waits until you answer: Always Allow (remembered \
                for that item and program), Allow (until the program disconnects) or Deny. A \
                program is its executable: every python script is /usr/bin/python3. off asks for \
                the passcode first; status prints the setting.
                """
        )
        @Argument(help: "on, off or status.") var setting: String
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            guard ["on", "off", "status"].contains(setting) else {
                throw ValidationError("the setting is on, off or status")
            }
            let device = try Session.open(home: keychain, context: "secret-service confirm")
            let store = SecretStore(engine: device.engine)
            let group = SecretStore.sharedGroup
            if setting == "off", try store.confirmsReads(group: group) {
                // Turning a protection off is the person's decision, not a program's.
                let context = try device.engine.makeContext()
                defer { device.engine.releaseContext(context) }
                if device.engine.preflight(.deviceOwner, for: context)?.code != .passcodeNotSet {
                    try device.engine.evaluate(
                        .deviceOwner,
                        for: context,
                        reason: "stop asking before programs read each other's secrets",
                        interactionAllowed: true
                    )
                }
            }
            if setting != "status" { try store.setConfirmsReads(setting == "on", group: group) }
            let on = try store.confirmsReads(group: group)
            Swift.print("confirm: \(on ? "on (programs ask before reading another program's secrets)" : "off")")
        }
    }

    struct Protect: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Release a collection's secrets to programs only after you authenticate.",
            discussion: """
                Every read of a secret of the collection over D-Bus then asks for a finger \
                (biometryAny), the passcode (devicePasscode), or either (userPresence), once per \
                program for five minutes. The items' own access controls enforce it. none lifts \
                the protection, after the authentication it asked for.
                """
        )
        @Argument(help: "The collection: login, or another's id.") var collection: String
        @Argument(help: "userPresence, devicePasscode, biometryAny or none.") var policy: String
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            guard let flags = policy == "none" ? 0 : SecretStore.protectionFlags[policy] else {
                throw ValidationError("the policy is userPresence, devicePasscode, biometryAny or none")
            }
            let device = try Session.open(home: keychain, context: "secret-service protect")
            let store = SecretStore(engine: device.engine)
            let context = try device.engine.makeContext()
            defer { device.engine.releaseContext(context) }
            for _ in 0..<3 {
                let attempt = Result { () throws(KeychainError) in
                    try store.protect(collection, flags: flags, group: SecretStore.sharedGroup, context: context)
                }
                guard case .failure(let error) = attempt else {
                    Swift.print(flags == 0 ? "\(collection): not protected" : "\(collection): protected with \(policy)")
                    return
                }
                guard error.code == .authenticationNeeded, let request = error.authenticationRequest else {
                    throw error
                }
                try device.engine.evaluate(
                    request.accessControl,
                    operation: request.operation,
                    missing: request.missingAlternatives,
                    for: context,
                    reason: "change the protection of the collection \(collection)",
                    interactionAllowed: true
                )
            }
            throw KeychainError(.authenticationFailed, "authentication did not succeed")
        }
    }

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
