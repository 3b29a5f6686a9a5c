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
import KeychainBus
import KeychainContract
import KeychainCore
import Logging
import ServiceLifecycle

/// `securityd --secret-service`: the Secret Service of the daemon's keychain on the user's session
/// bus, as `org.freedesktop.secrets`, run on a thread of its own beside the socket server.
struct SecretServiceFrontDoor: Service {
    /// The well-known name of the Secret Service.
    static let name = "org.freedesktop.secrets"

    let bus: BusConnection
    let provider: SecretServiceProvider
    let logger: Logger

    /// Connects to the session bus, serves the provider's objects and takes the name (from its
    /// owner with `replace`); an error names the owner when the name is taken.
    static func open(
        engine: any Engine,
        pinentry: Pinentry?,
        replace: Bool,
        logger: Logger
    ) throws(BusError) -> SecretServiceFrontDoor {
        let bus = try BusConnection.open(.session)
        // Where the person is: the daemon's own desktop session (a user unit imports it).
        let environment = ProcessInfo.processInfo.environment
        let target = PromptTarget(
            kind: .terminal,
            display: environment.filter { PromptTarget.displayVariables.contains($0.key) }
        )
        let provider = SecretServiceProvider(
            bus: bus,
            engine: engine,
            userID: geteuid(),
            baseline: nil,
            logger: logger,
            askPasscode: { program, reason in
                guard let pinentry else { return .unavailable }
                let question = PromptQuestion(purpose: .devicePasscode, reason: reason)
                return pinentry.ask(question, program: program, target: target) ?? .unavailable
            },
            askConsent: { description in pinentry?.consent(description, target: target) }
        )
        try provider.start()
        // Whoever takes the name later (another keyring's --replace) is worth a line in the log.
        try bus.watch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameLost',arg0='\(name)'"
        ) { signal in
            guard signal.sender == "org.freedesktop.DBus" else { return }
            logger.warning(
                "another program took org.freedesktop.secrets: this daemon no longer serves the Secret Service"
            )
        }
        try bus.watch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameAcquired',arg0='\(name)'"
        ) { signal in
            guard signal.sender == "org.freedesktop.DBus" else { return }
            logger.info("serving the Secret Service (org.freedesktop.secrets) on the session bus")
        }
        do {
            try bus.requestName(name, replace: replace)
        } catch  where replace && error.name == "org.freedesktop.DBus.Error.AddressInUse" {
            // An owner that does not let the name go (gnome-keyring): wait in the queue, and end
            // gnome-keyring's daemon as `gnome-keyring-daemon --replace` ends its predecessor.
            try bus.queue(for: name)
            let owner = try? bus.ownerPeer(of: name)
            if let owner, owner.userID == geteuid(), let processID = owner.processID,
                Self.isGnomeKeyring(processID: processID)
            {
                kill(processID, SIGTERM)
                logger.notice("asked gnome-keyring-daemon to stop; the Secret Service is served once it has")
            } else {
                logger.notice("\(error.message): the Secret Service is served once that program lets the name go")
            }
        }
        return SecretServiceFrontDoor(bus: bus, provider: provider, logger: logger)
    }

    /// Whether `processID` runs gnome-keyring's daemon.
    private static func isGnomeKeyring(processID: Int32) -> Bool {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(processID)/exe")) ?? ""
        return (executable as NSString).lastPathComponent == "gnome-keyring-daemon"
    }

    func run() async throws {
        let stopping = LockedState(false)
        await cancelWhenGracefulShutdown {
            await withTaskCancellationHandler {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    // sd-bus blocks: a thread of its own, never one of the cooperative pool's.
                    let thread = Thread { [bus, logger, provider] in
                        if bus.run(until: { stopping.withLock { $0 } }) {
                            logger.warning("the session bus connection closed: the Secret Service is no longer served")
                        }
                        withExtendedLifetime(provider) {}
                        done.resume()
                    }
                    thread.name = "securityd secret service"
                    thread.start()
                }
            } onCancel: {
                stopping.withLock { $0 = true }
            }
        }
    }
}
