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
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

extension Keychain {
    // MARK: Reserving attempts

    /// How long a reserved attempt may run before it counts as a failure even if its process
    /// seems alive (its process ID may have been reused, or belong to another PID namespace).
    static let abandonedAttemptAge: TimeInterval = 30
    /// How long an attempt waits for the attempts running in parallel to finish.
    static let attemptQueueTimeout: Duration = .seconds(20)

    /// Reserves a passcode attempt, in one write transaction with the back-off check, before the
    /// KDF runs: every guess counts, however many run at once.
    ///
    /// Attempts in flight count as failures for the back-off until they are settled: when the
    /// failures so far plus those in flight would reach a delay, the attempt waits for the others
    /// to finish instead of running beside them. Parallel correct attempts (several processes
    /// unlocking at once) therefore queue briefly; parallel guesses run one by one, and the fifth
    /// wrong one starts the delay for all that wait. An attempt whose process died before settling
    /// it counts as a failure (killing a guess before its outcome is recorded does not make it free).
    /// - Returns: The reservation, for ``settlePasscodeAttempt(_:outcome:endsBiometricLockout:)``.
    /// - Throws: ``KeychainCoreError/Code/passcodeBackoff`` while the back-off delay runs.
    func reservePasscodeAttempt() throws(KeychainCoreError) -> Int64 {
        let start = ContinuousClock.now
        while true {
            let now = clock()
            let reservation = try store.write(erasing: false) { db throws(KeychainCoreError) -> Int64? in
                do {
                    try Self.countAbandonedAttempts(db, now: now)
                    let backoff = try Self.fetchBackoff(db)
                    if let allowed = backoff.nextAttemptAllowed(at: now) {
                        let seconds = Int(allowed.timeIntervalSince(now).rounded(.up))
                        throw KeychainCoreError(
                            .passcodeBackoff,
                            "too many wrong passcodes (\(backoff.failures)); try again in \(seconds) s"
                        )
                    }
                    let inFlight = try Int.fetchOne(db, sql: "SELECT count(*) FROM passcode_attempt_in_flight") ?? 0
                    // Were the attempts in flight all wrong, this one would have to wait: let them finish.
                    if inFlight > 0, PasscodeBackoff.delay(afterFailures: backoff.failures + inFlight) > 0 {
                        return nil
                    }
                    try db.execute(
                        sql: "INSERT INTO passcode_attempt_in_flight (started, pid) VALUES (?, ?)",
                        arguments: [now.timeIntervalSince1970, Int(getpid())]
                    )
                    return db.lastInsertedRowID
                } catch let error as KeychainCoreError {
                    throw error
                } catch {
                    throw SQLiteItemStore.translate(error, "cannot record a passcode attempt")
                }
            }
            if let reservation { return reservation }
            // Wait with reads (no write lock, no flush) until the attempts in flight settle.
            while true {
                guard ContinuousClock.now - start < Self.attemptQueueTimeout else {
                    throw KeychainCoreError(.passcodeBackoff, "too many passcode attempts are running at once; try again")
                }
                Thread.sleep(forTimeInterval: Double.random(in: 0.03...0.08))
                let settled = try store.read { db throws(KeychainCoreError) -> Bool in
                    do {
                        let backoff = try Self.fetchBackoff(db)
                        let flights = try Row.fetchAll(db, sql: "SELECT started, pid FROM passcode_attempt_in_flight")
                        // One abandoned (its process gone): the write below counts it.
                        let abandoned = flights.contains { Self.isAbandoned($0, now: clock()) }
                        return abandoned || backoff.nextAttemptAllowed(at: clock()) != nil || flights.isEmpty
                            || PasscodeBackoff.delay(afterFailures: backoff.failures + flights.count) == 0
                    } catch {
                        throw SQLiteItemStore.translate(error, "cannot read the passcode attempts")
                    }
                }
                if settled { break }
            }
        }
    }

    /// Settles a reserved attempt: a wrong passcode (`false`) counts as a failure, a correct one
    /// (`true`) clears the count (and with `endsBiometricLockout` the biometric failures); `nil`
    /// (the passcode could not be checked) only releases the reservation.
    func settlePasscodeAttempt(_ reservation: Int64, outcome: Bool?, endsBiometricLockout: Bool = false) throws(KeychainCoreError) {
        let now = clock()
        try store.write(erasing: false) { db throws(KeychainCoreError) in
            do {
                try db.execute(sql: "DELETE FROM passcode_attempt_in_flight WHERE id = ?", arguments: [reservation])
                switch outcome {
                case true?:
                    try db.execute(sql: "DELETE FROM passcode_attempts")
                    if endsBiometricLockout { try db.execute(sql: "DELETE FROM biometry_attempts") }
                case false?:
                    try Self.recordFailures(1, at: now, in: db)
                case nil:
                    break
                }
            } catch let error as KeychainCoreError {
                throw error
            } catch {
                throw SQLiteItemStore.translate(error, "cannot record a passcode attempt")
            }
        }
    }

    // MARK: Reading

    static func fetchBackoff(_ db: Database) throws(KeychainCoreError) -> PasscodeBackoff {
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

    // MARK: Private

    private static func recordFailures(_ count: Int, at date: Date, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO passcode_attempts (id, failures, last_failure) VALUES (1, ?, ?)
                ON CONFLICT(id) DO UPDATE SET failures = failures + excluded.failures, last_failure = excluded.last_failure
                """,
            arguments: [count, date.timeIntervalSince1970]
        )
    }

    /// Whether an attempt in flight (a row with `started` and `pid`) was abandoned: reserved long
    /// ago, or by a process that no longer exists.
    private static func isAbandoned(_ row: Row, now: Date) -> Bool {
        let pid: Int32 = row["pid"]
        return (row["started"] as Double) < now.timeIntervalSince1970 - abandonedAttemptAge || (kill(pid, 0) != 0 && errno == ESRCH)
    }

    /// Attempts whose process died, or that were reserved long ago, count as failures.
    private static func countAbandonedAttempts(_ db: Database, now: Date) throws {
        let abandoned: [Int64] = try Row.fetchAll(db, sql: "SELECT id, started, pid FROM passcode_attempt_in_flight")
            .filter { isAbandoned($0, now: now) }
            .map { $0["id"] }
        guard !abandoned.isEmpty else { return }
        for id in abandoned {
            try db.execute(sql: "DELETE FROM passcode_attempt_in_flight WHERE id = ?", arguments: [id])
        }
        try recordFailures(abandoned.count, at: now, in: db)
    }
}
