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

import Crypto
public import Foundation
import GRDB
package import KeychainCore

/// A scriptable biometric sensor, like Xcode Simulator's Touch ID / Face ID menu.
///
/// Its state lives in the keychain database, so separate processes (the `security` tool, a test,
/// an app) see the same sensor: whether there is one and of which kind, who is enrolled, and a
/// queue of outcomes that the next matches consume in order. With an empty queue it asks the
/// person at a terminal when the passcode prompt allows it, and otherwise is not interactive.
///
/// ```swift
/// let sensor = device.simulatedSensor
/// try sensor.install(.touchID)
/// try sensor.enroll("right thumb")          // needs a passcode, as on iOS
/// try sensor.queue([.nonMatch, .match])
/// ```
public struct SimulatedSensor: Sendable {
    let keychain: Keychain

    // MARK: Configuration

    /// The kind of sensor installed, or `nil` for none (`LABiometryType.none`).
    public func kind() throws -> BiometryKind? {
        try state().kind
    }

    /// Installs a sensor of `kind` (`nil` removes it). Changing the kind clears the enrolment.
    public func install(_ kind: BiometryKind?) throws {
        let previous = try self.kind()
        guard previous != kind else { return }
        try keychain.store.write { db throws(KeychainCoreError) in
            try Self.execute(db, "DELETE FROM simulated_enrolment")
            if let kind {
                try Self.execute(
                    db,
                    "INSERT OR REPLACE INTO simulated_sensor (id, biometry_type) VALUES (1, ?)",
                    [kind.biometryTypeRawValue]
                )
            } else {
                try Self.execute(db, "DELETE FROM simulated_sensor")
            }
        }
        if previous != nil, try keychain.hasPasscode() {
            try keychain.replaceBiometricSetLock(domainHash: nil)
        }
    }

    // MARK: Enrolment

    /// The enrolled fingers, faces or eyes, by name, oldest first.
    public func enrolled() throws -> [String] {
        try state().enrolment.map(\.name)
    }

    /// Enrols a finger, face or eye. Items protected by `biometryCurrentSet` become unreadable.
    ///
    /// - Throws: When no sensor is installed, no passcode is set (enrolling needs one, as on iOS),
    ///   the name is taken, or the kind's limit (five fingers, two appearances) is reached.
    public func enroll(_ name: String) throws {
        let current = try state()
        guard let kind = current.kind else {
            throw KeychainCoreError(.notAvailable, "no biometric sensor is installed")
        }
        guard try keychain.hasPasscode() else {
            throw KeychainCoreError(.notAvailable, "set a passcode before enrolling biometry")
        }
        guard !name.isEmpty, !current.enrolment.contains(where: { $0.name == name }) else {
            throw KeychainCoreError(.duplicateItem, "\(name.isEmpty ? "an empty name" : name) is already enrolled")
        }
        guard current.enrolment.count < kind.enrolmentLimit else {
            throw KeychainCoreError(.notAvailable, "\(kind.displayName) enrols at most \(kind.enrolmentLimit)")
        }
        guard keychain.hasBeenUnlocked else {
            throw KeychainCoreError(.interactionNotAllowed, "enrolling biometry needs the passcode first")
        }
        try keychain.store.write { db throws(KeychainCoreError) in
            try Self.execute(
                db,
                "INSERT INTO simulated_enrolment (name, enrolled) VALUES (?, ?)",
                [name, keychain.clock().timeIntervalSince1970]
            )
        }
        try keychain.replaceBiometricSetLock(domainHash: try domainHash())
    }

    /// Removes an enrolled finger, face or eye. Items protected by `biometryCurrentSet` become unreadable.
    public func remove(_ name: String) throws {
        guard try enrolled().contains(name) else {
            throw KeychainCoreError(.itemNotFound, "\(name) is not enrolled")
        }
        try keychain.store.write { db throws(KeychainCoreError) in
            try Self.execute(db, "DELETE FROM simulated_enrolment WHERE name = ?", [name])
        }
        if try keychain.hasPasscode() {
            try keychain.replaceBiometricSetLock(domainHash: try domainHash())
        }
    }

