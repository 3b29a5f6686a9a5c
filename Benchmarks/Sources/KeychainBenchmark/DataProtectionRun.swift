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
import KeychainDevice
import KeychainServices

/// What data protection costs (issue 12).
///
/// - The first passcode, and a passcode change, replace every passcode-protected class key and seal
///   every item again in one transaction: timed at each size, and divided by the time storing those
///   items took in the same run.
/// - The keychain truncates its write-ahead log a second after writes (so deleted and overwritten
///   secrets leave the files): the same raw SQLite writes (commit per row, WAL, `synchronous =
///   FULL`) with and without a `TRUNCATE` checkpoint every second, for the same time.
struct DataProtectionRun {
    let sizes: [Int]
    let directory: URL
    let seed: UInt64
    let log: ResultLog

    static let subject = "swift-keychain (data protection)"
    static let floorSubject = "floor: SQLite log truncation"

    func run() throws {
        for size in sizes {
            try passcodeOverItems(size)
        }
        try logTruncation(seconds: 5)
    }

    private func passcodeOverItems(_ size: Int) throws {
        let home = directory.appendingPathComponent("data-protection-\(size)", isDirectory: true)
        try? FileManager.default.removeItem(at: home)
        defer { try? FileManager.default.removeItem(at: home) }
        let device = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none)
        )
        let operations = ItemOperations(workload: Workload(prefix: "kc-bench-dp", seed: seed))
        let fill = Device.withCurrent(device) { Sample.measure(size) { operations.store($0) } }
        log.record(Self.subject, "store (fill, no passcode)", size: size, fill)
        let set = Sample.measure(1) { _ in (try? device.setPasscode("123456")) != nil }
        log.record(
            Self.subject,
            "first passcode set (every item sealed again)",
            size: size,
            set,
            extra: [
                "per_item_us": set.wallSeconds / Double(size) * 1e6, "fill_ratio": set.wallSeconds / fill.wallSeconds,
            ]
        )
        let change = Sample.measure(1) { _ in (try? device.changePasscode(from: "123456", to: "654321")) != nil }
        log.record(
            Self.subject,
            "passcode change (every item sealed again)",
            size: size,
            change,
            extra: [
                "per_item_us": change.wallSeconds / Double(size) * 1e6,
                "fill_ratio": change.wallSeconds / fill.wallSeconds,
            ]
        )
        let check = Device.withCurrent(device) {
            Sample.measure(min(size, 100)) { operations.lookup($0 * (size / min(size, 100))) }
        }
        log.record(Self.subject, "lookup after the re-keying", size: size, check)
    }

    /// Durable inserts and deletes on raw SQLite for `seconds`, without and then with a log
    /// truncation every second (what the keychain's scrubber does).
    private func logTruncation(seconds: Double) throws {
        for truncating in [false, true] {
            let path = directory.appendingPathComponent("truncation-\(truncating).db").path
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            var configuration = Configuration()
            configuration.busyMode = .timeout(30)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
                try db.execute(sql: "PRAGMA secure_delete = ON")
                try db.execute(sql: "PRAGMA wal_autocheckpoint = 256")
            }
            let pool = try DatabasePool(path: path, configuration: configuration)
            try pool.write { db in
                try db.execute(sql: "CREATE TABLE items (id INTEGER PRIMARY KEY, secret BLOB NOT NULL)")
            }
            let payload = Data(repeating: 0x5A, count: 700)
            var operations = 0
            var errors = 0
            var lastTruncation = now()
            let start = now()
            while Double(now() - start) / 1e9 < seconds {
                do {
                    try pool.write { db in
                        try db.execute(sql: "INSERT INTO items (secret) VALUES (?)", arguments: [payload])
                    }
                    try pool.write { db in
                        try db.execute(sql: "DELETE FROM items WHERE id = (SELECT min(id) FROM items)")
                    }
                    operations += 2
                } catch {
                    errors += 1
                }
                if truncating, now() - lastTruncation >= 1_000_000_000 {
                    _ = try? pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                    }
                    lastTruncation = now()
                }
            }
            let wall = Double(now() - start) / 1e9
            log.record(
                Self.floorSubject,
                truncating ? "insert + delete, log truncated every second" : "insert + delete",
                size: nil,
                value: Double(operations) / wall,
                unit: "ops/s",
                extra: ["errors": errors, "seconds": wall]
            )
            try pool.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
    }
}
