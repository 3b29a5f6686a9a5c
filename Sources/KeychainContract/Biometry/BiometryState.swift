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

package import Foundation

/// The biometric sensor as the engine sees it: kind, enrolment, failures, scripted outcomes.
package struct BiometryState: Sendable, Hashable, Codable {
    /// The sensor, `nil` for none.
    package var kind: BiometryKind?
    /// The enrolled fingers, faces or eyes, oldest first.
    package var enrolled: [String]
    /// The identity of the enrolled set (`evaluatedPolicyDomainState`), `nil` when nothing is enrolled.
    package var enrolmentIdentity: Data?
    /// Consecutive failed matches.
    package var failedMatches: Int
    /// Whether the failures reached the limit: biometry is locked out until the passcode is entered.
    package var isLockedOut: Bool
    /// Outcomes queued on the simulated sensor.
    package var queuedOutcomes: [SimulatedOutcome]
    /// Which sensor the keychain uses.
    package var source: BiometricSensorSource = .simulated
    /// The reader's name, when the sensor is a fingerprint reader.
    package var readerName: String?

    package init(
        kind: BiometryKind?,
        enrolled: [String],
        enrolmentIdentity: Data?,
        failedMatches: Int,
        isLockedOut: Bool,
        queuedOutcomes: [SimulatedOutcome]
    ) {
        self.kind = kind
        self.enrolled = enrolled
        self.enrolmentIdentity = enrolmentIdentity
        self.failedMatches = failedMatches
        self.isLockedOut = isLockedOut
        self.queuedOutcomes = queuedOutcomes
    }
}

/// Which sensor matches fingers for the keychain.
public enum BiometricSensorSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// The scriptable simulated sensor (the default; `security biometry sensor touchid`, …).
    case simulated
    /// The system's fingerprint reader through fprintd.
    case fprintd
    /// fprintd when it has a reader, else none.
    case auto
}

/// A change to the sensor choice or to a real reader's enrolment.
package enum SensorChange: Sendable, Hashable, Codable {
    /// Chooses the sensor.
    case select(BiometricSensorSource)
    /// Enrols a finger on the fingerprint reader (fprintd's name, `right-index-finger`, …).
    case enrollOnReader(finger: String)
}

/// A change to the simulated sensor, as Xcode Simulator's Features menu makes them.
package enum SimulatedSensorChange: Sendable, Hashable, Codable {
    /// Installs a sensor of a kind (`nil` removes it).
    case install(BiometryKind?)
    /// Enrols a finger, face or eye by name.
    case enroll(String)
    /// Removes an enrolled finger, face or eye.
    case remove(String)
    /// Appends outcomes for the next matches.
    case queue([SimulatedOutcome])
    /// Empties the queue of outcomes.
    case clearQueue
}
