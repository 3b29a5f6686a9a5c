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

/// The SQL of the attempt counters: wrong passcodes (`passcode_attempts`), passcode checks in
/// flight (`passcode_attempt_in_flight`) and failed biometric matches (`biometry_attempts`).
///
/// Each call runs inside the caller's transaction; ``AttemptCounters`` decides what to count.
enum AttemptTables {
    // MARK: Passcode failures

    /// The wrong-passcode count and when the last one happened.
    static func backoff(_ db: Database) throws(KeychainError) -> PasscodeBackoff {
        do {
            guard let row = try Row.fetchOne(db, sql: "SELECT failures, last_failure FROM passcode_attempts") else {
                return PasscodeBackoff()
            }
            let last = (row["last_failure"] as Double?).map { Date(timeIntervalSince1970: $0) }
            return PasscodeBackoff(failures: row["failures"] ?? 0, lastFailure: last)
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the passcode attempts")
        }
    }

    /// Adds `count` wrong passcodes, the last at `date`.
    static func recordPasscodeFailures(_ count: Int, at date: Date, in db: Database) throws(KeychainError) {
        do {
            try db.execute(
                sql: """
                    INSERT INTO passcode_attempts (id, failures, last_failure) VALUES (1, ?, ?)
                    ON CONFLICT(id) DO UPDATE SET failures = failures + excluded.failures, last_failure = excluded.last_failure
                    """,
                arguments: [count, date.timeIntervalSince1970]
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot record a passcode attempt")
        }
    }

    /// Forgets the wrong passcodes (a correct one was entered).
    static func clearPasscodeFailures(in db: Database) throws(KeychainError) {
        do {
            try db.execute(sql: "DELETE FROM passcode_attempts")
        } catch {
            throw SQLiteItemStore.translate(error, "cannot record a passcode attempt")
        }
    }

    // MARK: Passcode checks in flight

    /// One reserved passcode check: when and by which process.
    struct Flight {
        var id: Int64
        var started: Date
        var processID: Int32
    }

    /// The passcode checks reserved and not yet settled.
    static func flights(_ db: Database) throws(KeychainError) -> [Flight] {
        do {
            return try Row.fetchAll(db, sql: "SELECT id, started, pid FROM passcode_attempt_in_flight").map { row in
                Flight(id: row["id"], started: Date(timeIntervalSince1970: row["started"]), processID: row["pid"])
            }
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the passcode attempts")
        }
    }

    /// Reserves a passcode check for `processID`; returns its identifier.
    static func insertFlight(started: Date, processID: Int32, in db: Database) throws(KeychainError) -> Int64 {
        do {
            try db.execute(
                sql: "INSERT INTO passcode_attempt_in_flight (started, pid) VALUES (?, ?)",
                arguments: [started.timeIntervalSince1970, Int(processID)]
            )
            return db.lastInsertedRowID
        } catch {
            throw SQLiteItemStore.translate(error, "cannot record a passcode attempt")
        }
    }

    /// Ends a reservation.
    static func deleteFlight(_ id: Int64, in db: Database) throws(KeychainError) {
        do {
            try db.execute(sql: "DELETE FROM passcode_attempt_in_flight WHERE id = ?", arguments: [id])
        } catch {
            throw SQLiteItemStore.translate(error, "cannot record a passcode attempt")
        }
    }

    // MARK: Biometric failures

    /// Consecutive failed matches.
    static func biometricFailures(_ db: Database) throws(KeychainError) -> Int {
        do {
            return try Int.fetchOne(db, sql: "SELECT failures FROM biometry_attempts") ?? 0
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the biometric attempts")
        }
    }

    /// Adds a failed match; returns the new count.
    static func recordBiometricFailure(in db: Database) throws(KeychainError) -> Int {
        do {
            try db.execute(
                sql: """
                    INSERT INTO biometry_attempts (id, failures) VALUES (1, 1)
                    ON CONFLICT(id) DO UPDATE SET failures = failures + 1
                    """
            )
            return try Int.fetchOne(db, sql: "SELECT failures FROM biometry_attempts") ?? 1
        } catch {
            throw SQLiteItemStore.translate(error, "cannot record a biometric attempt")
        }
    }

    /// Forgets the failed matches.
    static func clearBiometricFailures(in db: Database) throws(KeychainError) {
        do {
            try db.execute(sql: "DELETE FROM biometry_attempts")
        } catch {
            throw SQLiteItemStore.translate(error, "cannot reset the biometric attempts")
        }
    }
}
