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

/// `security daemon …`: the `securityd` that serves the keychain.
struct DaemonCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "The keychain daemon (securityd): where it logs.",
        subcommands: [Log.self]
    )

    struct Log: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the log of the daemon a program started for this keychain.",
            discussion: """
                A daemon started on a program's behalf logs beside its socket; a daemon a service \
                manager runs logs to the journal (`journalctl --user -u swift-keychain-securityd`, \
                or `journalctl -u swift-keychain-securityd` for the system daemon).
                """
        )

        func run() throws {
            let environment = ProcessInfo.processInfo.environment
            if let problem = KeychainHome.misconfiguration(environment: environment) {
                Terminal.printError("security: daemon log: \(problem)")
                throw ExitCode(1)
            }
            let endpoint =
                DaemonEndpoint.named(environment: environment).map { DaemonEndpoint(socketPath: $0) }
                ?? DaemonEndpoint.forHome(KeychainHome.resolve(environment: environment).url, environment: environment)
            if endpoint.socketPath == DaemonEndpoint.systemSocketPath {
                Terminal.printError(
                    "security: daemon log: the system daemon logs to the journal: journalctl -u swift-keychain-securityd"
                )
                throw ExitCode(1)
            }
            guard let log = FileManager.default.contents(atPath: endpoint.logPath) else {
                Terminal.printError(
                    "security: daemon log: no log at \(endpoint.logPath): no program started this keychain's daemon (one a service manager runs logs to the journal: journalctl --user -u swift-keychain-securityd)"
                )
                throw ExitCode(1)
            }
            FileHandle.standardOutput.write(log)
        }
    }
}