    /// A hash of the sensor kind and the enrolment set, or `nil` when nothing is enrolled.
    ///
    /// It changes whenever a finger or face is added or removed (re-enrolling the same name too),
    /// like `LAContext.evaluatedPolicyDomainState`.
    public func domainHash() throws -> Data? {
        let current = try state()
        guard let kind = current.kind, !current.enrolment.isEmpty else { return nil }
        var hasher = SHA256()
        hasher.update(data: Data("swift-keychain/v1/biometric-domain \(kind.rawValue)".utf8))
        for entry in current.enrolment {
            hasher.update(data: Data("\(entry.name.utf8.count):\(entry.name)@\(entry.enrolled)".utf8))
        }
        return Data(hasher.finalize())
    }

    // MARK: Scripted outcomes

    /// Appends outcomes for the next matches, consumed in order by any process.
    public func queue(_ outcomes: [SimulatedOutcome]) throws {
        try keychain.store.write { db throws(KeychainCoreError) in
            for outcome in outcomes {
                try Self.execute(db, "INSERT INTO simulated_outcome (outcome) VALUES (?)", [outcome.rawValue])
            }
        }
    }

    /// The outcomes still queued.
    public func queuedOutcomes() throws -> [SimulatedOutcome] {
        try keychain.store.read { db throws(KeychainCoreError) in
            do {
                return try String.fetchAll(db, sql: "SELECT outcome FROM simulated_outcome ORDER BY seq")
                    .compactMap(SimulatedOutcome.init(rawValue:))
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the simulated sensor")
            }
        }
    }

    /// Empties the queue.
    public func clearQueue() throws {
        try keychain.store.write { db throws(KeychainCoreError) in
            try Self.execute(db, "DELETE FROM simulated_outcome")
        }
    }

    /// Takes the next queued outcome, or asks at the terminal when `prompt` allows it.
    ///
    /// - Returns: `nil` when the queue is empty and nobody can be asked (not interactive).
    package func nextOutcome(reason: String, kind: BiometryKind, prompt: PasscodePrompt) throws(KeychainCoreError) -> SimulatedOutcome? {
        let queued = try keychain.store.write { db throws(KeychainCoreError) -> SimulatedOutcome? in
            do {
                guard let row = try Row.fetchOne(db, sql: "SELECT seq, outcome FROM simulated_outcome ORDER BY seq LIMIT 1"),
                    let seq = row["seq"] as Int64?
                else { return nil }
                try db.execute(sql: "DELETE FROM simulated_outcome WHERE seq = ?", arguments: [seq])
                return SimulatedOutcome(rawValue: row["outcome"] ?? "") ?? .nonMatch
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the simulated sensor")
            }
        }
        if let queued { return queued }
        guard prompt.asksAtTerminal else { return nil }
        for _ in 0..<3 {
            guard let answer = Terminal.ask("\(kind.displayName): \(reason)\nmatch? [y]es, [n]o, [c]ancel, [f]allback: ") else {
                return nil
            }
            switch answer.lowercased() {
            case "y", "yes": return .match
            case "n", "no": return .nonMatch
            case "c", "cancel": return .cancel
            case "f", "fallback": return .fallback
            default: continue
            }
        }
        return .cancel
    }

    // MARK: Private

    struct State {
        var kind: BiometryKind?
        var enrolment: [(name: String, enrolled: Double)]
    }

    func state() throws(KeychainCoreError) -> State {
        try keychain.store.read { db throws(KeychainCoreError) in
            do {
                let raw = try Int.fetchOne(db, sql: "SELECT biometry_type FROM simulated_sensor WHERE id = 1")
                let kind = raw.flatMap { value in BiometryKind.allCases.first { $0.biometryTypeRawValue == value } }
                let enrolment = try Row.fetchAll(db, sql: "SELECT name, enrolled FROM simulated_enrolment ORDER BY enrolled, name")
                    .map { (name: $0["name"] as String? ?? "", enrolled: $0["enrolled"] as Double? ?? 0) }
                return State(kind: kind, enrolment: enrolment)
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the simulated sensor")
            }
        }
    }

    private static func execute(
        _ db: Database,
        _ sql: String,
        _ arguments: StatementArguments = []
    ) throws(KeychainCoreError) {
        do {
            try db.execute(sql: sql, arguments: arguments)
        } catch {
            throw SQLiteItemStore.translate(error, "cannot update the simulated sensor")
        }
    }
}

extension Device {
    /// The device's simulated biometric sensor (Xcode Simulator's Touch ID / Face ID menu).
    public var simulatedSensor: SimulatedSensor {
        SimulatedSensor(keychain: keychain)
    }
}
