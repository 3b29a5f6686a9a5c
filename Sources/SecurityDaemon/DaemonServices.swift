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
import KeychainContract
import Logging
import ServiceLifecycle
import UnixSignals

/// Everything a running daemon runs beside its socket server, listed once for user and system mode:
/// a new service (a bus front door, a sync worker) is added in configurations() and runs in both.
struct DaemonServices {
    /// The socket server; the daemon stops when it ends (its socket file was removed or replaced).
    var server: DaemonServer
    /// What stops a user daemon when its home goes or it is idle; a system daemon has none.
    var lifetime: DaemonLifetime?
    /// The connected clients, whose silence the auto-lock waits for.
    var clients: ClientTable
    /// Every engine the daemon holds (the auto-lock locks them all).
    var engines: @Sendable () -> [any Engine]
    /// The engines of one user (a login session's lock), or of every user (`nil`: the machine sleeps).
    var enginesOfUser: @Sendable (_ userID: UInt32?) -> [any Engine]
    /// How long without requests before every keychain locks; `nil` never.
    var autoLock: Duration?
    /// How long a keychain locked with its login session reopens when the session unlocks.
    var sessionUnlockWindow: Duration = .seconds(LoginEvent.longestWindowSeconds)
    /// The Secret Service on the session bus, when the daemon serves it.
    var secretService: SecretServiceFrontDoor? = nil
    var logger: Logger

    /// The services, in the order they start; the first to end successfully ends the group.
    ///
    /// - Parameter loginBus: The system bus to follow logind's locks on, if there is one.
    /// - Returns: The server, the lifetime, the auto-lock and logind's watch, those that apply.
    func configurations(loginBus: LoginBus?) -> [ServiceGroupConfiguration.ServiceConfiguration] {
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
            .init(service: server, successTerminationBehavior: .gracefullyShutdownGroup)
        ]
        if let lifetime {
            services.append(.init(service: lifetime, successTerminationBehavior: .gracefullyShutdownGroup))
        }
        if let autoLock {
            services.append(
                .init(service: AutoLock(engines: engines, clients: clients, logger: logger, after: autoLock))
            )
        }
        if let secretService {
            services.append(.init(service: secretService))
        }
        if let bus = loginBus {
            services.append(
                .init(
                    service: LoginSessionWatch(
                        bus: bus,
                        engines: enginesOfUser,
                        reopenWindow: sessionUnlockWindow,
                        logger: logger
                    )
                )
            )
        }
        return services
    }

    /// Runs every service until a signal (`SIGTERM`, `SIGINT`: the server stops first) or until
    /// the server or the lifetime ends.
    func run() async throws {
        let group = ServiceGroup(
            configuration: ServiceGroupConfiguration(
                services: configurations(loginBus: Self.loginBus(logger: logger)),
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger
            )
        )
        try await group.run()
    }

    /// The system bus, to follow the login session's locks; `nil` (logged) where there is none.
    private static func loginBus(logger: Logger) -> LoginBus? {
        switch LoginBus.open() {
        case .success(let bus):
            logger.info("locking the keychain with the login session (systemd-logind)")
            return bus
        case .failure(let unavailable):
            logger.info("not locking with the login session: \(unavailable.reason)")
            return nil
        }
    }
}
