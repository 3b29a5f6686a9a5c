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

/// What a keychain home holds on disk, read with a separate read-only connection.
struct KeychainFiles {
    let directory: URL

    var database: URL { directory.appendingPathComponent("keychain.db") }

    /// Bytes of every file in the home (database, WAL, shared memory, device secret).
    func bytesOnDisk() -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.reduce(0) { total, name in
            let attributes = try? FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(name).path
            )
            return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
        }
    }

    /// The database's logical size: used pages (WAL frames included) times the page size.
    func logicalBytes() throws -> Int {
        try read { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            let free = try Int.fetchOne(db, sql: "PRAGMA freelist_count") ?? 0
            let pageSize = try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0
            return (pages - free) * pageSize
        }
    }

    /// The mean number of bytes a generic-password row stores (every column), over up to 1,000 rows.
    func meanRowBytes() throws -> Int {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM genp LIMIT 1000")
            guard !rows.isEmpty else { return 0 }
            let total = rows.reduce(0) { sum, row in
                sum + row.databaseValues.reduce(0) { $0 + Self.length(of: $1) }
            }
            return total / rows.count
        }
    }

    /// The mean length of each column of the generic-password table, over up to 1,000 rows.
    func meanColumnBytes() throws -> [String: Int] {
        try read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM genp LIMIT 1000")
            guard let first = rows.first else { return [:] }
            var means: [String: Int] = [:]
            for column in first.columnNames {
                means[column] = rows.reduce(0) { $0 + Self.length(of: $1[column] as DatabaseValue) } / rows.count
            }
            return means
        }
    }

    private static func length(of value: DatabaseValue) -> Int {
        switch value.storage {
        case .blob(let data): data.count
        case .string(let string): string.utf8.count
        case .int64, .double: 8
        case .null: 0
        }
    }

    private func read<T>(_ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: database.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }
}
