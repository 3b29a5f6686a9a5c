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
import KeychainCore

/// What the device's biometry looks like now, for a settings screen or `security status`.
public struct BiometryStatus: Sendable, Hashable {
    /// The installed sensor, or `nil` for none.
    public var kind: BiometryKind?
    /// The enrolled fingers, faces or eyes.
    public var enrolled: [String]
    /// Consecutive failed matches (five lock biometry until the passcode is entered).
    public var failedMatches: Int
    /// Whether biometry is locked out until the passcode is entered.
    public var isLockedOut: Bool
    /// Outcomes queued on the simulated sensor.
    public var queuedOutcomes: [SimulatedOutcome]
    /// Which sensor the keychain uses.
    public var source: BiometricSensorSource
    /// The fingerprint reader's name, when fprintd's reader is in use.
    public var readerName: String?
}

extension Device {
    /// The biometric sensor, enrolment and lockout state.
    public func biometryStatus() throws -> BiometryStatus {
        let state = try KeychainDeviceError.translating { try engine.biometryState() }
        return BiometryStatus(
            kind: state.kind,
            enrolled: state.enrolled,
            failedMatches: state.failedMatches,
            isLockedOut: state.isLockedOut,
            queuedOutcomes: state.queuedOutcomes,
            source: state.source,
            readerName: state.readerName
        )
    }

    /// Chooses the sensor that matches fingers: the simulated one, fprintd's reader, or fprintd's when
    /// it has one (`auto`).
    ///
    /// Items bound to the enrolled set (`biometryCurrentSet`) follow the new sensor's set: those
    /// sealed to another set become unreadable.
    public func selectBiometricSensor(_ source: BiometricSensorSource) throws {
        try KeychainDeviceError.translating { try engine.changeSensor(.select(source)) }
    }

    /// Enrols `finger` (fprintd's names: `right-index-finger`, …) on fprintd's reader, as
    /// `fprintd-enroll` does; the enrolled set's identity changes, so `biometryCurrentSet` items
    /// become unreadable.
    public func enrollOnReader(finger: String) throws {
        try KeychainDeviceError.translating { try engine.changeSensor(.enrollOnReader(finger: finger)) }
    }
}
