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
import KeychainContract
import KeychainCore

/// The fingerprint reader fprintd drives, as the keychain's biometric sensor (Touch ID's place).
///
/// A match is fprintd's `verify-match` for any finger enrolled for this user, from fprintd's owner on the
/// system bus, checked to run as root; retry statuses (`verify-retry-scan`, a swipe too short, …) do not
/// end the scan, as Apple's dialog lets the finger be placed again. The enrolled set's identity is the
/// reader's name, the enrolled fingers, and an epoch the keychain's own enrolment rotates: fprintd does
/// not say when a finger was enrolled again outside `security biometry enroll`, so that alone does not
/// change the identity (adding or removing a finger anywhere does).
struct FprintdSensorDriver: BiometricSensor {
    let reader: FprintdDevice
    /// The epoch of enrolments made through the keychain.
    let epoch: @Sendable () throws(KeychainError) -> Data?

    // MARK: BiometricSensor

    func kind() throws(KeychainError) -> BiometryKind? {
        reader.reader() == nil ? nil : .touchID
    }

    func enrolled() throws(KeychainError) -> [String] {
        reader.enrolment()?.fingers ?? []
    }

    func enrolmentIdentity() throws(KeychainError) -> Data? {
        guard let (device, fingers) = reader.enrolment(), !fingers.isEmpty else { return nil }
        var hasher = SHA256()
        hasher.update(data: Data("swift-keychain/v1/fprintd-domain".utf8))
        hasher.update(data: Data("\(device.name.utf8.count):\(device.name)".utf8))
        for finger in fingers {
            hasher.update(data: Data("\(finger.utf8.count):\(finger)".utf8))
        }
        hasher.update(data: try epoch() ?? Data())
        return Data(hasher.finalize())
    }

    func match(
        reason: String,
        kind: BiometryKind,
        cancellation: MatchCancellation,
        prompt: PasscodePrompt
    ) throws(KeychainError) -> BiometricMatch {
        let status: String
        do {
            status = try reader.verify(cancellation: cancellation)
        } catch {
            switch error.kind {
            case .cancelled, .timeout: return .cancelled
            case .notEnrolled: return .unavailable
            default: throw KeychainError(.interactionNotAllowed, "the fingerprint reader failed: \(error.message)")
            }
        }
        switch status {
        case "verify-match": return .match
        case "verify-no-match": return .nonMatch
        default:
            // verify-disconnected, verify-unknown-error: nothing was decided.
            throw KeychainError(.interactionNotAllowed, "the fingerprint reader reported \(status)")
        }
    }

    var announcesScans: Bool { true }

    // MARK: Enrolling

    /// Enrols `finger` on the reader; fprintd's final status must be `enroll-completed`.
    func enroll(_ finger: String) throws(KeychainError) {
        guard Self.fingerNames.contains(finger) else {
            throw KeychainError(
                .invalidParameter,
                "unknown finger \(finger); fprintd's names are \(Self.fingerNames.joined(separator: ", "))"
            )
        }
        let status: String
        do {
            status = try reader.enroll(finger)
        } catch  where [.noBus, .noService, .untrusted, .noDevice].contains(error.kind) {
            throw KeychainError(.notAvailable, "fprintd has no fingerprint reader (or is not running as root)")
        } catch {
            throw KeychainError(.notAvailable, "enrolling failed: \(error.message)")
        }
        guard status == "enroll-completed" else {
            throw KeychainError(.authenticationFailed, "enrolling failed: fprintd reported \(status)")
        }
    }

    /// fprintd's finger names.
    static let fingerNames = [
        "left-thumb", "left-index-finger", "left-middle-finger", "left-ring-finger", "left-little-finger",
        "right-thumb", "right-index-finger", "right-middle-finger", "right-ring-finger", "right-little-finger",
    ]
}
