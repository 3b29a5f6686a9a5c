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

/// The authentication gate (Apple's coreauthd and ACM): the table of authentication contexts, the
/// evaluations that earn their credentials, and what a success releases from the keybag.
///
/// Callers name a context by its ``ContextReference``; what it earned (released constraint keys, the
/// application password) stays here, and the item operations look it up by the reference the query
/// carries. An evaluation asks the device's sensor and passcode prompt; success releases constraint keys
/// from the keybag, which the context keeps until it is released or invalidated.
package final class AuthenticationGate: Sendable {
    // MARK: Properties

    /// The keybag, whose constraint keys a successful evaluation releases.
    let keybagService: KeybagService
    /// The wrong-passcode and failed-match counts (Apple keeps them in the ACM).
    let attempts: AttemptCounters
    let sensor: any BiometricSensor
    let prompt: PasscodePrompt

    /// One context: what it has earned and its evaluations in flight.
    private struct Context {
        var credentials = AuthenticationCredentials()
        var isInvalidated = false
        var evaluationsInFlight = 0
        var cancelledInFlight = false
        /// Its biometric matches waiting for a finger.
        var matches: [MatchCancellation] = []
    }

    private let contexts = LockedState<[ContextReference: Context]>([:])

    /// The most contexts one engine keeps; a process that never releases its contexts is refused more.
    package static let contextLimit = 100_000

    // MARK: Initialization

    package init(keybagService: KeybagService, sensor: any BiometricSensor, prompt: PasscodePrompt) {
        self.keybagService = keybagService
        attempts = keybagService.attempts
        self.sensor = sensor
        self.prompt = prompt
    }

    // MARK: Contexts

    /// A new, empty context.
    package func makeContext() throws(KeychainError) -> ContextReference {
        let reference = ContextReference()
        let admitted = contexts.withLock { table -> Bool in
            guard table.count < Self.contextLimit else { return false }
            table[reference] = Context()
            return true
        }
        guard admitted else {
            throw KeychainError(.dataTooLarge, "too many authentication contexts are open; release some")
        }
        return reference
    }

    /// Forgets a context.
    package func releaseContext(_ reference: ContextReference) {
        let matches = contexts.withLock { $0.removeValue(forKey: reference)?.matches ?? [] }
        // Released while the sensor waits for a finger (its process went away, or dropped the
        // context): nobody is left to want that match. Other contexts' matches go on.
        for match in matches { match.cancel() }
    }

    /// What the context has earned; nothing for an unknown, released or invalidated context.
    package func credentials(of reference: ContextReference?) -> AuthenticationCredentials {
        guard let reference else { return AuthenticationCredentials() }
        return contexts.withLock { $0[reference]?.credentials } ?? AuthenticationCredentials()
    }

    /// Sets (or with `nil` removes) the application password.
    package func setApplicationPassword(
        _ password: Data?,
        for reference: ContextReference
    ) throws(AuthenticationFailure) {
        try withContext(reference) { context in
            context.credentials.applicationPassword = password.map { ApplicationPassword($0) }
        }
    }

    /// Ends the context: an evaluation in flight fails with `appCancel`, later use with `invalidContext`.
    package func invalidate(_ reference: ContextReference) {
        let matches = contexts.withLock { table -> [MatchCancellation] in
            guard var context = table[reference] else { return [] }
            context.isInvalidated = true
            context.credentials = AuthenticationCredentials()
            if context.evaluationsInFlight > 0 { context.cancelledInFlight = true }
            table[reference] = context
            return context.matches
        }
        for match in matches { match.cancel() }
    }

    // MARK: Preflight

    /// Whether `policy` can be evaluated now; the failure `canEvaluatePolicy` reports otherwise.
    package func failure(
        preventing policy: AuthenticationPolicy,
        for reference: ContextReference
    ) -> AuthenticationFailure? {
        do {
            try withContext(reference) { _ in }
        } catch {
            return error
        }
        do {
            switch policy {
            case .biometrics, .biometricsOrCompanion:
                if case .failure(let failure) = try usableBiometry() { return failure }
                return nil
            case .deviceOwner:
                return try keybagService.hasPasscode()
                    ? nil : AuthenticationFailure(.passcodeNotSet, "no passcode is set")
            case .companion, .wristDetection:
                return AuthenticationFailure(.companionNotAvailable, "no companion device is paired")
            }
        } catch {
            return AuthenticationFailure(.biometryNotAvailable, "cannot read the device state: \(error)")
        }
    }

    /// The sensor's kind when biometry can be used now, else why not.
    func usableBiometry() throws -> Result<BiometryKind, AuthenticationFailure> {
        guard let kind = try sensor.kind() else {
            return .failure(AuthenticationFailure(.biometryNotAvailable, "this device has no biometric sensor"))
        }
        guard try keybagService.hasPasscode() else {
            return .failure(AuthenticationFailure(.passcodeNotSet, "biometry needs a passcode"))
        }
        guard try sensor.enrolmentIdentity() != nil else {
            return .failure(AuthenticationFailure(.biometryNotEnrolled, "no \(kind.displayName) is enrolled"))
        }
        guard try !attempts.isBiometryLockedOut() else {
            return .failure(
                AuthenticationFailure(
                    .biometryLockout,
                    "\(kind.displayName) is locked after too many failed attempts; enter the passcode"
                )
            )
        }
        return .success(kind)
    }

    // MARK: Evaluating

    /// Evaluates a policy (`LAContext.evaluatePolicy`), asking through `prompt` (the gate's own
    /// when `nil`: the daemon passes one that reaches the requesting client).
    ///
    /// - Throws: The failure, with `LAError`'s code.
    package func evaluate(
        _ policy: AuthenticationPolicy,
        for reference: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt chosen: PasscodePrompt? = nil
    ) throws(AuthenticationFailure) {
        let prompt = chosen ?? self.prompt
        try running(reference) { () throws(AuthenticationFailure) in
            if let failure = failure(preventing: policy, for: reference) { throw failure }
            switch policy {
            case .biometrics, .biometricsOrCompanion:
                try matchBiometry(reference, reason: reason, interactionAllowed: interactionAllowed, prompt: prompt)
            case .deviceOwner:
                try biometryThenPasscode(
                    reference,
                    reason: reason,
                    interactionAllowed: interactionAllowed,
                    prompt: prompt
                )
            case .companion, .wristDetection:
                throw AuthenticationFailure(.companionNotAvailable, "no companion device is paired")
            }
        }
    }

    /// Evaluates an access control for an operation (`LAContext.evaluateAccessControl`, and
    /// Apple's loop in `SecItem*`), earning what the engine needs to retry.
    ///
    /// - Parameters:
    ///   - accessControl: The access control to satisfy.
    ///   - operation: The operation it is evaluated for; creating an item or a key asks for the
    ///     application password only.
    ///   - missing: What the engine reported missing, per alternative that can still be
    ///     satisfied; `nil` evaluates the whole policy.
    ///   - reference: The context that earns, and keeps, what the evaluation releases.
    ///   - reason: Why the user is asked, shown with the prompt.
    ///   - interactionAllowed: Whether the user may be asked; when `false`, an evaluation that needs
    ///     the user fails with `notInteractive`.
    ///   - chosen: The prompt that asks for the passcode and answers the sensor's questions; `nil`
    ///     for the gate's own.
    /// - Throws: ``AuthenticationFailure`` when the context is invalidated (`invalidContext`, or
    ///   `appCancel` during the evaluation) or the evaluation fails.
    package func evaluate(
        _ accessControl: AccessControl,
        operation: AccessOperation,
        missing: [Set<AccessPolicy.Constraint>]? = nil,
        for reference: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt chosen: PasscodePrompt? = nil
    ) throws(AuthenticationFailure) {
        let prompt = chosen ?? self.prompt
        try running(reference) { () throws(AuthenticationFailure) in
            let policy = AccessPolicy(accessControl)
            if policy.requiresApplicationPassword {
                try obtainApplicationPassword(
                    reference,
                    reason: reason,
                    interactionAllowed: interactionAllowed,
                    prompt: prompt
                )
            }
            guard operation != .createItem && operation != .createKey else { return }
            let alternatives = missing ?? policy.alternatives.map(Set.init)
            guard !alternatives.isEmpty, !alternatives.contains(where: \.isEmpty) else { return }
            let biometric: Set<AccessPolicy.Constraint> = [.biometryAny, .biometryCurrentSet]
            if alternatives.count > 1 {
                // `or` (and userPresence): biometry when it can be used, the passcode otherwise or on fallback.
                let offersBiometry = alternatives.contains { $0.isSubset(of: biometric) }
                let offersPasscode = alternatives.contains([.passcode])
                if offersBiometry && offersPasscode {
                    try biometryThenPasscode(
                        reference,
                        reason: reason,
                        interactionAllowed: interactionAllowed,
                        prompt: prompt
                    )
                } else if offersBiometry {
                    try matchBiometry(reference, reason: reason, interactionAllowed: interactionAllowed, prompt: prompt)
                } else if offersPasscode {
                    try enterPasscode(reference, reason: reason, interactionAllowed: interactionAllowed, prompt: prompt)
                } else {
                    throw AuthenticationFailure(.companionNotAvailable, "no companion device is paired")
                }
                return
            }
            // `and` (or a single constraint): every constraint of the one alternative, biometry first.
            let needed = alternatives[0]
            if needed.contains(.companion) {
                throw AuthenticationFailure(.companionNotAvailable, "no companion device is paired")
            }
            if !needed.isDisjoint(with: biometric) {
                try matchBiometry(reference, reason: reason, interactionAllowed: interactionAllowed, prompt: prompt)
            }
            if needed.contains(.passcode) {
                try enterPasscode(reference, reason: reason, interactionAllowed: interactionAllowed, prompt: prompt)
            }
        }
    }

    // MARK: Steps

    /// Biometry if it can be used, else (or on fallback, or at lockout) the passcode.
    private func biometryThenPasscode(
        _ reference: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt
    ) throws(AuthenticationFailure) {
        if case .success = try? usableBiometry() {
            do {
                try matchBiometry(reference, reason: reason, interactionAllowed: interactionAllowed, prompt: prompt)
                return
            } catch  where error.code == .userFallback || error.code == .biometryLockout {
                // The dialog switches to "Enter Passcode".
            }
        }
        try enterPasscode(reference, reason: reason, interactionAllowed: interactionAllowed, prompt: prompt)
    }

    /// One biometric match through the sensor; a match releases the biometric constraint keys.
    private func matchBiometry(
        _ reference: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt
    ) throws(AuthenticationFailure) {
        let kind = try gated { () throws -> BiometryKind in
            let kind = try usableBiometry().get()
            // A set changed behind our back (another process, a crash between two writes): replace its constraint key now.
            let identity = try sensor.enrolmentIdentity()
            if try keybagService.constraintKeyRecords()[.biometryCurrentSet]?.domainHash != identity {
                try keybagService.replaceBiometricSetConstraint(domainHash: identity)
            }
            return kind
        }
        guard interactionAllowed else {
            throw AuthenticationFailure(
                .notInteractive,
                "\(kind.displayName) needs the user, and interaction is not allowed"
            )
        }
        // A real reader shows nothing itself: the person is told where the request comes from and why.
        if sensor.announcesScans { prompt.notice("touch the fingerprint reader (\(reason))") }
        let cancellation = MatchCancellation()
        try withContext(reference) { $0.matches.append(cancellation) }
        defer { contexts.withLock { $0[reference]?.matches.removeAll { $0 === cancellation } } }
        let outcome: BiometricMatch
        do {
            outcome = try sensor.match(reason: reason, kind: kind, cancellation: cancellation, prompt: prompt)
        } catch {
            throw Self.failure(error)
        }
        try checkCancelled(reference)
        switch outcome {
        case .unavailable:
            throw AuthenticationFailure(
                .notInteractive,
                sensor.whenUnavailable.map { "nobody can be asked for \(kind.displayName): \($0)" }
                    ?? "nobody can be asked for \(kind.displayName)"
            )
        case .cancelled:
            throw AuthenticationFailure(.userCancel, "the user cancelled \(kind.displayName)")
        case .fallback:
            throw AuthenticationFailure(.userFallback, "the user chose to enter a password")
        case .nonMatch:
            let failures = (try? attempts.recordBiometricFailure()) ?? 0
            if failures >= AttemptCounters.biometricFailureLimit {
                throw AuthenticationFailure(.biometryLockout, "\(kind.displayName) is now locked; enter the passcode")
            }
            throw AuthenticationFailure(.authenticationFailed, "\(kind.displayName) did not match")
        case .match:
            try gated {
                try attempts.resetBiometricFailures()
                try earn(try keybagService.releaseBiometricConstraints(), for: reference)
            }
        }
    }

    /// The device passcode through the configured prompt; a correct one releases the passcode constraint key.
    private func enterPasscode(
        _ reference: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt
    ) throws(AuthenticationFailure) {
        guard try gated({ try keybagService.hasPasscode() }) else {
            throw AuthenticationFailure(.passcodeNotSet, "no passcode is set")
        }
        guard interactionAllowed else {
            throw AuthenticationFailure(.notInteractive, "the passcode is needed, and interaction is not allowed")
        }
        let reply = prompt.ask(.devicePasscode, reason: reason)
        try checkCancelled(reference)
        switch reply {
        case .unavailable:
            throw AuthenticationFailure(.notInteractive, "nobody can be asked for the passcode")
        case .cancelled:
            throw AuthenticationFailure(.userCancel, "the user cancelled the passcode")
        case .entered(let passcode):
            try gated { try earn(try keybagService.authenticate(passcode: passcode), for: reference) }
        }
    }

    /// Makes sure the context holds the application password, asking for it if none is set.
    ///
    /// Each item derives its own key from it when it is opened or sealed.
    private func obtainApplicationPassword(
        _ reference: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt
    ) throws(AuthenticationFailure) {
        if credentials(of: reference).applicationPassword != nil { return }
        guard interactionAllowed else {
            throw AuthenticationFailure(
                .notInteractive,
                "the application password is needed, and interaction is not allowed"
            )
        }
        switch prompt.ask(.applicationPassword, reason: reason) {
        case .unavailable:
            throw AuthenticationFailure(.notInteractive, "nobody can be asked for the application password")
        case .cancelled:
            throw AuthenticationFailure(.userCancel, "the user cancelled the application password")
        case .entered(let entered):
            var earned = AuthenticationCredentials()
            earned.applicationPassword = ApplicationPassword(Array(entered.utf8))
            try earn(earned, for: reference)
        }
    }

    // MARK: Bookkeeping

    /// Runs `body` on a live context.
    private func withContext<T>(
        _ reference: ContextReference,
        _ body: (inout Context) -> T
    ) throws(AuthenticationFailure) -> T {
        let result = contexts.withLock { table -> T? in
            guard var context = table[reference], !context.isInvalidated else { return nil }
            defer { table[reference] = context }
            return body(&context)
        }
        guard let result else { throw AuthenticationFailure(.invalidContext, "the context was invalidated") }
        return result
    }

    /// Adds what an evaluation earned to the context, unless it was invalidated meanwhile.
    private func earn(
        _ earned: AuthenticationCredentials,
        for reference: ContextReference
    ) throws(AuthenticationFailure) {
        try withContext(reference) { $0.credentials.merge(earned) }
    }

    /// Runs one evaluation, failing with `invalidContext` after `invalidate()` and `appCancel` when
    /// it is invalidated meanwhile.
    private func running(
        _ reference: ContextReference,
        _ body: () throws(AuthenticationFailure) -> Void
    ) throws(AuthenticationFailure) {
        try withContext(reference) { $0.evaluationsInFlight += 1 }
        defer {
            contexts.withLock { table in
                guard var context = table[reference] else { return }
                context.evaluationsInFlight -= 1
                if context.evaluationsInFlight == 0 { context.cancelledInFlight = false }
                table[reference] = context
            }
        }
        try body()
        try checkCancelled(reference)
    }

    private func checkCancelled(_ reference: ContextReference) throws(AuthenticationFailure) {
        if contexts.withLock({ $0[reference]?.cancelledInFlight ?? true }) {
            throw AuthenticationFailure(.appCancel, "the context was invalidated during the evaluation")
        }
    }

    /// Runs engine work inside an evaluation: its errors become the evaluation's failure.
    private func gated<T>(_ body: () throws -> T) throws(AuthenticationFailure) -> T {
        do {
            return try body()
        } catch let failure as AuthenticationFailure {
            throw failure
        } catch {
            throw Self.failure(error)
        }
    }

    private static func failure(_ error: any Error) -> AuthenticationFailure {
        guard let error = error as? KeychainError else {
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
