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
package import KeychainCore
import Synchronization

/// One authentication context: what it has earned, and the evaluations that earn it.
///
/// This is the engine behind `LAContext` and behind the context `SecItem*` creates when a query
/// brings none. An evaluation asks the device's sensor and passcode prompt; success releases lock
/// keys from the keybag (the authentication gate), which the context keeps for later keychain
/// calls until it is invalidated.
package final class AuthenticationSession: Sendable {
    // MARK: Properties

    package let device: Device

    private struct State {
        var credentials = AuthenticationCredentials()
        var applicationPassword: Data?
        var isInvalidated = false
        var evaluationsInFlight = 0
        var cancelledInFlight = false
    }

    private let state = Mutex(State())

    // MARK: Initialization

    package init(device: Device) {
        self.device = device
    }

    // MARK: Credentials

    /// What this context has earned so far.
    package var credentials: AuthenticationCredentials {
        state.withLock { $0.credentials }
    }

    /// Sets (or with `nil` removes) the application password.
    package func setApplicationPassword(_ password: Data?) {
        state.withLock { state in
            state.applicationPassword = password
            state.credentials.applicationPassword = password.map { ApplicationPassword($0) }
        }
    }

    /// Whether an application password is set.
    package var hasApplicationPassword: Bool {
        state.withLock { $0.applicationPassword != nil }
    }

    /// Ends the context: an evaluation in flight fails with `appCancel`, later use with `invalidContext`.
    package func invalidate() {
        state.withLock { state in
            state.isInvalidated = true
            state.credentials = AuthenticationCredentials()
            state.applicationPassword = nil
            if state.evaluationsInFlight > 0 { state.cancelledInFlight = true }
        }
    }

    package var isInvalidated: Bool {
        state.withLock { $0.isInvalidated }
    }

    // MARK: Preflight

    /// Whether `policy` can be evaluated now; the failure `canEvaluatePolicy` reports otherwise.
    package func failure(preventing policy: AuthenticationPolicy) -> AuthenticationFailure? {
        if isInvalidated { return AuthenticationFailure(.invalidContext, "the context was invalidated") }
        do {
            switch policy {
            case .biometrics, .biometricsOrCompanion:
                if case .failure(let failure) = try usableBiometry() { return failure }
                return nil
            case .deviceOwner:
                return try device.hasPasscode() ? nil : AuthenticationFailure(.passcodeNotSet, "no passcode is set")
            case .companion, .wristDetection:
                return AuthenticationFailure(.companionNotAvailable, "no companion device is paired")
            }
        } catch {
            return AuthenticationFailure(.biometryNotAvailable, "cannot read the device state: \(error)")
        }
    }

    /// The sensor's kind when biometry can be used now, else why not.
    func usableBiometry() throws -> Result<BiometryKind, AuthenticationFailure> {
        guard let kind = try device.simulatedSensor.kind() else {
            return .failure(AuthenticationFailure(.biometryNotAvailable, "this device has no biometric sensor"))
        }
        guard try device.hasPasscode() else {
            return .failure(AuthenticationFailure(.passcodeNotSet, "biometry needs a passcode"))
        }
        guard try !device.simulatedSensor.enrolled().isEmpty else {
            return .failure(AuthenticationFailure(.biometryNotEnrolled, "no \(kind.displayName) is enrolled"))
        }
        guard try !device.keychain.isBiometryLockedOut() else {
            return .failure(
                AuthenticationFailure(.biometryLockout, "\(kind.displayName) is locked after too many failed attempts; enter the passcode")
            )
        }
        return .success(kind)
    }

    // MARK: Evaluating

    /// Evaluates a policy (`LAContext.evaluatePolicy`).
    ///
    /// - Throws: The failure, with `LAError`'s code.
    package func evaluate(
        _ policy: AuthenticationPolicy,
        reason: String,
        interactionAllowed: Bool
    ) throws(AuthenticationFailure) {
        try running { () throws(AuthenticationFailure) in
            if let failure = failure(preventing: policy) { throw failure }
            switch policy {
            case .biometrics, .biometricsOrCompanion:
                try matchBiometry(reason: reason, interactionAllowed: interactionAllowed)
            case .deviceOwner:
                try biometryThenPasscode(reason: reason, interactionAllowed: interactionAllowed)
            case .companion, .wristDetection:
                throw AuthenticationFailure(.companionNotAvailable, "no companion device is paired")
            }
        }
    }

    /// Evaluates an access control for an operation (`LAContext.evaluateAccessControl`, and
    /// Apple's loop in `SecItem*`), earning what the engine needs to retry.
    ///
    /// - Parameter missing: What the engine reported missing, per alternative that can still be
    ///   satisfied; `nil` evaluates the whole policy.
    package func evaluate(
        _ accessControl: AccessControl,
        operation: AccessOperation,
        missing: [Set<AccessPolicy.Lock>]? = nil,
        reason: String,
        interactionAllowed: Bool
    ) throws(AuthenticationFailure) {
        try running { () throws(AuthenticationFailure) in
            let policy = AccessPolicy(accessControl)
            if policy.requiresApplicationPassword {
                try obtainApplicationPassword(reason: reason, interactionAllowed: interactionAllowed)
            }
            guard operation != .createItem && operation != .createKey else { return }
            let alternatives = missing ?? policy.alternatives.map(Set.init)
            guard !alternatives.isEmpty, !alternatives.contains(where: \.isEmpty) else { return }
            let biometric: Set<AccessPolicy.Lock> = [.biometryAny, .biometryCurrentSet]
            if alternatives.count > 1 {
                // `or` (and userPresence): biometry when it can be used, the passcode otherwise or on fallback.
                let offersBiometry = alternatives.contains { $0.isSubset(of: biometric) }
                let offersPasscode = alternatives.contains([.passcode])
                if offersBiometry && offersPasscode {
                    try biometryThenPasscode(reason: reason, interactionAllowed: interactionAllowed)
                } else if offersBiometry {
                    try matchBiometry(reason: reason, interactionAllowed: interactionAllowed)
                } else if offersPasscode {
                    try enterPasscode(reason: reason, interactionAllowed: interactionAllowed)
                } else {
                    throw AuthenticationFailure(.companionNotAvailable, "no companion device is paired")
                }
                return
            }
            // `and` (or a single constraint): every lock of the one alternative, biometry first.
            let needed = alternatives[0]
            if needed.contains(.companion) {
                throw AuthenticationFailure(.companionNotAvailable, "no companion device is paired")
            }
            if !needed.isDisjoint(with: biometric) {
                try matchBiometry(reason: reason, interactionAllowed: interactionAllowed)
            }
            if needed.contains(.passcode) {
                try enterPasscode(reason: reason, interactionAllowed: interactionAllowed)
            }
        }
    }

    // MARK: Steps

    /// Biometry if it can be used, else (or on fallback, or at lockout) the passcode.
    private func biometryThenPasscode(reason: String, interactionAllowed: Bool) throws(AuthenticationFailure) {
        if case .success = try? usableBiometry() {
            do {
                try matchBiometry(reason: reason, interactionAllowed: interactionAllowed)
                return
            } catch where error.code == .userFallback || error.code == .biometryLockout {
                // The dialog switches to "Enter Passcode".
            }
        }
        try enterPasscode(reason: reason, interactionAllowed: interactionAllowed)
    }

    /// One biometric match through the sensor; a match releases the biometric locks.
    private func matchBiometry(reason: String, interactionAllowed: Bool) throws(AuthenticationFailure) {
        let sensor = device.simulatedSensor
        let kind: BiometryKind
        do {
            kind = try usableBiometry().get()
            // A set changed behind our back (another process, a crash between two writes): replace its lock now.
            let domainHash = try sensor.domainHash()
            if try device.keychain.lockRecords()[.biometryCurrentSet]?.domainHash != domainHash {
                try device.keychain.replaceBiometricSetLock(domainHash: domainHash)
            }
        } catch let failure as AuthenticationFailure {
            throw failure
        } catch {
            throw Self.failure(error)
        }
        guard interactionAllowed else {
            throw AuthenticationFailure(.notInteractive, "\(kind.displayName) needs the user, and interaction is not allowed")
        }
        let outcome: SimulatedOutcome?
        do {
            outcome = try sensor.nextOutcome(reason: reason, kind: kind, prompt: device.configuration.passcodePrompt)
        } catch {
            throw Self.failure(error)
        }
        try checkCancelled()
        switch outcome {
        case nil:
            throw AuthenticationFailure(.notInteractive, "nobody can be asked for \(kind.displayName)")
        case .cancel:
            throw AuthenticationFailure(.userCancel, "the user cancelled \(kind.displayName)")
        case .fallback:
            throw AuthenticationFailure(.userFallback, "the user chose to enter a password")
        case .nonMatch:
            let failures = (try? device.keychain.recordBiometricFailure()) ?? 0
            if failures >= Keychain.biometricFailureLimit {
                throw AuthenticationFailure(.biometryLockout, "\(kind.displayName) is now locked; enter the passcode")
            }
            throw AuthenticationFailure(.authenticationFailed, "\(kind.displayName) did not match")
        case .match:
            do {
                try device.keychain.resetBiometricFailures()
                let released = try device.keychain.releaseBiometricLocks()
                state.withLock { $0.credentials.merge(released) }
            } catch {
                throw Self.failure(error)
            }
        }
    }

    /// The device passcode through the configured prompt; a correct one releases the passcode lock.
    private func enterPasscode(reason: String, interactionAllowed: Bool) throws(AuthenticationFailure) {
        do {
            guard try device.hasPasscode() else {
                throw AuthenticationFailure(.passcodeNotSet, "no passcode is set")
            }
        } catch let failure as AuthenticationFailure {
            throw failure
        } catch {
            throw Self.failure(error)
        }
        guard interactionAllowed else {
            throw AuthenticationFailure(.notInteractive, "the passcode is needed, and interaction is not allowed")
        }
        let reply = device.configuration.passcodePrompt.ask(.devicePasscode, reason: reason)
        try checkCancelled()
        switch reply {
        case .unavailable:
            throw AuthenticationFailure(.notInteractive, "nobody can be asked for the passcode")
        case .cancelled:
            throw AuthenticationFailure(.userCancel, "the user cancelled the passcode")
        case .entered(let passcode):
            do {
                let released = try device.keychain.authenticate(passcode: passcode)
                state.withLock { $0.credentials.merge(released) }
            } catch {
                throw Self.failure(error)
            }
        }
    }

    /// Makes sure the context holds the application password, asking for it if none is set. Each
    /// item derives its own key from it when it is opened or sealed.
    private func obtainApplicationPassword(reason: String, interactionAllowed: Bool) throws(AuthenticationFailure) {
        if state.withLock({ $0.credentials.applicationPassword != nil }) { return }
        guard interactionAllowed else {
            throw AuthenticationFailure(.notInteractive, "the application password is needed, and interaction is not allowed")
        }
        switch device.configuration.passcodePrompt.ask(.applicationPassword, reason: reason) {
        case .unavailable:
            throw AuthenticationFailure(.notInteractive, "nobody can be asked for the application password")
        case .cancelled:
            throw AuthenticationFailure(.userCancel, "the user cancelled the application password")
        case .entered(let entered):
            let credential = Data(entered.utf8)
            state.withLock { state in
                state.applicationPassword = credential
                state.credentials.applicationPassword = ApplicationPassword(credential)
            }
        }
    }

    // MARK: Bookkeeping

    /// Runs one evaluation, failing with `invalidContext` after `invalidate()` and `appCancel` when
    /// it is invalidated meanwhile.
    private func running(_ body: () throws(AuthenticationFailure) -> Void) throws(AuthenticationFailure) {
        let invalidated = state.withLock { state -> Bool in
            if state.isInvalidated { return true }
            state.evaluationsInFlight += 1
            return false
        }
        if invalidated { throw AuthenticationFailure(.invalidContext, "the context was invalidated") }
        defer {
            state.withLock { state in
                state.evaluationsInFlight -= 1
                if state.evaluationsInFlight == 0 { state.cancelledInFlight = false }
            }
        }
        try body()
        try checkCancelled()
    }

    private func checkCancelled() throws(AuthenticationFailure) {
        if state.withLock({ $0.cancelledInFlight }) {
            throw AuthenticationFailure(.appCancel, "the context was invalidated during the evaluation")
        }
    }

    private static func failure(_ error: any Error) -> AuthenticationFailure {
        guard let error = error as? KeychainCoreError else {
            return AuthenticationFailure(.authenticationFailed, "\(error)")
        }
        switch error.code {
        case .interactionNotAllowed: return AuthenticationFailure(.notInteractive, error.message)
        case .userCanceled: return AuthenticationFailure(.userCancel, error.message)
        case .notAvailable: return AuthenticationFailure(.passcodeNotSet, error.message)
        default: return AuthenticationFailure(.authenticationFailed, error.message)
        }
    }
}
