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

/// Everything the mirrors, the device settings, the test kit and the `security` tool ask of a
/// keychain: the seam where the process boundary goes.
///
/// Apple's clients hold no keys: `SecItem*` and `LAContext` send requests to securityd and
/// coreauthd, which keep the class keys, the released credentials and the attempt counters. The
/// same split here: callers hold an engine and ``ContextReference``s, never key material. An engine
/// is ``EmbeddedEngine`` (in this process), ``WireEngine`` (the same, with every request and
/// reply encoded to bytes and back, as the daemon's socket will carry them), and later the daemon's
/// client.
///
/// Every call is synchronous, as Apple's `SecItem*` are, and may block while a person answers a
/// prompt or a sensor.
package protocol Engine: AnyObject, Sendable {
    // MARK: Items (Apple's SecItemServer)

    /// `SecItemAdd`. Throws ``KeychainError/Code/authenticationNeeded`` when the query's
    /// context must first earn a credential (an application password).
    func add(_ query: ItemQuery) throws(KeychainError) -> ItemResult
    /// `SecItemCopyMatching`, with the credentials of the query's context.
    func search(_ query: ItemQuery) throws(KeychainError) -> [ItemResult]
    /// `SecItemUpdate`, with the credentials of the query's context.
    func update(_ query: ItemQuery, with changes: ItemUpdate) throws(KeychainError)
    /// `SecItemDelete`.
    func delete(_ query: ItemQuery) throws(KeychainError)

    // MARK: Lock state (Apple's keybag)

    /// Whether a passcode is set, what is unlocked, and the passcode back-off.
    func lockState() throws(KeychainError) -> LockState
    /// Whether the `WhenUnlocked` classes are closed: a passcode is set and the keychain is locked.
    ///
    /// What ``lockState()`` says, without the back-off where the engine can skip it (a Secret
    /// Service provider asks before every call it answers).
    func isLocked() throws(KeychainError) -> Bool
    /// Checks the passcode and unlocks; `endsBiometricLockout` as the Lock Screen does.
    func unlock(passcode: String, endsBiometricLockout: Bool) throws(KeychainError)
    /// Locks: the `WhenUnlocked` classes become unreadable.
    func lock() throws(KeychainError)
    /// Sets the passcode (`current` is `nil` when none is set) and re-seals the protected items.
    func setPasscode(_ passcode: String, current: String?, progress: RekeyProgress?) throws(KeychainError)
    /// Removes the passcode, destroying the `WhenPasscodeSetThisDeviceOnly` items.
    func removePasscode(current: String) throws(KeychainError)
    /// How many items removing the passcode would destroy (the keychain must be unlocked).
    func itemsLostWithPasscode() throws(KeychainError) -> Int
    /// Moves the keychain's secrets into the engine's TPM (`toTPM`) or back to files, re-sealing
    /// the passcode-protected items (`passcode` is required when one is set).
    func moveSecrets(toTPM: Bool, passcode: String?, progress: RekeyProgress?) throws(KeychainError)
    /// Takes what the login says: a password that unlocks or becomes the passcode, a password
    /// change the passcode follows, the session locked or unlocked (``LoginEvent``). A password
    /// that is not the passcode is not counted as a wrong one.
    func login(_ event: LoginEvent) throws(KeychainError) -> LoginOutcome

    // MARK: Authentication contexts (Apple's coreauthd)

    /// A new, empty authentication context.
    func makeContext() throws(KeychainError) -> ContextReference
    /// Forgets a context and what it earned (its `LAContext` was released).
    func releaseContext(_ context: ContextReference)
    /// Invalidates a context: an evaluation in flight fails with `appCancel`, later use with `invalidContext`.
    func invalidateContext(_ context: ContextReference)
    /// Sets (or with `nil` removes) the context's application password.
    func setApplicationPassword(_ password: Data?, for context: ContextReference) throws(AuthenticationFailure)
    /// Why `policy` cannot be evaluated on `context` now; `nil` when it can (`canEvaluatePolicy`).
    func preflight(_ policy: AuthenticationPolicy, for context: ContextReference) -> AuthenticationFailure?
    /// Evaluates a policy on a context (`evaluatePolicy`), asking the sensor or the passcode
    /// prompt: `prompt`, or the engine's own when it is `nil`.
    func evaluate(
        _ policy: AuthenticationPolicy,
        for context: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt?
    ) throws(AuthenticationFailure)
    /// Evaluates an access control for an operation on a context (`evaluateAccessControl`, and the
    /// retry loop of `SecItem*`); `missing` narrows it to what the engine reported missing, and
    /// `prompt` (when not `nil`) asks in place of the engine's own.
    func evaluate(
        _ accessControl: AccessControl,
        operation: AccessOperation,
        missing: [Set<AccessPolicy.Constraint>]?,
        for context: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt?
    ) throws(AuthenticationFailure)

    // MARK: Backup

    /// Writes an encrypted backup of every item that may leave the device to `sink`.
    ///
    /// The keychain must be unlocked. Items with access control are copied when `context` has
    /// earned what opens them (the passcode, for `userPresence` and `devicePasscode`); the others,
    /// the `…ThisDeviceOnly` items and Secure Enclave keys are counted as left out. Where apps'
    /// items are guarded from each other (the daemon), a keychain with a passcode is backed up only
    /// once the daemon has asked for the passcode itself, in its own words; `prompt` (when not
    /// `nil`) answers that question on the client's side.
    func backup(
        _ sealing: BackupSealing,
        context: ContextReference?,
        prompt: PasscodePrompt?,
        to sink: @escaping BackupSink,
        progress: RekeyProgress?
    ) throws(KeychainError) -> BackupSummary
    /// Restores a backup read from `source`: every chunk is checked before anything is written,
    /// then items are added, or replace an existing item with an older modification date.
    ///
    /// With `checkOnly`, the file is checked and its items counted (as added) without writing.
    /// Where apps' items are guarded, a restore into a keychain with a passcode is confirmed with
    /// the passcode first, as a backup is (see ``backup(_:context:prompt:to:progress:)``).
    func restore(
        _ opening: BackupOpening,
        context: ContextReference?,
        prompt: PasscodePrompt?,
        from source: @escaping BackupSource,
        checkOnly: Bool,
        progress: RekeyProgress?
    ) throws(KeychainError) -> RestoreSummary

    // MARK: Biometric sensor

    /// The sensor, its enrolment and the failed-match count.
    func biometryState() throws(KeychainError) -> BiometryState
    /// Changes the simulated sensor (install, enrol, remove, script outcomes).
    func changeSimulatedSensor(_ change: SimulatedSensorChange) throws(KeychainError)
    /// Chooses the sensor, or enrols a finger on the fingerprint reader.
    func changeSensor(_ change: SensorChange) throws(KeychainError)
}

