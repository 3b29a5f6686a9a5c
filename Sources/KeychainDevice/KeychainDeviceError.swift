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

/// An error from `Device`, `SimulatedSensor` or `TemporaryKeychain`, with a code to match on.
///
/// ```swift
/// do {
///     try device.unlock(passcode: entered)
/// } catch let error as KeychainDeviceError where error.code == .wrongPasscode {
///     print("wrong passcode; next attempt at \(error.nextAttempt.map(String.init(describing:)) ?? "once")")
/// }
/// ```
public struct KeychainDeviceError: Error, Sendable, Hashable {
    /// What went wrong.
    public enum Code: Sendable, Hashable {
        /// The passcode (or current passcode) was wrong; the attempt was counted.
        case wrongPasscode
        /// Too many wrong passcodes: the next attempt must wait.
        case backoff
        /// The password or private key does not open a backup file (nothing was counted).
        case wrongPassword
        /// The keychain is locked, or was not unlocked since the process started, for this operation.
        case locked
        /// The device lacks what the operation needs: a passcode, a sensor, room for one more enrolment.
        case notAvailable
        /// The name (of an enrolment) is taken.
        case duplicate
        /// The thing named (an enrolment) does not exist.
        case notFound
        /// A parameter is out of range (a passcode too short or too long).
        case invalidParameter
        /// The keychain's files cannot be used: another user's, writable by others, or newer.
        case invalidKeychain
        /// Stored data is damaged or cannot be decrypted.
        case damaged
        /// The files could not be read or written.
        case io
        /// Anything else.
        case other
    }

    /// What went wrong.
    public var code: Code
    /// What happened and what to do, never a secret.
    public var message: String
    /// With ``Code/backoff`` (and after a wrong passcode that started a delay): when the next attempt is allowed.
    public var nextAttempt: Date?

    public init(_ code: Code, _ message: String, nextAttempt: Date? = nil) {
        self.code = code
        self.message = message
        self.nextAttempt = nextAttempt
    }

    /// The device error for an engine error.
    init(_ error: KeychainError, nextAttempt: Date? = nil) {
        let code: Code =
            switch error.code.kind {
            case .authenticationFailed: .wrongPasscode
            case .passcodeBackoff: .backoff
            case .interactionNotAllowed: .locked
            case .notAvailable, .missingEntitlement, .unimplemented, .quotaExceeded: .notAvailable
            case .duplicateItem: .duplicate
            case .itemNotFound: .notFound
            case .invalidParameter, .noSuchAttribute, .noSuchClass, .dataTooLarge: .invalidParameter
            case .invalidKeychain: .invalidKeychain
            case .decode, .constraintDamaged, .itemInvalidated: .damaged
            case .io, .staleSnapshot: .io
            case .userCanceled, .internalInconsistency, .authenticationNeeded: .other
            }
        self.init(code, error.message, nextAttempt: nextAttempt)
    }

    /// Runs `body`, turning engine errors into device errors (`nextAttempt` is asked only for passcode failures).
    static func translating<T>(
        nextAttempt: () -> Date? = { nil },
        _ body: () throws -> T
    ) throws(KeychainDeviceError) -> T {
        do {
            return try body()
        } catch let error as KeychainDeviceError {
            throw error
        } catch let error as KeychainError {
            let passcodeFailure = error.code == .passcodeBackoff || error.code == .authenticationFailed
            throw KeychainDeviceError(error, nextAttempt: passcodeFailure ? nextAttempt() : nil)
        } catch {
            throw KeychainDeviceError(.other, String(describing: error))
        }
    }
}

extension KeychainDeviceError: CustomStringConvertible {
    public var description: String { "\(code): \(message)" }
}
