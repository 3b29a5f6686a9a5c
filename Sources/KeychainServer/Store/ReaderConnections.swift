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


import GRDB
import KeychainCore

/// The store's read-only connections to its database, each used by one read at a time.
///
/// GRDB's pool checks a reader out through a dispatch barrier, a semaphore, a group and a lock,
/// and reads the schema version before every read: 11 µs of a 65 µs look-up in-process and 23 µs
/// in the daemon (BENCHMARKS.md, "Where a look-up's time goes, phase by phase"). A read here takes
/// an idle connection from a locked list, or opens one, and gives it back; each keeps its prepared
/// statements. SQLite's own locks keep the reads consistent with the writer (write-ahead log).
final class ReaderConnections: Sendable {
    private let path: String
    private let idle = LockedState<[DatabaseQueue]>([])
    /// Idle connections kept open; more are opened while more reads run at once, and closed after.
    static let keptIdle = 8

    /// Connections to the database at `path`, opened when first needed (the writer opens it first).
    init(path: String) {
        self.path = path
    }

    /// Runs `body` on a connection no other read is using.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? Self.open(path)
        defer {
            idle.withLock { idle in
                if idle.count < Self.keptIdle { idle.append(connection) }
            }
        }
        return try connection.inDatabase(body)
    }

    /// Closes the idle connections. The store closes its readers before its writer: the last
    /// connection to close folds the write-ahead log into the database and removes it, which a
    /// read-only one cannot do (the log would keep the pages of deleted secrets).
    func close() {
        for connection in idle.withLock({ idle in defer { idle.removeAll() }; return idle }) {
            try? connection.close()
        }
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        configuration.label = "swift-keychain reader"
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
