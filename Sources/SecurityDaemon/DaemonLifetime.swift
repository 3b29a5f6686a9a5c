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
import Logging
import ServiceLifecycle

/// Ends the daemon when it has nothing left to serve: its keychain home was removed (or replaced
/// by another folder), or, when asked, no client has been connected for a while.
///
/// A daemon serving a removed home would accept writes that no later daemon can find. Returning
/// from ``run()`` shuts the daemon's group down gracefully (the requests running finish).
struct DaemonLifetime: Service {
    /// The home the daemon opened.
    let watch: HomeWatch
    let clients: ClientTable
    let logger: Logger
    /// How long the daemon may go without clients before it exits; `nil` for never.
    var exitWhenIdle: Duration?
    /// How often the home and the clients are looked at.
    var interval: Duration = .seconds(2)

    func run() async throws {
        guard watch.holdsHome else {
            logger.warning("the keychain home is gone; stopping")
            return
        }
        // On the group's own shutdown the sleep is cancelled and nothing more is looked at.
        try? await cancelWhenGracefulShutdown {
            while true {
                try await Task.sleep(for: interval)
                if !watch.holdsHome {
                    logger.notice("the keychain home was removed or replaced; stopping")
                    return
                }
                if let exitWhenIdle, clients.idleTime >= exitWhenIdle {
                    logger.info("no clients for a while; stopping")
                    return
                }
            }
        }
    }
}
