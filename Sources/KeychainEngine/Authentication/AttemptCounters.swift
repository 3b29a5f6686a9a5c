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
package import KeychainCore

/// The attempt counters of the authentication gate (Apple keeps them in the Secure Enclave and
/// ACM): wrong passcodes with Apple's back-off, and consecutive failed biometric matches.
///
/// The counts live in the keychain database, so every process that opens the keychain sees the
/// same ones, and restarting a process does not reset them.
package final class AttemptCounters: Sendable {
    // MARK: Properties

    /// Apple's model: biometry locks after this many consecutive failed matches, until the passcode.
    package static let biometricFailureLimit = 5
    /// How long a reserved attempt may run before it counts as a failure even if its process
    /// seems alive (its process ID may have been reused, or belong to another PID namespace).
    static let abandonedAttemptAge: TimeInterval = 30
    /// How long an attempt waits for the attempts running in parallel to finish.
    static let attemptQueueTimeout: Duration = .seconds(20)

    private let store: SQLiteItemStore
    /// The keychain's clock (item dates, back-off, the session's reopening).
    let clock: @Sendable () -> Date
    /// The TPM that also counts wrong passcodes, beyond the reach of a copy of the files.
    private var hardware: (any HardwareRoot)? { hardwareState.withLock { $0 } }
    private let hardwareState: LockedState<(any HardwareRoot)?>

    // MARK: Initialization

    init(store: SQLiteItemStore, clock: @escaping @Sendable () -> Date, hardware: (any HardwareRoot)? = nil) {
        self.store = store
        self.clock = clock
        hardwareState = LockedState(hardware)
    }

    /// Counts in `hardware` too from now on (the keychain moved to or from a TPM), starting with
    /// the database's count.
    func move(to hardware: (any HardwareRoot)?) throws(KeychainError) {
        hardwareState.withLock { $0 = hardware }
        try recordHardwareCount()
    }

    /// Takes the TPM's count of wrong passcodes where the database's is lower (a copy of the home
    /// from before those guesses was put back): the back-off starts again from now.
    func adoptHardwareCount() throws(KeychainError) {
        guard let hardware else { return }
        let counted = try hardware.passcodeFailures()
        let now = clock()
        try store.write(erasing: false) { db throws(KeychainError) in
            let missing = counted - (try AttemptTables.backoff(db)).failures
            if missing > 0 { try AttemptTables.recordPasscodeFailures(missing, at: now, in: db) }
        }
    }

    /// Writes the database's count of wrong passcodes to the TPM where it is higher (guesses
    /// counted here, or attempts abandoned by killed processes).
    private func recordHardwareCount() throws(KeychainError) {
        guard let hardware else { return }
        let failures = try passcodeBackoff().failures
        let counted = try hardware.passcodeFailures()
        if failures > counted || (failures == 0 && counted != 0) {
            try hardware.setPasscodeFailures(failures)
        }
    }

    // MARK: Passcode attempts

    /// The wrong-passcode count and when the next attempt is allowed.
    package func passcodeBackoff() throws(KeychainError) -> PasscodeBackoff {
        try store.read { db throws(KeychainError) in try AttemptTables.backoff(db) }
    }

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
    /// - Throws: ``KeychainError/Code/passcodeBackoff`` while the back-off delay runs.
    func reservePasscodeAttempt() throws(KeychainError) -> Int64 {
        let start = ContinuousClock.now
        try adoptHardwareCount()
        while true {
            let now = clock()
            let reservation = try store.write(erasing: false) { db throws(KeychainError) -> Int64? in
                try Self.countAbandonedAttempts(db, now: now)
                let backoff = try AttemptTables.backoff(db)
                if let allowed = backoff.nextAttemptAllowed(at: now) {
                    let seconds = Int(allowed.timeIntervalSince(now).rounded(.up))
                    throw KeychainError(
                        .passcodeBackoff,
                        "too many wrong passcodes (\(backoff.failures)); try again in \(seconds) s"
                    )
                }
                let inFlight = try AttemptTables.flights(db).count
                // Were the attempts in flight all wrong, this one would have to wait: let them finish.
                if inFlight > 0, PasscodeBackoff.delay(afterFailures: backoff.failures + inFlight) > 0 {
                    return nil
                }
                return try AttemptTables.insertFlight(started: now, processID: getpid(), in: db)
            }
            if let reservation {
                // Abandoned attempts this reservation counted go to the TPM too; if it does not
                // answer, the reservation is released (the guess is not made, nothing is counted).
                let recorded = Result { () throws(KeychainError) in try recordHardwareCount() }
                if case .failure(let error) = recorded {
                    try? settlePasscodeAttempt(reservation, outcome: nil)
                    throw error
                }
                return reservation
            }
            // Wait with reads (no write lock, no flush) until the attempts in flight settle.
            while true {
                guard ContinuousClock.now - start < Self.attemptQueueTimeout else {
                    throw KeychainError(.passcodeBackoff, "too many passcode attempts are running at once; try again")
                }
                Thread.sleep(forTimeInterval: Double.random(in: 0.03...0.08))
                let settled = try store.read { db throws(KeychainError) -> Bool in
                    let backoff = try AttemptTables.backoff(db)
                    let flights = try AttemptTables.flights(db)
                    // One abandoned (its process gone): the write below counts it.
                    let abandoned = flights.contains { Self.isAbandoned($0, now: clock()) }
                    return abandoned || backoff.nextAttemptAllowed(at: clock()) != nil || flights.isEmpty
                        || PasscodeBackoff.delay(afterFailures: backoff.failures + flights.count) == 0
                }
                if settled { break }
            }
        }
    }

    /// Settles a reserved attempt: a wrong passcode (`false`) counts as a failure, a correct one
    /// (`true`) clears the count (and with `endsBiometricLockout` the biometric failures); `nil`
    /// (the passcode could not be checked) only releases the reservation.
    func settlePasscodeAttempt(
        _ reservation: Int64,
        outcome: Bool?,
        endsBiometricLockout: Bool = false
    ) throws(KeychainError) {
        let now = clock()
        if outcome == true, let hardware {
            // The TPM first: were it cleared after the database, a failure to write it would bring
            // the failures back at the next attempt, after the right passcode. If it does not
            // answer, the reservation is released and nothing changes.
            let cleared = Result { () throws(KeychainError) in
                if try hardware.passcodeFailures() != 0 { try hardware.setPasscodeFailures(0) }
            }
            if case .failure(let error) = cleared {
                try? settlePasscodeAttempt(reservation, outcome: nil)
                throw error
            }
        }
        try store.write(erasing: false) { db throws(KeychainError) in
            try AttemptTables.deleteFlight(reservation, in: db)
            switch outcome {
            case true?:
                try AttemptTables.clearPasscodeFailures(in: db)
                if endsBiometricLockout { try AttemptTables.clearBiometricFailures(in: db) }
            case false?:
                try AttemptTables.recordPasscodeFailures(1, at: now, in: db)
            case nil:
                break
            }
        }
        if outcome == false { try recordHardwareCount() }
    }

    // MARK: Biometric failures

    /// Consecutive failed biometric matches, across processes.
    package func biometricFailures() throws(KeychainError) -> Int {
        try store.read { db throws(KeychainError) in try AttemptTables.biometricFailures(db) }
    }

    /// Whether biometry is locked out until the passcode is entered.
    package func isBiometryLockedOut() throws(KeychainError) -> Bool {
        try biometricFailures() >= Self.biometricFailureLimit
    }

    /// Counts a failed match; returns the new count.
    @discardableResult
    package func recordBiometricFailure() throws(KeychainError) -> Int {
        try store.write(erasing: false) { db throws(KeychainError) in try AttemptTables.recordBiometricFailure(in: db) }
    }

    /// Clears the failure count after a successful match.
    package func resetBiometricFailures() throws(KeychainError) {
        try store.write(erasing: false) { db throws(KeychainError) in try AttemptTables.clearBiometricFailures(in: db) }
    }

    // MARK: Private

    /// Whether an attempt in flight was abandoned: reserved long ago, or by a process that no longer exists.
    private static func isAbandoned(_ flight: AttemptTables.Flight, now: Date) -> Bool {
        flight.started.timeIntervalSince1970 < now.timeIntervalSince1970 - abandonedAttemptAge
            || (kill(flight.processID, 0) != 0 && errno == ESRCH)
    }

    /// Attempts whose process died, or that were reserved long ago, count as failures.
    private static func countAbandonedAttempts(_ db: Database, now: Date) throws(KeychainError) {
        let abandoned = try AttemptTables.flights(db).filter { isAbandoned($0, now: now) }
        guard !abandoned.isEmpty else { return }
        for flight in abandoned {
            try AttemptTables.deleteFlight(flight.id, in: db)
        }
        try AttemptTables.recordPasscodeFailures(abandoned.count, at: now, in: db)
    }
}
