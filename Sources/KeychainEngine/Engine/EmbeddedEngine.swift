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
import Logging

/// The engine in this process: the keychain's database and keybag, the authentication gate with
/// its contexts, and the biometric sensor.
///
/// Today every process that opens a keychain runs one; the daemon will run the only one and
/// serve it to clients through ``EngineResponder``.
package final class EmbeddedEngine: Engine {
    // MARK: Properties

    /// Items (Apple's SecItemServer), with the keybag and lock state and the attempt counters.
    package let keychain: Keychain
    /// Contexts and evaluations (Apple's coreauthd and ACM).
    let gate: AuthenticationGate
    /// The simulated sensor, scriptable from tests and other processes.
    let simulatedSensor: SimulatedSensorDriver
    /// The sensor the gate asks for matches: the simulated one or fprintd's reader, as chosen.
    let sensor: SelectedSensor
    /// The TPM the configuration names, which a keychain kept in files moves into.
    let tpm: TPMChoice

    // MARK: Initialization

    /// Opens the keychain in `directory` (creating it if needed), its device and keybag secrets in
    /// `secrets` (by default, files in `directory`).
    package init(directory: URL, configuration: DeviceConfiguration, secrets: SecretStores? = nil) throws(KeychainError)
    {
        keychain = try Keychain(
            directory: directory,
            accessGroups: AccessGroups(configuration.accessGroups),
            passcodeKDF: configuration.passcodeCost.kdf,
            clock: configuration.clock,
            secrets: secrets.map { [$0] }
                ?? SecretStores.candidates(in: directory, tpm: configuration.tpm, logger: configuration.logger),
            storageQuota: configuration.storageQuota,
            enclaveTPM: (try? configuration.tpm.configuration.get()).map {
                TPMHome(directory: directory.standardizedFileURL, configuration: $0)
            },
            logger: configuration.logger
        )
        tpm = configuration.tpm
        simulatedSensor = SimulatedSensorDriver(keychain: keychain)
        sensor = SelectedSensor(keychain: keychain, simulated: simulatedSensor, reader: FprintdDevice())
        gate = AuthenticationGate(
            keybagService: keychain.keybagService,
            sensor: sensor,
            prompt: configuration.passcodePrompt
        )
    }

    // MARK: Items

    package func add(_ query: ItemQuery) throws(KeychainError) -> ItemResult {
        try keychain.add(query, credentials: gate.credentials(of: query.credentialReference))
    }

    package func search(_ query: ItemQuery) throws(KeychainError) -> [ItemResult] {
        try keychain.search(query, credentials: gate.credentials(of: query.credentialReference))
    }

    package func update(_ query: ItemQuery, with changes: ItemUpdate) throws(KeychainError) {
        try keychain.update(query, with: changes, credentials: gate.credentials(of: query.credentialReference))
    }

    package func delete(_ query: ItemQuery) throws(KeychainError) {
        try keychain.delete(query)
    }

    // MARK: Lock state

    package func lockState() throws(KeychainError) -> LockState {
        let backoff = try keychain.attempts.passcodeBackoff()
        return LockState(
            hasPasscode: try keychain.keybagService.hasPasscode(),
            isUnlocked: keychain.keybagService.isUnlocked,
            hasBeenUnlocked: keychain.keybagService.hasBeenUnlocked,
            failedAttempts: backoff.failures,
            nextAttempt: backoff.nextAttemptAllowed(at: keychain.clock()),
            secretStore: keychain.storeDescription
        )
    }

    /// Whether the `WhenUnlocked` classes are closed: nothing read from the store while they are open.
    package func isLocked() throws(KeychainError) -> Bool {
        if keychain.keybagService.isUnlocked { return false }
        return try keychain.keybagService.hasPasscode()
    }

    package func unlock(passcode: String, endsBiometricLockout: Bool) throws(KeychainError) {
        try keychain.keybagService.unlock(passcode: passcode, endsBiometricLockout: endsBiometricLockout)
        moveIntoTheTPMIfOneAppeared(passcode: passcode)
    }

    package func lock() throws(KeychainError) {
        try keychain.keybagService.lock()
    }

    package func setPasscode(_ passcode: String, current: String?, progress: RekeyProgress?) throws(KeychainError) {
        try keychain.keybagService.setPasscode(passcode, current: current, progress: progress)
    }

    package func removePasscode(current: String) throws(KeychainError) {
        try keychain.keybagService.removePasscode(current: current)
    }

    package func moveSecrets(toTPM: Bool, passcode: String?, progress: RekeyProgress?) throws(KeychainError) {
        let service = keychain.keybagService
        let usesTPM = service.stores.device.hardwareRoot != nil
        guard usesTPM != toTPM else {
            throw KeychainError(
                .invalidParameter,
                toTPM ? "the keychain is already in the TPM" : "the keychain's secrets are already in files"
            )
        }
        let target: SecretStores
        if toTPM {
            target = try SecretStores.reachableTPM(for: keychain.directory, tpm: tpm)
        } else {
            target = .files(in: keychain.directory)
        }
        try service.moveSecrets(to: target, passcode: passcode, progress: progress)
    }

    /// After an unlock with the passcode: a keychain still in files moves into the configured TPM
    /// once there is one (a failure is logged; the keychain stays as it was).
    func moveIntoTheTPMIfOneAppeared(passcode: String) {
        guard keychain.keybagService.stores.device.hardwareRoot == nil,
            (try? keychain.keybagService.currentRecord().staysInFiles) == false,
            let target = try? SecretStores.reachableTPM(for: keychain.directory, tpm: tpm)
        else { return }
        do throws(KeychainError) {
            try keychain.keybagService.moveSecrets(to: target, passcode: passcode)
        } catch {
            keychain.logger.error(
                "the keychain could not move into the TPM; it stays in files",
                metadata: ["keychain.error": "\(error.message)"]
            )
        }
    }

    package func itemsLostWithPasscode() throws(KeychainError) -> Int {
        try keychain.itemsLostWithPasscode()
    }

    // MARK: Authentication contexts

    package func makeContext() throws(KeychainError) -> ContextReference {
        try gate.makeContext()
    }

    package func releaseContext(_ context: ContextReference) {
        gate.releaseContext(context)
    }

    package func invalidateContext(_ context: ContextReference) {
        gate.invalidate(context)
    }

    package func setApplicationPassword(_ password: Data?, for context: ContextReference) throws(AuthenticationFailure)
    {
        try gate.setApplicationPassword(password, for: context)
    }

    package func preflight(_ policy: AuthenticationPolicy, for context: ContextReference) -> AuthenticationFailure? {
        gate.failure(preventing: policy, for: context)
    }

    package func evaluate(
        _ policy: AuthenticationPolicy,
        for context: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt?
    ) throws(AuthenticationFailure) {
        try gate.evaluate(policy, for: context, reason: reason, interactionAllowed: interactionAllowed, prompt: prompt)
    }

    package func evaluate(
        _ accessControl: AccessControl,
        operation: AccessOperation,
        missing: [Set<AccessPolicy.Constraint>]?,
        for context: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt?
    ) throws(AuthenticationFailure) {
        try gate.evaluate(
            accessControl,
            operation: operation,
            missing: missing,
            for: context,
            reason: reason,
            interactionAllowed: interactionAllowed,
            prompt: prompt
        )
    }

    // MARK: Biometric sensor

    package func biometryState() throws(KeychainError) -> BiometryState {
        let failures = try keychain.attempts.biometricFailures()
        let current = try sensor.current()
        var state = BiometryState(
            kind: try current.kind(),
            enrolled: try current.enrolled(),
            enrolmentIdentity: try current.enrolmentIdentity(),
            failedMatches: failures,
            isLockedOut: failures >= AttemptCounters.biometricFailureLimit,
            queuedOutcomes: try simulatedSensor.queuedOutcomes()
        )
        state.source = try sensor.source()
        if state.source != .simulated { state.readerName = sensor.fprintd.reader.reader()?.name }
        return state
    }

    /// Chooses the sensor, or enrols a finger on fprintd's reader; either way the `biometryCurrentSet`
    /// constraint key then follows the set in use.
    package func changeSensor(_ change: SensorChange) throws(KeychainError) {
        let hasPasscode = try keychain.keybagService.hasPasscode()
        switch change {
        case .select(let source):
            try sensor.select(source)
        case .enrollOnReader(let finger):
            guard hasPasscode else {
                throw KeychainError(.notAvailable, "set a passcode before enrolling biometry")
            }
            guard keychain.keybagService.hasBeenUnlocked else {
                throw KeychainError(.interactionNotAllowed, "enrolling biometry needs the passcode first")
            }
            try sensor.fprintd.enroll(finger)
            try sensor.rotateReaderEpoch()
        }
        guard hasPasscode else { return }
        try keychain.keybagService.replaceBiometricSetConstraint(domainHash: try sensor.enrolmentIdentity())
    }

    /// Applies the change; when the enrolled set changed, replaces the `biometryCurrentSet` constraint key
    /// so that the items sealed to the old set become unreadable for good.
    package func changeSimulatedSensor(_ change: SimulatedSensorChange) throws(KeychainError) {
        guard try simulatedSensor.apply(change), try keychain.keybagService.hasPasscode() else { return }
        try keychain.keybagService.replaceBiometricSetConstraint(domainHash: try simulatedSensor.enrolmentIdentity())
    }
}
