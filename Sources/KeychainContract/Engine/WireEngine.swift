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

/// An engine reached through the wire format: every request is encoded to bytes and carried by a
/// transport to an ``EngineResponder``, and every reply comes back the same way.
///
/// Two transports exist: ``LoopbackTransport`` runs the server in this process
/// (`KEYCHAIN_ENGINE=loopback`, the test of the process boundary), ``DaemonTransport`` reaches
/// `securityd` through its socket (`KEYCHAIN_ENGINE=daemon`).
package final class WireEngine: Engine {
    /// What carries the messages.
    package let transport: any EngineTransport
    /// Answers the questions the engine relays to this client (the daemon asks through its own
    /// prompter instead when this is the terminal prompt and it has one).
    package let prompt: PasscodePrompt
    /// The access groups item requests ask for (this client's configuration); `nil` leaves them
    /// to the engine's own.
    package let accessGroups: AccessGroups?

    /// An engine that sends every request through `transport`; `prompt` answers relayed
    /// questions; item requests carry `accessGroups`.
    package init(transport: any EngineTransport, prompt: PasscodePrompt, accessGroups: AccessGroups? = nil) {
        self.transport = transport
        self.prompt = prompt
        self.accessGroups = accessGroups
    }

    /// `query` with this client's access groups.
    private func scoped(_ query: ItemQuery) -> ItemQuery {
        var query = query
        query.accessGroups = accessGroups
        return query
    }

    // MARK: Transport

    /// Sends a request and returns the final reply; `interim` receives progress, `prompt`
    /// answers the engine's questions, and `transfer` answers a backup's writes and reads.
    func send(
        _ request: EngineRequest,
        prompt: PasscodePrompt? = nil,
        interim: (@Sendable (EngineResponse) -> Void)? = nil,
        transfer: (@Sendable (EngineResponse) throws(KeychainError) -> EngineRequest)? = nil
    ) throws(KeychainError) -> EngineResponse {
        let message = try EngineWire.encode(request)
        let prompt = prompt ?? self.prompt
        let response = try transport.exchange(message) { bytes throws(KeychainError) -> ReplyStep in
            let response: EngineResponse
            do {
                response = try EngineWire.decode(EngineResponse.self, from: bytes)
            } catch {
                if let version = bytes.first, version != EngineWire.version {
                    // A daemon started before this program was updated (or after it was downgraded).
                    throw KeychainError(
                        .notAvailable,
                        "the keychain daemon speaks wire format \(version) and this program \(EngineWire.version): restart securityd"
                    )
                }
                throw KeychainError(.internalInconsistency, "the engine's reply does not decode", cause: error)
            }
            switch response {
            case .ask(let question):
                let answer = prompt.ask(question.purpose, reason: question.reason)
                return .interim(answer: try? EngineWire.encode(EngineRequest.answer(answer)))
            case .progress:
                interim?(response)
                return .interim(answer: nil)
            case .notice(let text):
                prompt.notice(text)
                return .interim(answer: nil)
            case .backupBytes, .readBackup:
                guard let transfer else {
                    throw KeychainError(.internalInconsistency, "the engine sent backup bytes to a request of none")
                }
                return .interim(answer: try EngineWire.encode(try transfer(response)))
            default:
                return .final(response)
            }
        }
        if case .keychainError(let error) = response { throw error }
        return response
    }

    /// A request whose reply is `.done`, or an authentication failure.
    private func authenticate(_ request: EngineRequest, prompt: PasscodePrompt? = nil) throws(AuthenticationFailure) {
        let response: EngineResponse
        do {
            response = try send(request, prompt: prompt)
        } catch {
            throw AuthenticationFailure(.authenticationFailed, error.message)
        }
        switch response {
        case .done: return
        case .authenticationFailure(let failure): throw failure
        default: throw AuthenticationFailure(.authenticationFailed, "the engine replied \(Self.name(of: response))")
        }
    }

    /// An evaluation: the request is made for where `prompt` (this engine's own when `nil`) can
    /// be shown, and `prompt` answers the questions the engine relays.
    func evaluate(prompt: PasscodePrompt?, _ request: (PromptTarget) -> EngineRequest) throws(AuthenticationFailure) {
        try authenticate(request(PromptTarget.current(for: prompt ?? self.prompt)), prompt: prompt)
    }

    static func unexpected(_ response: EngineResponse) -> KeychainError {
        KeychainError(.internalInconsistency, "the engine replied \(name(of: response))")
    }

    /// The reply's kind, never its contents (a reply may hold a secret).
    private static func name(of response: EngineResponse) -> String {
        switch response {
        case .done: "done"
        case .item: "an item"
        case .items: "items"
        case .lockState: "a lock state"
        case .count: "a count"
        case .context: "a context"
        case .preflight: "a preflight"
        case .biometryState: "a biometry state"
        case .applications: "applications"
        case .backupSummary: "a backup summary"
        case .restoreSummary: "a restore summary"
        case .login: "a login outcome"
        case .sync: "a sync report"
        case .backupBytes: "backup bytes"
        case .readBackup: "a backup read"
        case .progress: "progress"
        case .notice: "a notice"
        case .ask: "a question"
        case .keychainError: "an error"
        case .authenticationFailure: "an authentication failure"
        }
    }

    func expectDone(_ request: EngineRequest) throws(KeychainError) {
        let response = try send(request)
        guard case .done = response else { throw Self.unexpected(response) }
    }

    // MARK: Items

    package func add(_ query: ItemQuery) throws(KeychainError) -> ItemResult {
        let response = try send(.add(scoped(query)))
        guard case .item(let item) = response else { throw Self.unexpected(response) }
        return item
    }

    package func search(_ query: ItemQuery) throws(KeychainError) -> [ItemResult] {
        let response = try send(.search(scoped(query)))
        guard case .items(let items) = response else { throw Self.unexpected(response) }
        return items
    }

    package func update(_ query: ItemQuery, with changes: ItemUpdate) throws(KeychainError) {
        try expectDone(.update(scoped(query), changes))
    }

    package func delete(_ query: ItemQuery) throws(KeychainError) {
        try expectDone(.delete(scoped(query)))
    }

    // MARK: Lock state

    package func lockState() throws(KeychainError) -> LockState {
        let response = try send(.lockState)
        guard case .lockState(let state) = response else { throw Self.unexpected(response) }
        return state
    }

    package func unlock(passcode: String, endsBiometricLockout: Bool) throws(KeychainError) {
        try expectDone(.unlock(passcode: passcode, endsBiometricLockout: endsBiometricLockout))
    }

    package func lock() throws(KeychainError) {
        try expectDone(.lock)
    }

    package func setPasscode(_ passcode: String, current: String?, progress: RekeyProgress?) throws(KeychainError) {
        let response = try send(.setPasscode(passcode: passcode, current: current, reportsProgress: progress != nil)) {
            interim in
            if case .progress(let completed, let total) = interim { progress?(completed, total) }
        }
        guard case .done = response else { throw Self.unexpected(response) }
    }

    package func removePasscode(current: String) throws(KeychainError) {
        try expectDone(.removePasscode(current: current))
    }

    package func moveSecrets(toTPM: Bool, passcode: String?, progress: RekeyProgress?) throws(KeychainError) {
        let request = EngineRequest.moveSecrets(toTPM: toTPM, passcode: passcode, reportsProgress: progress != nil)
        let response = try send(request) { interim in
            if case .progress(let completed, let total) = interim { progress?(completed, total) }
        }
        guard case .done = response else { throw Self.unexpected(response) }
    }

    package func login(_ event: LoginEvent) throws(KeychainError) -> LoginOutcome {
        let response = try send(.login(event, userID: getuid()))
        guard case .login(let outcome) = response else { throw Self.unexpected(response) }
        return outcome
    }

    package func itemsLostWithPasscode() throws(KeychainError) -> Int {
        let response = try send(.itemsLostWithPasscode)
        guard case .count(let count) = response else { throw Self.unexpected(response) }
        return count
    }

    // MARK: Backup

    package func backup(
        _ sealing: BackupSealing,
        context: ContextReference?,
        prompt: PasscodePrompt?,
        to sink: @escaping BackupSink,
        progress: RekeyProgress?
    ) throws(KeychainError) -> BackupSummary {
        let target = PromptTarget.current(for: prompt ?? self.prompt)
        let response = try send(
            .backup(sealing, context: context, target: target, reportsProgress: progress != nil),
            prompt: prompt,
            interim: { interim in
                if case .progress(let completed, let total) = interim { progress?(completed, total) }
            },
            transfer: { interim throws(KeychainError) in
                guard case .backupBytes(let bytes) = interim else { throw Self.unexpected(interim) }
                try sink(bytes)
                return .backupBytes(Data())
            }
        )
        guard case .backupSummary(let summary) = response else { throw Self.unexpected(response) }
        return summary
    }

    package func restore(
        _ opening: BackupOpening,
        context: ContextReference?,
        prompt: PasscodePrompt?,
        from source: @escaping BackupSource,
        checkOnly: Bool,
        progress: RekeyProgress?
    ) throws(KeychainError) -> RestoreSummary {
        let target = PromptTarget.current(for: prompt ?? self.prompt)
        let response = try send(
            .restore(opening, context: context, target: target, checkOnly: checkOnly, reportsProgress: progress != nil),
            prompt: prompt,
            interim: { interim in
                if case .progress(let completed, let total) = interim { progress?(completed, total) }
            },
            transfer: { interim throws(KeychainError) in
                guard case .readBackup(let offset, let count) = interim else { throw Self.unexpected(interim) }
                return .backupBytes(try source(offset, count))
            }
        )
        guard case .restoreSummary(let summary) = response else { throw Self.unexpected(response) }
        return summary
    }

    // MARK: Authentication contexts

    package func makeContext() throws(KeychainError) -> ContextReference {
        let response = try send(.makeContext)
        guard case .context(let reference) = response else { throw Self.unexpected(response) }
        return reference
    }

    package func releaseContext(_ context: ContextReference) {
        _ = try? send(.releaseContext(context))
    }

    package func invalidateContext(_ context: ContextReference) {
        _ = try? send(.invalidateContext(context))
    }

    package func setApplicationPassword(_ password: Data?, for context: ContextReference) throws(AuthenticationFailure)
    {
        try authenticate(.setApplicationPassword(password, context: context))
    }

    package func preflight(_ policy: AuthenticationPolicy, for context: ContextReference) -> AuthenticationFailure? {
        do {
            let response = try send(.preflight(policy, context: context))
            guard case .preflight(let failure) = response else {
                return AuthenticationFailure(.biometryNotAvailable, "the engine replied \(Self.name(of: response))")
            }
            return failure
        } catch {
            return AuthenticationFailure(.biometryNotAvailable, "cannot read the device state: \(error.message)")
        }
    }

    package func evaluate(
        _ policy: AuthenticationPolicy,
        for context: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        prompt: PasscodePrompt?
    ) throws(AuthenticationFailure) {
        try evaluate(prompt: prompt) { target in
            .evaluatePolicy(
                policy,
                context: context,
                reason: reason,
                interactionAllowed: interactionAllowed,
                target: target
            )
        }
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
        try evaluate(prompt: prompt) { target in
            .evaluateAccessControl(
                accessControl,
                operation: operation,
                missing: missing,
                context: context,
                reason: reason,
                interactionAllowed: interactionAllowed,
                target: target
            )
        }
    }

    // MARK: Biometric sensor

    package func biometryState() throws(KeychainError) -> BiometryState {
        let response = try send(.biometryState)
        guard case .biometryState(let state) = response else { throw Self.unexpected(response) }
        return state
    }

    package func changeSimulatedSensor(_ change: SimulatedSensorChange) throws(KeychainError) {
        try expectDone(.changeSimulatedSensor(change))
    }

    package func changeSensor(_ change: SensorChange) throws(KeychainError) {
        try expectDone(.changeSensor(change))
    }
}
