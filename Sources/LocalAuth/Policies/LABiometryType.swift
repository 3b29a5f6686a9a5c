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

/// The kind of biometric authentication a device supports.
///
/// Raw values match Apple's LocalAuthentication framework.
public enum LABiometryType: Int, Sendable {
    /// The device has no biometry, or none the app may use.
    case none = 0
    /// Fingerprint recognition.
    case touchID = 1
    /// Face recognition.
    case faceID = 2
    /// Iris recognition.
    case opticID = 4

    /// The former name of ``none``.
    @available(*, deprecated, renamed: "none")
    public static var LABiometryNone: LABiometryType { .none }
}

#endif
