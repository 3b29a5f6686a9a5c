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
package import KeychainContract
package import KeychainCore

/// A biometric sensor as the authentication gate uses it: what it is, who is enrolled, and one
/// match at a time.
///
/// The simulated sensor is one (``SimulatedSensorDriver``); a real reader (fprintd) is another.
/// The gate alone decides what a match releases: a sensor only reports.
package protocol BiometricSensor: Sendable {
    /// The kind of sensor present, `nil` when there is none.
    func kind() throws(KeychainError) -> BiometryKind?
    /// The names of the enrolled fingers, faces or eyes, oldest first.
    func enrolled() throws(KeychainError) -> [String]
    /// An identity of the enrolled set that changes whenever a template is added or removed;
    /// `nil` when nothing is enrolled. The `biometryCurrentSet` constraint key follows it.
    func enrolmentIdentity() throws(KeychainError) -> Data?
    /// Asks for one match, showing `reason`; blocks until the person answers or `cancellation` is
    /// cancelled (its context was released or invalidated), when the match reports `.cancelled`.
    /// `prompt` is the evaluation's prompt, for a sensor that asks a person in words.
    func match(
        reason: String,
        kind: BiometryKind,
        cancellation: MatchCancellation,
        prompt: PasscodePrompt
    ) throws(KeychainError) -> BiometricMatch
    /// Whether the person must be told that a scan is awaited (a real reader shows no dialog of its own).
    var announcesScans: Bool { get }
    /// What to do when a match reported `.unavailable` (nobody could be asked), if the sensor can say.
    var whenUnavailable: String? { get }
}

extension BiometricSensor {
    package var announcesScans: Bool { false }
    package var whenUnavailable: String? { nil }
}

/// What a sensor reports for one match.
package enum BiometricMatch: Sendable, Hashable {
    /// An enrolled finger or face.
    case match
    /// Another finger or face: counts towards the lockout after five.
    case nonMatch
    /// The person (or the program) cancelled.
    case cancelled
    /// The person chose the fallback ("Enter Password").
    case fallback
    /// Nobody can be asked (not interactive).
    case unavailable

    /// The match a scripted outcome stands for.
    package init(_ outcome: SimulatedOutcome) {
        switch outcome {
        case .match: self = .match
        case .nonMatch: self = .nonMatch
        case .cancel: self = .cancelled
        case .fallback: self = .fallback
        }
    }
}
