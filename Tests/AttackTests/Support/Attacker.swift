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

/// What an attacker does with a keychain home: copies it at chosen moments, grafts parts of one
/// copy into another, and runs the built `security` tool on the result.
enum Attacker {
    // MARK: Homes

    /// A new, not yet existing keychain home path in the temporary directory.
    static func newHome(_ label: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "kc-attack-\(label)-\(UUID().uuidString)",
            isDirectory: true
        )
    }

    /// Copies every file of `home` (database, write-ahead log, shared memory, secrets) to a new home.
    static func copy(_ home: URL, label: String) throws -> URL {
        let copy = newHome(label)
        try FileManager.default.createDirectory(
            at: copy,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) {
            try FileManager.default.copyItem(
                at: home.appendingPathComponent(name),
                to: copy.appendingPathComponent(name)
            )
        }
        return copy
    }

    /// Every byte of every file in `home`.
    static func bytesOnDisk(_ home: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) {
            files[name] = try Data(contentsOf: home.appendingPathComponent(name))
        }
        return files
    }

    /// The files of `home` that contain `needle`.
    static func files(in home: URL, containing needle: Data) throws -> [String] {
        try bytesOnDisk(home).filter { $0.value.range(of: needle) != nil }.map(\.key).sorted()
    }

    // MARK: SQL

    /// Runs `body` on `home`'s database with a plain SQLite connection (no keychain code).
    static func sql<T>(_ home: URL, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(
            path: home.appendingPathComponent("keychain.db").path,
            configuration: configuration
        )
        return try queue.writeWithoutTransaction { db in try body(db) }
    }

    /// Replaces the keybag of `target`'s database by `source`'s (the row that holds it).
    static func graftKeybag(from source: URL, into target: URL) throws {
        let row = try sql(source) { db in
            try Row.fetchOne(db, sql: "SELECT id, generation, secret_id, sealed FROM sealed_keybag")
        }
        try sql(target) { db in
            try db.execute(sql: "DELETE FROM sealed_keybag")
            if let row {
                try db.execute(
                    sql: "INSERT INTO sealed_keybag VALUES (?, ?, ?, ?)",
                    arguments: [row[0], row[1], row[2], row[3]]
                )
            }
        }
    }

    /// Copies the named side files (`keybag.key`, `device.key`, …) of `source` over `target`'s.
    static func graftFiles(_ names: [String], from source: URL, into target: URL) throws {
        for name in names {
            let destination = target.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: destination)
            let origin = source.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: origin.path) {
                try FileManager.default.copyItem(at: origin, to: destination)
            }
        }
    }

    /// The historical states a write-ahead log holds: for each commit in it, a home whose
    /// database is the main file with the log cut after that commit (what SQLite reads as the
    /// database at that moment), with `home`'s other files.
    static func historicalStates(of home: URL) throws -> [URL] {
        let log = try Data(contentsOf: home.appendingPathComponent("keychain.db-wal"))
        guard log.count > 32 else { return [] }
        let pageSize = Int(log[8]) << 24 | Int(log[9]) << 16 | Int(log[10]) << 8 | Int(log[11])
        let frameSize = 24 + pageSize
        var states: [URL] = []
        var offset = 32
        while offset + frameSize <= log.count {
            // A commit frame records the database size in pages after the commit (non-zero).
            let size = log[offset + 4..<offset + 8].reduce(0) { $0 << 8 | Int($1) }
            offset += frameSize
            guard size > 0 else { continue }
            let state = try copy(home, label: "wal-state")
            try log.prefix(offset).write(to: state.appendingPathComponent("keychain.db-wal"))
            try? FileManager.default.removeItem(at: state.appendingPathComponent("keychain.db-shm"))
            states.append(state)
        }
        return states
    }

    static func remove(_ homes: URL...) {
        for home in homes { try? FileManager.default.removeItem(at: home) }
    }
}
