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

package import Foundation
package import KeychainSync
package import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// A circle's relay on a PostgreSQL server: one connection, kept open, that pushes in
/// transactions and listens for the circle's notifications.
///
/// Calls are run one at a time on the connection (a transaction must not see another call's
/// statements). Any failure closes the connection; the next call opens a new one, so the caller's
/// retries reconnect. Nothing here logs a record's content: they are opaque to the relay too.
package actor PostgresSyncRelay: SyncRelay {
    private let address: RelayAddress
    private let logger: Logger
    private var connection: PostgresConnection?
    private var connections = 0
    private var listened: Set<CircleID> = []
    private let signal = ChangeSignal()
    private var isBusy = false
    private var queue: [CheckedContinuation<Void, Never>] = []

    /// The largest record read: an item's largest secret and attributes, sealed and signed.
    ///
    /// A larger row (no device writes one) is passed over, so that no server can exhaust a
    /// device's memory with it.
    static let largestRecord = 17 << 20
    /// The most record bytes one read returns (at least one record).
    static let largestPage = 64 << 20

    /// The longest a call may wait for the server before its connection is given up.
    private let callTimeout: Duration

    /// A relay to the server at `address`.
    ///
    /// - Parameters:
    ///   - address: The server, its database and role.
    ///   - logger: Where postgres-nio and the relay log (never a record's content).
    ///   - callTimeout: The longest a call waits for the server (counted as ``CallDeadline``
    ///     counts): a connection lost without a word (a link down, a server stopped) is then
    ///     closed and the call fails.
    package init(address: RelayAddress, logger: Logger, callTimeout: Duration = .seconds(20)) {
        self.address = address
        self.logger = logger
        self.callTimeout = callTimeout
    }

    deinit {
        // postgres-nio wants a connection closed before it goes: the future keeps it until then.
        if let connection, !connection.isClosed {
            connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
        }
    }

    /// Closes the connection (the next call opens another).
    package func close() async {
        let open = connection
        connection = nil
        try? await open?.close()
    }

    // MARK: SyncRelay

    package func prepare() async throws {
        try await run { connection, logger in
            try await connection.inTransaction(logger: logger) { connection in
                try await connection.statement("SELECT pg_advisory_xact_lock(\(RelaySchema.lock))", logger: logger)
                try await connection.statement(
                    "CREATE TABLE IF NOT EXISTS swkc_schema (version integer NOT NULL)",
                    logger: logger
                )
                var current = 0
                for try await version in try await connection.statement(
                    "SELECT coalesce(max(version), 0) FROM swkc_schema",
                    logger: logger
                ).decode(Int32.self) {
                    current = Int(version)
                }
                guard current <= RelaySchema.migrations.count else {
                    throw RelayFailure("the server's tables are of a newer version (\(current))")
                }
                for (index, statements) in RelaySchema.migrations.enumerated() where index + 1 > current {
                    for statement in statements {
                        try await connection.statement(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    try await connection.statement(
                        "INSERT INTO swkc_schema VALUES (\(Int32(index + 1)))",
                        logger: logger
                    )
                }
            }
        }
    }

    package func circles() async throws -> [CircleID] {
        try await run { connection, logger in
            var circles: [CircleID] = []
            let rows = try await connection.statement("SELECT DISTINCT circle FROM swkc_lists", logger: logger)
            for try await raw in rows.decode(Data.self) {
                if let circle = try? CircleID(rawValue: raw) { circles.append(circle) }
            }
            return circles
        }
    }

    package func publish(list: Data, version: UInt64, circle: CircleID) async throws {
        guard let version = Int64(exactly: version) else { throw RelayFailure("a list version out of range") }
        try await run { connection, logger in
            try await connection.statement(
                """
                INSERT INTO swkc_lists (circle, version, body) VALUES (\(circle.rawValue), \(version), \(list))
                ON CONFLICT DO NOTHING
                """,
                logger: logger
            )
            try await connection.statement("SELECT pg_notify(\(Self.channel(circle)), '')", logger: logger)
        }
    }

    package func lists(after version: UInt64, circle: CircleID) async throws -> [(version: UInt64, body: Data)] {
        let version = Int64(clamping: version)
        return try await run { connection, logger in
            var lists: [(version: UInt64, body: Data)] = []
            let rows = try await connection.statement(
                """
                SELECT version, body FROM swkc_lists WHERE circle = \(circle.rawValue) AND version > \(version)
                ORDER BY version LIMIT 1000
                """,
                logger: logger
            )
            for try await (number, body) in rows.decode((Int64, Data).self) where number > 0 {
                lists.append((UInt64(number), body))
            }
            return lists
        }
    }

    package func publish(grant: Data, recipient: DeviceID, generation: UInt32, circle: CircleID) async throws {
        try await run { connection, logger in
            try await connection.statement(
                """
                INSERT INTO swkc_grants (circle, recipient, generation, body)
                VALUES (\(circle.rawValue), \(recipient.rawValue), \(Int64(generation)), \(grant))
                ON CONFLICT (circle, recipient, generation) DO UPDATE SET body = excluded.body
                """,
                logger: logger
            )
        }
    }

    package func grants(for recipient: DeviceID, upTo generation: UInt32, circle: CircleID) async throws -> [Data] {
        try await run { connection, logger in
            var grants: [Data] = []
            let rows = try await connection.statement(
                """
                SELECT body FROM swkc_grants WHERE circle = \(circle.rawValue) AND recipient = \(recipient.rawValue)
                    AND generation <= \(Int64(generation))
                ORDER BY generation DESC LIMIT 16
                """,
                logger: logger
            )
            for try await body in rows.decode(Data.self) { grants.append(body) }
            return grants
        }
    }

    package func publish(joinRequest: Data, device: DeviceID, circle: CircleID) async throws {
        try await run { connection, logger in
            try await connection.statement(
                """
                INSERT INTO swkc_joins (circle, device, request) VALUES (\(circle.rawValue), \(device.rawValue), \(joinRequest))
                ON CONFLICT (circle, device) DO UPDATE SET request = excluded.request, approval = NULL
                """,
                logger: logger
            )
            try await connection.statement("SELECT pg_notify(\(Self.channel(circle)), '')", logger: logger)
        }
    }

    package func joinRequests(circle: CircleID) async throws -> [(device: DeviceID, body: Data)] {
        try await run { connection, logger in
            var requests: [(device: DeviceID, body: Data)] = []
            let rows = try await connection.statement(
                """
                SELECT device, request FROM swkc_joins
                WHERE circle = \(circle.rawValue) AND request IS NOT NULL LIMIT 100
                """,
                logger: logger
            )
            for try await (device, body) in rows.decode((Data, Data).self) {
                if let id = try? DeviceID(rawValue: device) { requests.append((id, body)) }
            }
            return requests
        }
    }

    package func publish(approval: Data, device: DeviceID, circle: CircleID) async throws {
        try await run { connection, logger in
            try await connection.statement(
                """
                UPDATE swkc_joins SET approval = \(approval), request = NULL
                WHERE circle = \(circle.rawValue) AND device = \(device.rawValue)
                """,
                logger: logger
            )
        }
    }

    package func approval(for device: DeviceID, circle: CircleID) async throws -> Data? {
        try await run { connection, logger in
            let rows = try await connection.statement(
                """
                SELECT approval FROM swkc_joins
                WHERE circle = \(circle.rawValue) AND device = \(device.rawValue) AND approval IS NOT NULL
                """,
                logger: logger
            )
            var approval: Data?
            for try await body in rows.decode(Data.self) { approval = body }
            return approval
        }
    }

    package func push(_ records: [RelayRecord], circle: CircleID) async throws {
        guard !records.isEmpty else { return }
        try await run { connection, logger in
            try await connection.inTransaction(logger: logger) { connection in
                for record in records {
                    try await connection.statement(
                        """
                        INSERT INTO swkc_records (circle, item, version, device, xact, sequence, body)
                        VALUES (\(circle.rawValue), \(record.itemID), \(record.version.encoded),
                            \(record.version.device.rawValue), pg_current_xact_id(), nextval('swkc_sequence'),
                            \(record.body))
                        ON CONFLICT (circle, item) DO UPDATE SET version = excluded.version, device = excluded.device,
                            xact = excluded.xact, sequence = excluded.sequence, body = excluded.body
                        WHERE swkc_records.version < excluded.version
                        """,
                        logger: logger
                    )
                }
                try await connection.statement("SELECT pg_notify(\(Self.channel(circle)), '')", logger: logger)
            }
        }
    }

    package func records(
        after cursor: RelayCursor,
        limit: Int,
        circle: CircleID
    ) async throws
        -> [(cursor: RelayCursor, body: Data)]
    {
        try await run { connection, logger in
            var records: [(cursor: RelayCursor, body: Data)] = []
            let transaction = String(cursor.transaction)
            let rows = try await connection.statement(
                """
                SELECT xact::text, sequence, body FROM (
                    SELECT xact, sequence, body, sum(octet_length(body)) OVER (ORDER BY xact, sequence) AS running
                    FROM swkc_records
                    WHERE circle = \(circle.rawValue)
                        AND (xact > \(transaction)::xid8
                            OR (xact = \(transaction)::xid8 AND sequence > \(cursor.sequence)))
                        AND xact < pg_snapshot_xmin(pg_current_snapshot())
                        AND octet_length(body) <= \(Int64(Self.largestRecord))
                    ORDER BY xact, sequence LIMIT \(Int64(limit))
                ) AS page
                WHERE running <= \(Int64(Self.largestPage)) OR running = octet_length(body)
                ORDER BY xact, sequence
                """,
                logger: logger
            )
            for try await (xact, sequence, body) in rows.decode((String, Int64, Data).self) {
                guard let number = UInt64(xact) else { continue }
                records.append((RelayCursor(transaction: number, sequence: sequence), body))
            }
            return records
        }
    }

    package func remove(itemID: Data, version: SyncVersion, circle: CircleID) async throws {
        try await run { connection, logger in
            try await connection.statement(
                """
                DELETE FROM swkc_records
                WHERE circle = \(circle.rawValue) AND item = \(itemID) AND version = \(version.encoded)
                """,
                logger: logger
            )
        }
    }

    package func waitForChanges(circle: CircleID, timeout: Duration) async throws -> Bool {
        if !listened.contains(circle) {
            let wasOpen = connection.map { !$0.isClosed } ?? false
            listened.insert(circle)
            // Opening a connection listens to every circle listened to; an open one is told here,
            // between two calls (a LISTEN inside another call's transaction would roll back with it).
            try await run { connection, _ in if wasOpen { try await self.listen(circle, on: connection) } }
        }
        return await signal.wait(circle, timeout: timeout)
    }

    // MARK: The connection

    /// Runs `body` alone on the connection, opening one if needed; a failure closes it.
    @discardableResult
    private func run<T: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws -> T {
        while isBusy { await withCheckedContinuation { queue.append($0) } }
        isBusy = true
        defer {
            isBusy = false
            if !queue.isEmpty { queue.removeFirst().resume() }
        }
        var opened: PostgresConnection?
        do {
            let connection = try await open()
            opened = connection
            // A call the server never answers (a connection lost without a word) ends here, and
            // its connection is closed.
            let logger = logger
            return try await CallDeadline.run(within: callTimeout) {
                try await body(connection, logger)
            } expire: {
                try? await connection.close()
            }
        } catch {
            guard let connection = opened ?? self.connection else { throw RelayFailure(describing: error) }
            // A refusal of one statement leaves the connection usable, but telling it from a lost
            // connection is not worth the risk: start afresh.
            self.connection = nil
            try? await connection.close()
            throw RelayFailure(describing: error)
        }
    }

    private func open() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        connection = nil
        connections += 1
        let opened: PostgresConnection
        do {
            opened = try await PostgresConnection.connect(
                configuration: try configuration(),
                id: connections,
                logger: logger
            )
        } catch {
            throw RelayFailure(describing: error)
        }
        connection = opened
        for circle in listened { try await listen(circle, on: opened) }
        return opened
    }

    /// Listens to `circle`'s channel on `connection` until it closes; returns once the server
    /// has taken the LISTEN.
    private func listen(_ circle: CircleID, on connection: PostgresConnection) async throws {
        let signal = signal
        let channel = Self.channel(circle)
        let timeout = callTimeout
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            let once = ResumeOnce(started)
            // A LISTEN the server never answers (the connection lost under it) fails the call, which
            // closes the connection: the next call starts afresh.
            let timer = Task {
                try? await CallDeadline.sleep(for: timeout)
                once.resume(with: .failure(RelayFailure("the server did not take a LISTEN in time")))
            }
            Task {
                do {
                    try connection.checkOpen()
                    try await connection.listen(on: channel) { notifications in
                        if once.resume(with: .success(())) { timer.cancel() }
                        for try await _ in notifications { await signal.notify(circle) }
                    }
                } catch {
                    once.resume(with: .failure(error))
                }
                once.resume(with: .success(()))
                // The connection dropped: whoever waits catches up (and reconnects) now.
                await signal.notify(nil)
            }
        }
    }

    private func configuration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch address.endpoint {
        case .tcp(let host, let port):
            var tls = PostgresConnection.Configuration.TLS.disable
            if address.requiresTLS {
                var settings = TLSConfiguration.makeClientConfiguration()
                if let root = address.rootCertificate { settings.trustRoots = .file(root) }
                tls = .require(try NIOSSLContext(configuration: settings))
            }
            configuration = .init(
                host: host,
                port: port,
                username: address.user,
                password: address.password,
                database: address.database,
                tls: tls
            )
        case .unixSocket(let path):
            configuration = .init(
                unixSocketPath: path,
                username: address.user,
                password: address.password,
                database: address.database
            )
        }
        configuration.options.connectTimeout = .seconds(10)
        // A statement the server cannot finish (a lock it waits for) ends there before the call's
        // deadline gives up the connection.
        let milliseconds = max(1000, Int(callTimeout / .milliseconds(1) * 0.75))
        configuration.options.additionalStartupParameters = [("statement_timeout", String(milliseconds))]
        return configuration
    }

    /// The circle's notification channel (an identifier of hex digits).
    private static func channel(_ circle: CircleID) -> String { "swkc_\(circle)" }
}
