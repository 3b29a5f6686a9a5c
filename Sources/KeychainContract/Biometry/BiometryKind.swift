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

/// The kind of biometric sensor a device has (`LABiometryType` without `none`).
public enum BiometryKind: String, Sendable, Hashable, CaseIterable, Codable {
    case touchID = "touchid"
    case faceID = "faceid"
    case opticID = "opticid"

    /// How many fingers, appearances or eyes can be enrolled, as on Apple devices: five fingers,
    /// a face and an alternate appearance, one pair of eyes.
    public var enrolmentLimit: Int {
        switch self {
        case .touchID: 5
        case .faceID: 2
        case .opticID: 1
        }
    }

    /// `LABiometryType`'s raw value.
    package var biometryTypeRawValue: Int {
        switch self {
        case .touchID: 1
        case .faceID: 2
        case .opticID: 4
        }
    }

    /// The name people know it by.
    public var displayName: String {
        switch self {
        case .touchID: "Touch ID"
        case .faceID: "Face ID"
        case .opticID: "Optic ID"
        }
    }
}

/// What the simulated sensor reports for the next match, like Xcode Simulator's
/// Features ▸ Touch ID / Face ID menu.
public enum SimulatedOutcome: String, Sendable, Hashable, CaseIterable, Codable {
    /// A matching finger or face.
    case match
    /// A non-matching finger or face: counts towards the lockout after five.
    case nonMatch = "nonmatch"
    /// The person cancels the dialog (`LAError.userCancel`).
    case cancel
    /// The person taps the fallback button ("Enter Password").
    case fallback
}
