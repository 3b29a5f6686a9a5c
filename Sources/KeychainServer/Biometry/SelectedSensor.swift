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
import KeychainCore
import KeychainDevice

/// The sensor the keychain's settings choose (`security biometry sensor`), asked afresh at every
/// call: another process may have chosen another one since.
struct SelectedSensor: BiometricSensor {
    let keychain: Keychain
    let simulated: SimulatedBiometricSensor
    let fprintd: FprintdSensor

    init(keychain: Keychain, simulated: SimulatedBiometricSensor, reader: FprintdReader) {
        self.keychain = keychain
        self.simulated = simulated
        fprintd = FprintdSensor(reader: reader) { () throws(KeychainCoreError) -> Data? in
            try Self.readerEpoch(in: keychain)
        }
    }

    /// The sensor in use now: the simulated one, fprintd's, or (auto) fprintd's when it has a reader.
    func current() throws(KeychainCoreError) -> any BiometricSensor {
        switch try source() {
        case .simulated: simulated
        case .fprintd, .auto: fprintd
        }
    }

    // MARK: BiometricSensor

    func kind() throws(KeychainCoreError) -> BiometryKind? { try current().kind() }
    func enrolled() throws(KeychainCoreError) -> [String] { try current().enrolled() }
    func enrolmentIdentity() throws(KeychainCoreError) -> Data? { try current().enrolmentIdentity() }

    func match(
        reason: String,
        kind: BiometryKind,
        cancellation: MatchCancellation,
        prompt: PasscodePrompt
    ) throws(KeychainCoreError) -> BiometricMatch {
        try current().match(reason: reason, kind: kind, cancellation: cancellation, prompt: prompt)
    }

    var announcesScans: Bool { (try? current())?.announcesScans ?? false }
    var whenUnavailable: String? { (try? current())?.whenUnavailable }

    // MARK: Settings

    /// The chosen source; the simulated sensor until one is chosen.
    func source() throws(KeychainCoreError) -> BiometricSensorSource {
        try keychain.store.read { db throws(KeychainCoreError) in
            do {
                let raw = try String.fetchOne(db, sql: "SELECT source FROM sensor_source WHERE id = 1")
                return raw.flatMap(BiometricSensorSource.init(rawValue:)) ?? .simulated
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the sensor choice")
            }
        }
    }

    /// Chooses the source.
    func select(_ source: BiometricSensorSource) throws(KeychainCoreError) {
        try write(
            "INSERT INTO sensor_source (id, source) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET source = excluded.source",
            [source.rawValue]
        )
    }

    /// Starts a new enrolment epoch: after an enrolment through the keychain, the set is a new one even
    /// if fprintd lists the same fingers (the same finger enrolled again).
    func rotateReaderEpoch() throws(KeychainCoreError) {
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

    private static func readerEpoch(in keychain: Keychain) throws(KeychainCoreError) -> Data? {
        try keychain.store.read { db throws(KeychainCoreError) in
            do {
                return try Data.fetchOne(db, sql: "SELECT reader_epoch FROM sensor_source WHERE id = 1")
            } catch {
                throw SQLiteItemStore.translate(error, "cannot read the sensor choice")
            }
        }
    }

    private func write(_ sql: String, _ arguments: StatementArguments) throws(KeychainCoreError) {
        try keychain.store.write { db throws(KeychainCoreError) in
            do {
                try db.execute(sql: sql, arguments: arguments)
            } catch {
                throw SQLiteItemStore.translate(error, "cannot change the sensor choice")
            }
        }
    }
}