extension Engine {
    /// Whether the `WhenUnlocked` classes are closed, from the whole lock state.
    package func isLocked() throws(KeychainError) -> Bool {
        let state = try lockState()
        return state.hasPasscode && !state.isUnlocked
    }

    /// Evaluates a policy, asking through the engine's own prompt.
    package func evaluate(
        _ policy: AuthenticationPolicy,
        for context: ContextReference,
        reason: String,
        interactionAllowed: Bool
    ) throws(AuthenticationFailure) {
        try evaluate(policy, for: context, reason: reason, interactionAllowed: interactionAllowed, prompt: nil)
    }

    /// Evaluates an access control, asking through the engine's own prompt.
    package func evaluate(
        _ accessControl: AccessControl,
        operation: AccessOperation,
        missing: [Set<AccessPolicy.Constraint>]?,
        for context: ContextReference,
        reason: String,
        interactionAllowed: Bool
    ) throws(AuthenticationFailure) {
        try evaluate(
            accessControl,
            operation: operation,
            missing: missing,
            for: context,
            reason: reason,
            interactionAllowed: interactionAllowed,
            prompt: nil
        )
    }
}

/// Reads `count` bytes of a backup file from `offset`: fewer only at the end of the file.
///
/// A restore reads the file twice, once to check every chunk and once to apply them, so the source
/// must be seekable: a file, never a pipe.
package typealias BackupSource = @Sendable (_ offset: Int, _ count: Int) throws(KeychainError) -> Data

/// Receives a backup file's bytes, in order.
package typealias BackupSink = @Sendable (_ bytes: Data) throws(KeychainError) -> Void
