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
    /// The database file the writer opened.
    private let file: PrivateFile.Identity?
    private let idle = LockedState<[DatabaseQueue]>([])
    /// Idle connections kept open (the daemon's threads that read at once); more are opened while
    /// more reads run at once, and closed after.
    static let keptIdle = 16

    /// Connections to the database at `path`, opened when first needed; the file there now (the
    /// writer has just opened and checked it) is the only one they open.
    init(path: String) {
        self.path = path
        file = PrivateFile.identity(of: path)
    }

    /// Runs `body` on a connection no other read is using.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? open()
        defer {
            idle.withLock { idle in
                if idle.count < Self.keptIdle { idle.append(connection) }
            }
        }
        return try connection.inDatabase(body)
    }

    /// Closes the idle connections.
    ///
    /// The store closes its readers before its writer: the last connection to close folds the
    /// write-ahead log into the database and removes it, which a read-only one cannot do (the log
    /// would keep the pages of deleted secrets).
    func close() {
        for connection in idle.withLock({ idle in
            defer { idle.removeAll() }
            return idle
        }) {
            try? connection.close()
        }
    }

    /// A new connection, to the file the writer opened: a database moved away or replaced since
    /// (`security` tells a user to move a damaged one aside) is never read in the writer's stead.
    ///
    /// Checked by `lstat` only: opening and closing a descriptor of the database (as
    /// `PrivateFile.check` does) would drop every POSIX lock this process holds on it, SQLite's
    /// included, and let other processes write under this one's readers (the concurrency harness
    /// found damaged keychains within seconds).
    private func open() throws -> DatabaseQueue {
        guard let file, PrivateFile.identity(of: path) == file else {
            throw KeychainError(
                .invalidKeychain,
                "the keychain database \(path) was moved or replaced while it was open"
            )
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(30)
        configuration.label = "swift-keychain reader"
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
