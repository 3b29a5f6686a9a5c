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
package import Foundation
import GRDB
package import KeychainContract
package import KeychainCore

/// The simulated biometric sensor, as the engine drives it: Xcode Simulator's Touch ID / Face ID
/// menu, one ``BiometricSensor``.
///
/// Its state lives in the keychain database, so separate processes (the `security` tool, a test,
/// an app) see the same sensor: whether there is one and of which kind, who is enrolled, and a
/// queue of outcomes that the next matches consume in order. With an empty queue it asks the
/// person through the evaluation's prompt when that can ask in words (the terminal in process;
/// through `securityd`, its prompter on the requesting program's terminal or display), and
/// otherwise is not interactive.
///
/// Its tables (`simulated_sensor`, `simulated_enrolment`, `simulated_outcome`) belong to it; they
/// were created by the engine's shipped migrations, which stay as they are.
package struct SimulatedSensorDriver: BiometricSensor {
    let keychain: Keychain

    package init(keychain: Keychain) {
        self.keychain = keychain
    }

    // MARK: BiometricSensor

    package func kind() throws(KeychainError) -> BiometryKind? {
        try state().kind
    }

    package func enrolled() throws(KeychainError) -> [String] {
        try state().enrolment.map(\.name)
    }

    /// A hash of the sensor kind and the enrolment set, or `nil` when nothing is enrolled.
    ///
    /// It changes whenever a finger or face is added or removed (re-enrolling the same name too),
    /// like `LAContext.evaluatedPolicyDomainState`.
    package func enrolmentIdentity() throws(KeychainError) -> Data? {
        let current = try state()
        guard let kind = current.kind, !current.enrolment.isEmpty else { return nil }
        var hasher = SHA256()
        hasher.update(data: Data("swift-keychain/v1/biometric-domain \(kind.rawValue)".utf8))
        for entry in current.enrolment {
            hasher.update(data: Data("\(entry.name.utf8.count):\(entry.name)@\(entry.enrolled)".utf8))
        }
        return Data(hasher.finalize())
    }

    /// Takes the next queued outcome, or asks through `prompt` when it can ask in words.
    ///
    /// A queued outcome is taken whole, and a question ends when answered: neither is cancelled.
    package func match(
        reason: String,
        kind: BiometryKind,
        cancellation: MatchCancellation,
        prompt: PasscodePrompt
    ) throws(KeychainError) -> BiometricMatch {
        let queued = try keychain.store.write { db throws(KeychainError) -> SimulatedOutcome? in
            do {
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: "SELECT seq, outcome FROM simulated_outcome ORDER BY seq LIMIT 1"
                    ),
                    let seq = row["seq"] as Int64?
                else { return nil }
                try db.execute(sql: "DELETE FROM simulated_outcome WHERE seq = ?", arguments: [seq])
                return SimulatedOutcome(rawValue: row["outcome"] ?? "") ?? .nonMatch
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the simulated sensor")
            }
        }
        if let queued { return BiometricMatch(queued) }
        guard let ask = prompt.askWord else { return .unavailable }
        for _ in 0..<3 {
            guard
                let answer = ask("Simulated \(kind.displayName): \(reason)\nmatch? [y]es, [n]o, [c]ancel, [f]allback: ")
            else {
                return .unavailable
            }
            switch answer.trimmingCharacters(in: .whitespaces).lowercased() {
            case "y", "yes": return .match
            case "n", "no": return .nonMatch
            case "c", "cancel": return .cancelled
            case "f", "fallback": return .fallback
            default: continue
            }
        }
        return .cancelled
    }

    package var whenUnavailable: String? {
        "the simulated sensor has no outcome queued and nobody could be asked here; queue one with `security biometry next match` (or nonmatch, cancel, fallback)"
    }

    // MARK: Changing the sensor

    /// Applies a change; returns whether the enrolled set may have changed (its lock must follow).
    package func apply(_ change: SimulatedSensorChange) throws(KeychainError) -> Bool {
        switch change {
        case .install(let kind):
            return try install(kind)
        case .enroll(let name):
            try enroll(name)
            return true
        case .remove(let name):
            try remove(name)
            return true
        case .queue(let outcomes):
            try keychain.store.write { db throws(KeychainError) in
                for outcome in outcomes {
                    try Self.execute(db, "INSERT INTO simulated_outcome (outcome) VALUES (?)", [outcome.rawValue])
                }
            }
            return false
        case .clearQueue:
            try keychain.store.write { db throws(KeychainError) in
                try Self.execute(db, "DELETE FROM simulated_outcome")
            }
            return false
        }
    }

    /// The outcomes still queued.
    package func queuedOutcomes() throws(KeychainError) -> [SimulatedOutcome] {
        try keychain.store.read { db throws(KeychainError) in
            do {
                return try String.fetchAll(db, sql: "SELECT outcome FROM simulated_outcome ORDER BY seq")
                    .compactMap(SimulatedOutcome.init(rawValue:))
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the simulated sensor")
            }
        }
    }

    /// Installs a sensor of `kind` (`nil` removes it); changing the kind clears the enrolment.
    private func install(_ kind: BiometryKind?) throws(KeychainError) -> Bool {
        let previous = try self.kind()
        guard previous != kind else { return false }
        try keychain.store.write { db throws(KeychainError) in
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
        return previous != nil
    }

    /// Enrols a finger, face or eye: needs a sensor, a passcode (as on iOS) and the first unlock,
    /// a new name, and room under the kind's limit (five fingers, two appearances, one pair of eyes).
    private func enroll(_ name: String) throws(KeychainError) {
        let current = try state()
        guard let kind = current.kind else {
            throw KeychainError(.notAvailable, "no biometric sensor is installed")
        }
        guard try keychain.keybagService.hasPasscode() else {
            throw KeychainError(.notAvailable, "set a passcode before enrolling biometry")
        }
        guard !name.isEmpty, !current.enrolment.contains(where: { $0.name == name }) else {
            throw KeychainError(.duplicateItem, "\(name.isEmpty ? "an empty name" : name) is already enrolled")
        }
        guard current.enrolment.count < kind.enrolmentLimit else {
            throw KeychainError(.notAvailable, "\(kind.displayName) enrols at most \(kind.enrolmentLimit)")
        }
        guard keychain.keybagService.hasBeenUnlocked else {
            throw KeychainError(.interactionNotAllowed, "enrolling biometry needs the passcode first")
        }
        try keychain.store.write { db throws(KeychainError) in
            try Self.execute(
                db,
                "INSERT INTO simulated_enrolment (name, enrolled) VALUES (?, ?)",
                [name, keychain.clock().timeIntervalSince1970]
            )
        }
    }

    /// Removes an enrolled finger, face or eye.
    private func remove(_ name: String) throws(KeychainError) {
        guard try enrolled().contains(name) else {
            throw KeychainError(.itemNotFound, "\(name) is not enrolled")
        }
        try keychain.store.write { db throws(KeychainError) in
            try Self.execute(db, "DELETE FROM simulated_enrolment WHERE name = ?", [name])
        }
    }

    // MARK: Private

    struct State {
        var kind: BiometryKind?
        var enrolment: [(name: String, enrolled: Double)]
    }

    func state() throws(KeychainError) -> State {
        try keychain.store.read { db throws(KeychainError) in
            do {
                let raw = try Int.fetchOne(db, sql: "SELECT biometry_type FROM simulated_sensor WHERE id = 1")
                let kind = raw.flatMap { value in BiometryKind.allCases.first { $0.biometryTypeRawValue == value } }
                let enrolment = try Row.fetchAll(
                    db,
                    sql: "SELECT name, enrolled FROM simulated_enrolment ORDER BY enrolled, name"
                )
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
    ) throws(KeychainError) {
        do {
            try db.execute(sql: sql, arguments: arguments)
        } catch {
            throw SQLiteItemStore.translate(error, "cannot update the simulated sensor")
        }
    }
}
