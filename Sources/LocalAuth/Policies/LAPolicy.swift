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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import LocalAuthentication
#else
// Pure Swift: no Foundation import needed.

/// The set of requirements an authentication must meet.
///
/// Raw values match Apple's LocalAuthentication framework.
public enum LAPolicy: Int, Sendable {
    /// Biometry only.
    ///
    /// Fails with ``LAError/Code/biometryNotAvailable``, ``LAError/Code/biometryNotEnrolled`` or
    /// ``LAError/Code/biometryLockout`` when biometry cannot be used; the passcode is never offered.
    /// The fallback button ends the evaluation with ``LAError/Code/userFallback``, leaving the
    /// alternative to the app.
    case deviceOwnerAuthenticationWithBiometrics = 1

    /// Biometry, a companion device, or the device passcode.
    ///
    /// The user can always fall back to the passcode, so this policy succeeds as long as a passcode
    /// is set; otherwise it fails with ``LAError/Code/passcodeNotSet``. Biometry lockout is
    /// resolved by entering the passcode.
    case deviceOwnerAuthentication = 2

    /// A paired companion device only, such as an Apple Watch.
    ///
    /// Fails with ``LAError/Code/companionNotAvailable`` when no companion is paired or reachable.
    case deviceOwnerAuthenticationWithCompanion = 3

    /// Biometry or a paired companion device, but not the passcode.
    ///
    /// Both run side by side until one succeeds or the user cancels. Without a reachable companion
    /// the policy behaves like ``deviceOwnerAuthenticationWithBiometrics``.
    case deviceOwnerAuthenticationWithBiometricsOrCompanion = 4

    /// Wrist detection on Apple Watch.
    ///
    /// Succeeds while the watch has stayed on the wrist since its passcode was entered; fails if
    /// no passcode is set or entered, or if the watch has been taken off since.
    case deviceOwnerAuthenticationWithWristDetection = 5

    // MARK: Former names

    /// The former name of ``deviceOwnerAuthenticationWithCompanion``.
    @available(*, deprecated, renamed: "deviceOwnerAuthenticationWithCompanion")
    public static let deviceOwnerAuthenticationWithWatch = LAPolicy.deviceOwnerAuthenticationWithCompanion

    /// The former name of ``deviceOwnerAuthenticationWithBiometricsOrCompanion``.
    @available(*, deprecated, renamed: "deviceOwnerAuthenticationWithBiometricsOrCompanion")
    public static let deviceOwnerAuthenticationWithBiometricsOrWatch =
        LAPolicy.deviceOwnerAuthenticationWithBiometricsOrCompanion
}

#endif
