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
import KeychainContract
import KeychainEngine
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

/// The daemon's listening socket and its connections, as a service of the daemon's group.
///
/// It stops on SIGTERM or SIGINT (graceful shutdown): the socket closes first, so no new
/// request arrives, then the requests already running finish and their replies are written.
struct DaemonServer: Service {
    let endpoint: DaemonEndpoint
    /// The engine each client's user is served by.
    let roster: EngineRoster
    /// The client processes and their contexts.
    let clients: ClientTable
    let logger: Logger
    /// The listening socket systemd passed (socket activation), if any; else the daemon binds
    /// ``endpoint`` itself.
    var activatedSocket: Int32?
    /// Threads for engine calls; a call waiting for a finger or a passcode holds one.
    var threads = 16
    /// Told when the daemon listens.
    var readiness: ReadinessPipe?
    /// How long a connection may send nothing (not even the rest of a frame) before it is closed.
    var idleTimeout: TimeAmount = .seconds(60)
    /// Whether every user may connect (system mode): the socket is then 0666, and the roster
    /// decides what each user gets.
    var isShared = false
    /// How often the daemon checks that the socket file it bound is still there (``SocketFile``).
    var socketCheckInterval: TimeAmount = .seconds(2)

    func run() async throws {
        let pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
        let (roster, clients, logger, idleTimeout) = (roster, clients, logger, idleTimeout)
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 128)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(readTimeout: idleTimeout))
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(clients: clients)))
                    try channel.pipeline.syncOperations.addHandler(
                        ConnectionHandler(roster: roster, pool: pool, clients: clients, logger: logger)
                    )
                }
            }
        let channel: any Channel
        var bound: SocketFile?
        var check: RepeatedTask?
        if let activatedSocket {
            channel = try await bootstrap.withBoundSocket(activatedSocket).get()
            logger.info("listening on the socket systemd passed")
        } else {
            channel = try await bootstrap.bind(
                unixDomainSocketPath: endpoint.socketPath,
                cleanupExistingSocketFile: true
            ).get()
            chmod(endpoint.socketPath, isShared ? 0o666 : 0o600)
            logger.info("listening", metadata: ["keychain.socket": "\(endpoint.socketPath)"])
            let file = SocketFile(boundAt: endpoint.socketPath)
            bound = file
            // Nobody can reach a daemon whose socket file is gone: it stops and frees the lock.
            check = channel.eventLoop.scheduleRepeatedTask(
                initialDelay: socketCheckInterval,
                delay: socketCheckInterval
            ) { task in
                guard !file.isStillOurs else { return }
                logger.notice(
                    "the socket file was removed or replaced; stopping",
                    metadata: ["keychain.socket": "\(file.path)"]
                )
                task.cancel()
                channel.close(promise: nil)
            }
        }
        readiness?.report(.listening)
        // Once listening, on a thread of its own: a TPM that is slow to answer never delays the socket.
        let tpmLogger = logger
        Thread.detachNewThread {
            let store = SecretStores.describeNewKeychains(tpm: .fromEnvironment())
            tpmLogger.info("new keychains keep their secrets in \(store)")
        }
        try await withGracefulShutdownHandler {
            try await channel.closeFuture.get()
        } onGracefulShutdown: {
            channel.close(promise: nil)
        }
        check?.cancel()
        // The requests already given to the pool run to the end before it stops.
        try await pool.shutdownGracefully()
        // Only its own socket: a file that replaced it is someone else's.
        if let bound, bound.isStillOurs { unlink(bound.path) }
        logger.info("stopped")
    }
}
