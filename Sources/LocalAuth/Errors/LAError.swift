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
public import Foundation

// LocalAuthentication's errors. Like Apple's bridged error structs, `LAError` wraps an `NSError`,
// so errors cross between the two representations without losing their domain, code or user info.

// MARK: - Domain

/// The error domain of authentication errors.
public let LAErrorDomain: String = "com.apple.LocalAuthentication"

// MARK: - LAError

/// An error from authentication policy evaluation.
public struct LAError: _BridgedStoredNSError, Sendable {
    /// The wrapped error.
    ///
    /// `NSError` is immutable, so sharing it across threads is safe.
    public let _nsError: NSError

    /// Wraps an existing error.
    ///
    /// Any error is accepted, whatever its domain.
    public init(_nsError: NSError) {
        self._nsError = _nsError
    }

    /// Creates an error with the given code and user info in ``LAErrorDomain``.
    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self._nsError = NSError(domain: LAErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The domain of authentication errors, ``LAErrorDomain``.
    public static var errorDomain: String { LAErrorDomain }

    public static var _nsErrorDomain: String { LAErrorDomain }

    /// The reasons an authentication can fail.
    public enum Code: Int, _ErrorCodeProtocol, Sendable {
        public typealias _ErrorType = LAError

        /// The user did not give valid credentials.
        case authenticationFailed = -1
        /// The user tapped the cancel button.
        case userCancel = -2
        /// The user tapped the fallback button (for example "Enter Password").
        case userFallback = -3
        /// The system stopped the authentication, for example because another app came to the foreground.
        case systemCancel = -4
        /// No passcode is set on the device.
        case passcodeNotSet = -5
        /// Biometry is not available on the device, or the app may not use it.
        case biometryNotAvailable = -6
        /// Biometry is available but no finger or face is enrolled.
        case biometryNotEnrolled = -7
        /// Biometry is locked after too many failed attempts; the passcode unlocks it.
        case biometryLockout = -8
        /// The app invalidated the context while authentication was in progress.
        case appCancel = -9
        /// The context was invalidated before it was used.
        case invalidContext = -10
        /// No paired companion device (such as an Apple Watch) is reachable.
        case companionNotAvailable = -11
        /// The device supports removable biometry, but no accessory is paired.
        case biometryNotPaired = -12
        /// The paired biometric accessory is not connected.
        case biometryDisconnected = -13
        /// A user interface dimension passed to the authentication was not valid.
        case invalidDimensions = -14
        /// Authentication needed to show interface, but interaction is not allowed.
        case notInteractive = -1004

        // MARK: Former names

        /// The former name of ``biometryNotAvailable``.
        @available(*, deprecated, renamed: "biometryNotAvailable")
        public static let touchIDNotAvailable = Code.biometryNotAvailable
        /// The former name of ``biometryNotEnrolled``.
        @available(*, deprecated, renamed: "biometryNotEnrolled")
        public static let touchIDNotEnrolled = Code.biometryNotEnrolled
        /// The former name of ``biometryLockout``.
        @available(*, deprecated, renamed: "biometryLockout")
        public static let touchIDLockout = Code.biometryLockout
        /// The former name of ``companionNotAvailable``.
        @available(*, deprecated, renamed: "companionNotAvailable")
        public static let watchNotAvailable = Code.companionNotAvailable

        /// Whether `error` is an ``LAError`` with this code, so that `catch LAError.userCancel` works.
        ///
        /// Darwin's Foundation provides this for every bridged error code; corelibs-foundation does not.
        public static func ~= (match: Code, error: any Error) -> Bool {
            (error as? LAError)?.code == match
        }
    }
}

// MARK: - Codes as members

extension LAError {
    /// The user did not give valid credentials.
    public static var authenticationFailed: Code { .authenticationFailed }
    /// The user tapped the cancel button.
    public static var userCancel: Code { .userCancel }
    /// The user tapped the fallback button.
    public static var userFallback: Code { .userFallback }
    /// The system stopped the authentication.
    public static var systemCancel: Code { .systemCancel }
    /// No passcode is set on the device.
    public static var passcodeNotSet: Code { .passcodeNotSet }
    /// Biometry is not available on the device.
    public static var biometryNotAvailable: Code { .biometryNotAvailable }
    /// Biometry is available but nothing is enrolled.
    public static var biometryNotEnrolled: Code { .biometryNotEnrolled }
    /// Biometry is locked after too many failed attempts.
    public static var biometryLockout: Code { .biometryLockout }
    /// The app invalidated the context during authentication.
    public static var appCancel: Code { .appCancel }
    /// The context was invalidated before it was used.
    public static var invalidContext: Code { .invalidContext }
    /// No paired companion device is reachable.
    public static var companionNotAvailable: Code { .companionNotAvailable }
    /// No biometric accessory is paired.
    public static var biometryNotPaired: Code { .biometryNotPaired }
    /// The paired biometric accessory is not connected.
    public static var biometryDisconnected: Code { .biometryDisconnected }
    /// A user interface dimension was not valid.
    public static var invalidDimensions: Code { .invalidDimensions }
    /// Authentication needed interface, but interaction is not allowed.
    public static var notInteractive: Code { .notInteractive }

    /// The former name of ``biometryNotAvailable``.
    @available(*, deprecated, renamed: "biometryNotAvailable")
    public static var touchIDNotAvailable: Code { .biometryNotAvailable }
    /// The former name of ``biometryNotEnrolled``.
    @available(*, deprecated, renamed: "biometryNotEnrolled")
    public static var touchIDNotEnrolled: Code { .biometryNotEnrolled }
    /// The former name of ``biometryLockout``.
    @available(*, deprecated, renamed: "biometryLockout")
    public static var touchIDLockout: Code { .biometryLockout }
    /// The former name of ``companionNotAvailable``.
    @available(*, deprecated, renamed: "companionNotAvailable")
    public static var watchNotAvailable: Code { .companionNotAvailable }
}

// MARK: - Hashable

// corelibs-foundation's default `hashValue` for bridged errors calls `NSError.hash`, which traps
// (unimplemented) on Linux. Equality and hashing are therefore spelled out here.
extension LAError {
    public static func == (lhs: LAError, rhs: LAError) -> Bool {
        lhs._nsError.isEqual(rhs._nsError)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(_nsError.domain)
        hasher.combine(_nsError.code)
    }

    // Shadows the protocol extension's trapping `hashValue`.
    public var hashValue: Int {
        var hasher = Hasher()
        hash(into: &hasher)
        return hasher.finalize()
    }
}

// MARK: - Bridging

// On Linux, `someNSError as? LAError` and `catch let error as LAError` only succeed when LAError
// bridges from NSError; the runtime then asks this conformance. Only errors in LAErrorDomain
// bridge conditionally, as on Darwin.
extension LAError: _ObjectiveCBridgeable {
    public func _bridgeToObjectiveC() -> NSError {
        _nsError
    }

    public static func _forceBridgeFromObjectiveC(_ source: NSError, result: inout LAError?) {
        result = LAError(_nsError: source)
    }

    public static func _conditionallyBridgeFromObjectiveC(_ source: NSError, result: inout LAError?) -> Bool {
        // A code outside `Code` (the private parameter error) would trap in `code`: it stays an NSError.
        guard source.domain == LAErrorDomain, Code(rawValue: source.code) != nil else {
            result = nil
            return false
        }
        result = LAError(_nsError: source)
        return true
    }

    public static func _unconditionallyBridgeFromObjectiveC(_ source: NSError?) -> LAError {
        LAError(_nsError: source ?? NSError(domain: LAErrorDomain, code: 0))
    }
}

#endif
