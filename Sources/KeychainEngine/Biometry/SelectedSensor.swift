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
import Foundation
import GRDB
import KeychainContract
import KeychainCore

/// The sensor the keychain's settings choose (`security biometry sensor`), asked afresh at every
/// call: another process may have chosen another one since.
struct SelectedSensor: BiometricSensor {
    let keychain: Keychain
    let simulated: SimulatedSensorDriver
    let fprintd: FprintdSensorDriver

    init(keychain: Keychain, simulated: SimulatedSensorDriver, reader: FprintdDevice) {
        self.keychain = keychain
        self.simulated = simulated
        fprintd = FprintdSensorDriver(reader: reader) { () throws(KeychainError) -> Data? in
            try Self.readerEpoch(in: keychain)
        }
    }

    /// The sensor in use now: the simulated one, fprintd's, or (auto) fprintd's when it has a reader.
    func current() throws(KeychainError) -> any BiometricSensor {
        switch try source() {
        case .simulated: simulated
        case .fprintd, .auto: fprintd
        }
    }

    // MARK: BiometricSensor

    func kind() throws(KeychainError) -> BiometryKind? { try current().kind() }
    func enrolled() throws(KeychainError) -> [String] { try current().enrolled() }
    func enrolmentIdentity() throws(KeychainError) -> Data? { try current().enrolmentIdentity() }

    func match(
        reason: String,
        kind: BiometryKind,
        cancellation: MatchCancellation,
        prompt: PasscodePrompt
    ) throws(KeychainError) -> BiometricMatch {
        try current().match(reason: reason, kind: kind, cancellation: cancellation, prompt: prompt)
    }

    var announcesScans: Bool { (try? current())?.announcesScans ?? false }
    var whenUnavailable: String? { (try? current())?.whenUnavailable }

    // MARK: Settings

    /// The chosen source; the simulated sensor until one is chosen.
    func source() throws(KeychainError) -> BiometricSensorSource {
        try keychain.store.read { db throws(KeychainError) in
            do {
                let raw = try String.fetchOne(db, sql: "SELECT source FROM sensor_source WHERE id = 1")
                return raw.flatMap(BiometricSensorSource.init(rawValue:)) ?? .simulated
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the sensor choice")
            }
        }
    }

    /// Chooses the source.
    func select(_ source: BiometricSensorSource) throws(KeychainError) {
        try write(
            "INSERT INTO sensor_source (id, source) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET source = excluded.source",
            [source.rawValue]
        )
    }

    /// Starts a new enrolment epoch: after an enrolment through the keychain, the set is a new one even
    /// if fprintd lists the same fingers (the same finger enrolled again).
    func rotateReaderEpoch() throws(KeychainError) {
        let epoch = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        // (Without a row the choice is the simulated sensor: the new row keeps that.)
        try write(
            """
            INSERT INTO sensor_source (id, source, reader_epoch) VALUES (1, ?, ?)
            ON CONFLICT (id) DO UPDATE SET reader_epoch = excluded.reader_epoch
            """,
            [BiometricSensorSource.simulated.rawValue, epoch]
        )
    }

    private static func readerEpoch(in keychain: Keychain) throws(KeychainError) -> Data? {
        try keychain.store.read { db throws(KeychainError) in
            do {
                return try Data.fetchOne(db, sql: "SELECT reader_epoch FROM sensor_source WHERE id = 1")
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the sensor choice")
            }
        }
    }

    private func write(_ sql: String, _ arguments: StatementArguments) throws(KeychainError) {
        try keychain.store.write { db throws(KeychainError) in
            do {
                try db.execute(sql: sql, arguments: arguments)
            } catch {
                throw SQLiteItemStore.translate(error, "cannot change the sensor choice")
            }
        }
    }
}
