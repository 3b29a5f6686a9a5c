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

public import Foundation
import KeychainCore

/// A scriptable biometric sensor, like Xcode Simulator's Touch ID / Face ID menu.
///
/// Its state lives in the keychain, so separate processes (the `security` tool, a test, an app)
/// see the same sensor: whether there is one and of which kind, who is enrolled, and a queue of
/// outcomes that the next matches consume in order. With an empty queue it asks the person at a
/// terminal when the passcode prompt allows it, and otherwise is not interactive.
///
/// ```swift
/// let sensor = device.simulatedSensor
/// try sensor.install(.touchID)
/// try sensor.enroll("right thumb")          // needs a passcode, as on iOS
/// try sensor.queue([.nonMatch, .match])
/// ```
public struct SimulatedSensor: Sendable {
    let engine: any Engine

    // MARK: Configuration

    /// The kind of sensor installed, or `nil` for none (`LABiometryType.none`).
    public func kind() throws -> BiometryKind? {
        try KeychainDeviceError.translating { try engine.biometryState().kind }
    }

    /// Installs a sensor of `kind` (`nil` removes it).
    ///
    /// Changing the kind clears the enrolment.
    public func install(_ kind: BiometryKind?) throws {
        try KeychainDeviceError.translating { try engine.changeSimulatedSensor(.install(kind)) }
    }

    // MARK: Enrolment

    /// The enrolled fingers, faces or eyes, by name, oldest first.
    public func enrolled() throws -> [String] {
        try KeychainDeviceError.translating { try engine.biometryState().enrolled }
    }

    /// Enrols a finger, face or eye.
    ///
    /// Items protected by `biometryCurrentSet` become unreadable.
    ///
    /// - Throws: When no sensor is installed, no passcode is set (enrolling needs one, as on iOS),
    ///   the name is taken, or the kind's limit (five fingers, two appearances) is reached.
    public func enroll(_ name: String) throws {
        try KeychainDeviceError.translating { try engine.changeSimulatedSensor(.enroll(name)) }
    }

    /// Removes an enrolled finger, face or eye.
    ///
    /// Items protected by `biometryCurrentSet` become unreadable.
    public func remove(_ name: String) throws {
        try KeychainDeviceError.translating { try engine.changeSimulatedSensor(.remove(name)) }
    }

    /// A hash of the sensor kind and the enrolment set, or `nil` when nothing is enrolled.
    ///
    /// It changes whenever a finger or face is added or removed (re-enrolling the same name too),
    /// like `LAContext.evaluatedPolicyDomainState`.
    public func domainHash() throws -> Data? {
        try KeychainDeviceError.translating { try engine.biometryState().enrolmentIdentity }
    }

    // MARK: Scripted outcomes

    /// Appends outcomes for the next matches, consumed in order by any process.
    public func queue(_ outcomes: [SimulatedOutcome]) throws {
        try KeychainDeviceError.translating { try engine.changeSimulatedSensor(.queue(outcomes)) }
    }

    /// The outcomes still queued.
    public func queuedOutcomes() throws -> [SimulatedOutcome] {
        try KeychainDeviceError.translating { try engine.biometryState().queuedOutcomes }
    }

    /// Empties the queue.
    public func clearQueue() throws {
        try KeychainDeviceError.translating { try engine.changeSimulatedSensor(.clearQueue) }
    }
}

extension Device {
    /// The device's simulated biometric sensor (Xcode Simulator's Touch ID / Face ID menu).
    public var simulatedSensor: SimulatedSensor {
        SimulatedSensor(engine: engine)
    }
}
