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

/// Raw SQLite through the same library (GRDB's `DatabasePool`: WAL) and the keychain's pragmas
/// (`synchronous = FULL`, `secure_delete = ON`), one commit per row, cached prepared statements,
/// rows as large as the keychain's: the floor that each keychain phase is divided by.
///
/// Like ``SizeRun``, it fills to `size − sample` rows (here in one transaction: the fill is not
/// compared) and times `sample` operations of each phase at that size.
struct SQLiteFloor {
    let size: Int
    let sample: Int
    let rowBytes: Int
    let workload: Workload
    let directory: URL
    let log: ResultLog

    static let subject = "floor: SQLite WAL, sync=FULL, commit/row"

    func run() throws {
        let path = directory.appendingPathComponent("sqlite-floor-\(size).db").path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        var configuration = Configuration()
        configuration.busyMode = .timeout(30)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA secure_delete = ON")
        }
        let pool = try DatabasePool(path: path, configuration: configuration)
        defer { try? pool.close() }
        try pool.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE items (
                        id INTEGER PRIMARY KEY, service TEXT NOT NULL, account TEXT NOT NULL,
                        secret BLOB NOT NULL, UNIQUE (service, account))
                    """
            )
        }
        let insert = "INSERT INTO items (service, account, secret) VALUES (?, ?, ?)"
        let fillCount = size - sample
        try pool.write { db in
            for index in 0..<fillCount {
                try db.execute(
                    sql: insert,
                    arguments: [workload.service(index), workload.account(index), payload(index)]
                )
            }
        }
        var sampler = IndexSampler(seed: workload.seed ^ UInt64(size))
        let extra: [String: Any] = ["row_bytes": rowBytes]

        let store = Sample.measure(sample) { offset in
            let index = fillCount + offset
            return
                (try? pool.write { db in
                    try db.cachedStatement(sql: insert).execute(
                        arguments: [workload.service(index), workload.account(index), payload(index)]
                    )
                }) != nil
        }
        log.record(Self.subject, "store", size: size, store, extra: extra)

        let select = "SELECT secret FROM items WHERE service = ? AND account = ?"
        let lookups = sampler.indices(sample, below: size)
        let lookup = Sample.measure(sample) { offset in
            let index = lookups[offset]
            let found = try? pool.read { db in
                try Data.fetchOne(
                    db.cachedStatement(sql: select),
                    arguments: [workload.service(index), workload.account(index)]
                )
            }
            return found == payload(index)
        }
        log.record(Self.subject, "lookup", size: size, lookup, extra: extra)

        let updated = sampler.indices(sample, below: size)
        let update = Sample.measure(sample) { offset in
            let index = updated[offset]
            return
                (try? pool.write { db in
                    try db.cachedStatement(sql: "UPDATE items SET secret = ? WHERE service = ? AND account = ?")
                        .execute(
                            arguments: [
                                payload(index, generation: 1), workload.service(index), workload.account(index),
                            ]
                        )
                }) != nil
        }
        log.record(Self.subject, "update", size: size, update, extra: extra)

        let delete = Sample.measure(sample) { offset in
            let index = updated[offset]
            return
                (try? pool.write { db in
                    try db.cachedStatement(sql: "DELETE FROM items WHERE service = ? AND account = ?").execute(
                        arguments: [workload.service(index), workload.account(index)]
                    )
                }) != nil
        }
        log.record(Self.subject, "delete", size: size, delete, extra: extra)
        try pool.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// The stored blob: the item's secret padded so that the row is as large as a keychain row.
    private func payload(_ index: Int, generation: UInt64 = 0) -> Data {
        var data = workload.secret(index, generation: generation)
        let keyBytes = workload.service(index).utf8.count + workload.account(index).utf8.count
        let padding = rowBytes - keyBytes - data.count
        if padding > 0 { data.append(Data(repeating: UInt8(truncatingIfNeeded: index), count: padding)) }
        return data
    }
}
