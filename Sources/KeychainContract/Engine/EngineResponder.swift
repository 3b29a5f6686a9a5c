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

/// The far side of the boundary: decodes a request, runs it on an engine, encodes the reply.
///
/// The loopback engine uses it in-process; the daemon uses it for each connection.
package struct EngineResponder: Sendable {
    /// The engine that runs the requests.
    package let engine: any Engine
    /// How evaluations ask a person.
    package let prompts: PromptRouting
    /// Asked before each request runs; the error it gives is the reply (the daemon refuses to serve
    /// a home that others have become able to write).
    package var admission: @Sendable () -> (any Error)? = { nil }
    /// Sandboxed apps and their groups, when clients are told apart (the daemon); `nil` runs item
    /// requests with the groups they ask for.
    package var applications: ApplicationRegistry?
    /// The circle of the user's devices, when the keychain is the daemon's; `nil` refuses the
    /// `security sync` commands.
    package var synchronization: (any SyncControl)?

    package init(engine: any Engine, prompts: PromptRouting = .relaying) {
        self.engine = engine
        self.prompts = prompts
    }

    /// Answers one request message.
    ///
    /// - Parameters:
    ///   - message: The request's bytes.
    ///   - conversation: Carries interim replies (progress, questions) to the client before the
    ///     final one is returned.
    ///   - observe: Sees each request that decoded, with its reply (the daemon notes the
    ///     contexts each client makes).
    /// - Returns: The final reply's bytes. A message that does not decode is answered with
    ///   `errSecParam`'s error, never by running anything.
    package func respond(
        to message: [UInt8],
        conversation: EngineConversation,
        observe: (EngineRequest, EngineResponse) -> Void = { _, _ in }
    ) -> [UInt8] {
        respond(to: Self.request(in: message), conversation: conversation, observe: observe)
    }

    /// The request a message holds, or why it holds none.
    package static func request(in message: [UInt8]) -> Result<EngineRequest, KeychainError> {
        Result { () throws(KeychainError) in try EngineWire.decode(EngineRequest.self, from: message) }
    }

    /// Answers a decoded request (or the error of one that did not decode, which runs nothing).
    package func respond(
        to decoded: Result<EngineRequest, KeychainError>,
        conversation: EngineConversation,
        observe: (EngineRequest, EngineResponse) -> Void = { _, _ in }
    ) -> [UInt8] {
        let response: EngineResponse
        switch decoded {
        case .success(let request):
            response = run(request, conversation: conversation)
            observe(request, response)
        case .failure(let error):
            response = .keychainError(error)
        }
        do {
            return try EngineWire.encode(response)
        } catch {
            // The reply itself cannot be encoded (too large): say so instead.
            return (try? EngineWire.encode(EngineResponse.keychainError(error))) ?? []
        }
    }

    /// Runs one decoded request.
    package func run(_ request: EngineRequest, conversation: EngineConversation) -> EngineResponse {
        do throws(KeychainError) {
            if let refusal = admission() {
                throw refusal as? KeychainError ?? KeychainError(.notAvailable, "\(refusal)")
            }
            // A sandboxed app changes nothing of the keychain itself, as an iOS app cannot.
            if let client = conversation.client, client != .unsandboxed, request.changesTheKeychain {
                throw KeychainError(.missingEntitlement, "a sandboxed app may not lock, unlock or set up the keychain")
            }
            switch request {
            case .add(let query):
                return .item(try add(query, conversation))
            case .search(let query):
                return .items(try search(query, conversation))
            case .update(let query, let changes):
                try changing(query, conversation) { query throws(KeychainError) in
                    try engine.update(query, with: changes)
                }
            case .delete(let query):
                try changing(query, conversation) { query throws(KeychainError) in try engine.delete(query) }
            case .lockState:
                return .lockState(try engine.lockState())
            case .unlock(let passcode, let endsBiometricLockout):
                try engine.unlock(passcode: passcode, endsBiometricLockout: endsBiometricLockout)
            case .lock:
                try engine.lock()
                applications?.presence.forgetAll()
            case .setPasscode(let passcode, let current, let reportsProgress):
                try engine.setPasscode(
                    passcode,
                    current: current,
                    progress: reportsProgress ? Self.progress(to: conversation) : nil
                )
            case .removePasscode(let current):
                try engine.removePasscode(current: current)
            case .moveSecrets(let toTPM, let passcode, let reportsProgress):
                try engine.moveSecrets(
                    toTPM: toTPM,
                    passcode: passcode,
                    progress: reportsProgress ? Self.progress(to: conversation) : nil
                )
            case .itemsLostWithPasscode:
                return .count(try engine.itemsLostWithPasscode())
            case .login(let event, _):
                return .login(try engine.login(event))
            case .makeContext:
                return .context(try engine.makeContext())
            case .releaseContext(let context):
                engine.releaseContext(context)
                applications?.presence.forget(context)
            case .invalidateContext(let context):
                engine.invalidateContext(context)
                applications?.presence.forget(context)
            case .setApplicationPassword(let password, let context):
                return authenticating { () throws(AuthenticationFailure) in
                    try engine.setApplicationPassword(password, for: context)
                }
            case .preflight(let policy, let context):
                return .preflight(engine.preflight(policy, for: context))
            case .evaluatePolicy(let policy, let context, let reason, let interactionAllowed, let target):
                let prompt = prompt(for: target, conversation: conversation)
                return authenticating { () throws(AuthenticationFailure) in
                    try engine.evaluate(
                        policy,
                        for: context,
                        reason: reason,
                        interactionAllowed: interactionAllowed,
                        prompt: prompt
                    )
                }
            case .evaluateAccessControl(
                let accessControl,
                let operation,
                let missing,
                let context,
                let reason,
                let interactionAllowed,
                let target
            ):
                let prompt = prompt(for: target, conversation: conversation)
                // The daemon's own presence check is evaluated whole, whatever the client says is
                // missing or sends as the access control, and asks in the daemon's words.
                let checksPresence = applications != nil && operation == .confirmPresence
                let asked =
                    checksPresence
                    ? "let \(conversation.program ?? "a program") use keychain items of sandboxed apps" : reason
                return authenticating { () throws(AuthenticationFailure) in
                    try engine.evaluate(
                        checksPresence ? PresenceLedger.check : accessControl,
                        operation: checksPresence ? .useItem : operation,
                        missing: checksPresence ? nil : missing,
                        for: context,
                        reason: asked,
                        interactionAllowed: interactionAllowed,
                        prompt: prompt
                    )
                    if checksPresence { applications?.presence.notePresence(context) }
                }
            case .answer:
                throw KeychainError(.invalidParameter, "an answer arrived with no question asked")
            case .backup(let sealing, let context, let target, let reportsProgress):
                // Backup and restore reach every app's items, and a restore could plant grants:
                // where apps are guarded, the daemon asks for the passcode in its own words first,
                // as it does before granting an app groups.
                let confirmed = try passcodeConfirmedContext(
                    target: target,
                    conversation: conversation,
                    reason: "back up every item of the keychain"
                )
                defer { if let confirmed { engine.releaseContext(confirmed) } }
                return .backupSummary(
                    try engine.backup(
                        sealing,
                        context: confirmed ?? context,
                        prompt: nil,
                        to: Self.backupSink(conversation),
                        progress: reportsProgress ? Self.progress(to: conversation) : nil
                    )
                )
            case .restore(let opening, let context, let target, let checkOnly, let reportsProgress):
                // Checking a file reads and writes nothing of the keychain.
                let confirmed =
                    checkOnly
                    ? nil
                    : try passcodeConfirmedContext(
                        target: target,
                        conversation: conversation,
                        reason: "restore a backup into the keychain, over its older items"
                    )
                defer { if let confirmed { engine.releaseContext(confirmed) } }
                return .restoreSummary(
                    try engine.restore(
                        opening,
                        context: confirmed ?? context,
                        prompt: nil,
                        from: Self.backupSource(conversation),
                        checkOnly: checkOnly,
                        progress: reportsProgress ? Self.progress(to: conversation) : nil
                    )
                )
            case .backupBytes:
                throw KeychainError(.invalidParameter, "backup bytes arrived with no backup asking for them")
            case .biometryState:
                return .biometryState(try engine.biometryState())
            case .changeSimulatedSensor(let change):
                try engine.changeSimulatedSensor(change)
            case .changeSensor(let change):
                try engine.changeSensor(change)
            case .applications:
                return .applications(try registry(for: conversation).applications())
            case .grantAccessGroups(let groups, let application, let target):
                let registry = try registry(for: conversation)
                if case .failure(let failure) = confirmPasscode(
                    target: target,
                    conversation: conversation,
                    reason: "let the app \(application) use the keychain groups \(groups.joined(separator: ", "))"
                ) {
                    return .authenticationFailure(failure)
                }
                try registry.grant(groups, to: application)
            case .revokeAccessGroups(let groups, let application):
                try registry(for: conversation).revoke(groups, from: application)
            case .sync(let command, let target):
                guard let synchronization else {
                    throw KeychainError(
                        .unimplemented,
                        "synchronisation runs in securityd; this keychain is served in-process"
                    )
                }
                guard conversation.client == .unsandboxed else {
                    throw KeychainError(.missingEntitlement, "only the user's own programs may manage synchronisation")
                }
                if command.needsPasscode,
                    case .failure(let failure) = confirmPasscode(
                        target: target,
                        conversation: conversation,
                        reason: command.reason
                    )
                {
                    return .authenticationFailure(failure)
                }
                return .sync(try synchronization.perform(command))
            }
            return .done
        } catch {
            return .keychainError(error)
        }
    }

    /// A progress callback that sends each report as an interim reply.
    private static func progress(to conversation: EngineConversation) -> RekeyProgress {
        { completed, total in
            let report = EngineResponse.progress(completed: completed, total: total)
            if let bytes = try? EngineWire.encode(report) { conversation.report(bytes) }
        }
    }

    /// Sends a backup's bytes to the client, one piece at a time: each waits for the client's
    /// acknowledgement, so that a slow disk holds the engine back instead of filling memory.
    private static func backupSink(_ conversation: EngineConversation) -> BackupSink {
        { bytes throws(KeychainError) in
            guard let question = try? EngineWire.encode(EngineResponse.backupBytes(bytes)),
                let answer = conversation.ask(question),
                case .backupBytes? = try? EngineWire.decode(EngineRequest.self, from: answer)
            else { throw KeychainError(.io, "the program writing the backup stopped receiving it") }
        }
    }

    /// Reads a backup from the client, range by range.
    private static func backupSource(_ conversation: EngineConversation) -> BackupSource {
        { offset, count throws(KeychainError) in
            guard let question = try? EngineWire.encode(EngineResponse.readBackup(offset: offset, count: count)),
                let answer = conversation.ask(question),
                case .backupBytes(let bytes)? = try? EngineWire.decode(EngineRequest.self, from: answer)
            else { throw KeychainError(.io, "the program restoring the backup stopped sending it") }
            guard bytes.count <= count else {
                throw KeychainError(.invalidParameter, "the program restoring the backup sent more than was asked")
            }
            return bytes
        }
    }

    /// The prompt for one evaluation of a client: chosen by ``prompts``, with a relay to the
    /// client's own prompt through the conversation.
    func prompt(for target: PromptTarget, conversation: EngineConversation) -> PasscodePrompt {
        let relay = PasscodePrompt { purpose, reason in
            guard
                let question = try? EngineWire.encode(
                    EngineResponse.ask(PromptQuestion(purpose: purpose, reason: reason))
                ),
                let answer = conversation.ask(question),
                case .answer(let reply)? = try? EngineWire.decode(EngineRequest.self, from: answer)
            else { return .unavailable }
            return reply
        }
        var prompt = prompts.prompt(target, conversation.program, relay)
        let program = conversation.program ?? "a program"
        prompt.notify = { text in
            if let bytes = try? EngineWire.encode(EngineResponse.notice("\(program): \(text)")) {
                conversation.report(bytes)
            }
        }
        // The simulated sensor's question needs no secret to answer: on a terminal of its own a
        // sandboxed app would approve itself, where only the user's programs may script the sensor.
        if let client = conversation.client, client != .unsandboxed { prompt.askWord = nil }
        return prompt
    }

    private func authenticating(_ body: () throws(AuthenticationFailure) -> Void) -> EngineResponse {
        do {
            try body()
            return .done
        } catch {
            return .authenticationFailure(error)
        }
    }
}
