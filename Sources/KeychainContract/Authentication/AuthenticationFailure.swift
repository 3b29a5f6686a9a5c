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

package import KeychainCore

/// Why an evaluation failed; the codes are `LAError.Code`'s raw values.
///
/// `LocalAuth` turns it into an `LAError`; the `SecItem*` functions into an `OSStatus` with
/// Apple's mapping (cancel → `errSecUserCanceled`, not interactive → `errSecInteractionNotAllowed`,
/// everything else → `errSecAuthFailed`).
package struct AuthenticationFailure: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    package enum Code: Int, Sendable, Hashable, Codable {
        case authenticationFailed = -1
        case userCancel = -2
        case userFallback = -3
        case systemCancel = -4
        case passcodeNotSet = -5
        case biometryNotAvailable = -6
        case biometryNotEnrolled = -7
        case biometryLockout = -8
        case appCancel = -9
        case invalidContext = -10
        case companionNotAvailable = -11
        /// `LAErrorParameter`: a malformed request (an empty reason).
        case invalidParameter = -1001
        case notInteractive = -1004
    }

    package var code: Code
    /// What happened, without secrets.
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "\(code): \(message)" }

    /// The engine error that `SecItem*` reports for this failure (Apple's
    /// `osstatus_for_localauthentication_error`).
    package var keychainError: KeychainError {
        switch code {
        case .userCancel: KeychainError(.userCanceled, message)
        case .notInteractive: KeychainError(.interactionNotAllowed, message)
        case .invalidParameter: KeychainError(.invalidParameter, message)
        default: KeychainError(.authenticationFailed, message)
        }
    }
}

/// A `LocalAuthentication` policy (`LAPolicy`'s raw values).
package enum AuthenticationPolicy: Int, Sendable, Hashable, Codable {
    case biometrics = 1
    case deviceOwner = 2
    case companion = 3
    case biometricsOrCompanion = 4
    case wristDetection = 5
}
