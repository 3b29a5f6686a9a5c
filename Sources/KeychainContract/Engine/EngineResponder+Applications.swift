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

import KeychainCore

/// Item requests of clients the server tells apart: each runs with the groups its application is
/// granted, and an unsandboxed program's request that touches a sandboxed app's items needs the
/// user's presence first (see ``ApplicationRegistry`` and ``PresenceLedger``).
extension EngineResponder {
    func add(_ query: ItemQuery, _ conversation: EngineConversation) throws(KeychainError) -> ItemResult {
        guard let client = conversation.client, let applications else { return try engine.add(query) }
        var present = applications.presence.isPresent(query.credentialReference)
        if client == .unsandboxed, !present, let group = query.accessGroup, ClientIdentity.isAppGroup(group) {
            try requirePresence()
            present = true
        }
        return try engine.add(scoped(query, client, present: present))
    }

    func search(_ query: ItemQuery, _ conversation: EngineConversation) throws(KeychainError) -> [ItemResult] {
        guard let client = conversation.client, let applications else { return try engine.search(query) }
        // A key operation hands out what the private key does: it is a read of the secret.
        let readsSecrets = query.returnTypes.contains(.data) || query.keyOperation != nil
        guard client == .unsandboxed, readsSecrets, !applications.presence.isPresent(query.credentialReference)
        else {
            // Names and attributes of apps' items are not secrets to the user's own programs.
            return try engine.search(scoped(query, client, present: true))
        }
        var results = try engine.search(scoped(query, client, present: true))
        let isAppItem = { (item: ItemResult) -> Bool in
            guard case .string(let group)? = item.attributes[QueryKey.accessGroup] else { return false }
            return ClientIdentity.isAppGroup(group)
        }
        guard results.contains(where: isAppItem) else { return results }
        if query.authenticationUI == .skip {
            results.removeAll(where: isAppItem)
            guard !results.isEmpty else {
                throw KeychainError(.itemNotFound, "no matching item may be read without authentication")
            }
            return results
        }
        try requirePresence()
        return results
    }

    /// An update or delete: apps' items are left out unless the user proved presence; when only
    /// they match, presence is asked for.
    func changing(
        _ query: ItemQuery,
        _ conversation: EngineConversation,
        _ body: (ItemQuery) throws(KeychainError) -> Void
    ) throws(KeychainError) {
        guard let client = conversation.client, let applications else { return try body(query) }
        var present = applications.presence.isPresent(query.credentialReference)
        if client == .unsandboxed, !present, let group = query.accessGroup, ClientIdentity.isAppGroup(group) {
            try requirePresence()
            present = true
        }
        do {
            try body(scoped(query, client, present: present))
        } catch  where error.code == .itemNotFound && client == .unsandboxed && !present {
            var probe = query
            probe.matchLimit = .one
            probe.returnTypes = .attributes
            guard (try? engine.search(scoped(probe, client, present: true))) != nil else { throw error }
            try requirePresence()
            try body(scoped(query, client, present: true))
        }
    }

    /// The registry, for a request only an unsandboxed program may make (the `security` tool's
    /// commands): a sandboxed app cannot grant itself groups.
    func registry(for conversation: EngineConversation) throws(KeychainError) -> ApplicationRegistry {
        guard let applications else {
            throw KeychainError(
                .unimplemented,
                "apps are told apart only by securityd; this keychain is served in-process"
            )
        }
        guard conversation.client == .unsandboxed else {
            throw KeychainError(.missingEntitlement, "only the user's own programs may manage apps' access groups")
        }
        return applications
    }

    /// Asks for the passcode through the daemon's prompt, when one is set.
    func confirmPasscode(
        target: PromptTarget,
        conversation: EngineConversation,
        reason: String
    ) -> Result<Void, AuthenticationFailure> {
        guard (try? engine.lockState().hasPasscode) ?? true else { return .success(()) }
        let context: ContextReference
        do {
            context = try engine.makeContext()
        } catch {
            return .failure(AuthenticationFailure(.notInteractive, "no authentication context: \(error.message)"))
        }
        defer { engine.releaseContext(context) }
        let prompt = prompt(for: target, conversation: conversation)
        return Result { () throws(AuthenticationFailure) in
            try engine.evaluate(
                AccessControl(protection: .whenUnlocked, flags: AccessControl.devicePasscode),
                operation: .useItem,
                missing: nil,
                for: context,
                reason: reason,
                interactionAllowed: target.kind != .none,
                prompt: prompt
            )
        }
    }

    /// A new context that earned the passcode, asked for in the daemon's words, where apps' items
    /// are guarded and a passcode is set; `nil` otherwise (the caller then uses its own context).
    ///
    /// The client's own context is not enough: it may have earned the passcode for a reason the
    /// requesting program made up, long ago.
    func passcodeConfirmedContext(
        target: PromptTarget,
        conversation: EngineConversation,
        reason: String
    ) throws(KeychainError) -> ContextReference? {
        guard applications != nil, try engine.lockState().hasPasscode else { return nil }
        let context = try engine.makeContext()
        do throws(AuthenticationFailure) {
            try engine.evaluate(
                AccessControl(protection: .whenUnlocked, flags: AccessControl.devicePasscode),
                operation: .useItem,
                missing: nil,
                for: context,
                reason: "let \(conversation.program ?? "a program") \(reason)",
                interactionAllowed: target.kind != .none,
                prompt: prompt(for: target, conversation: conversation)
            )
        } catch {
            engine.releaseContext(context)
            throw KeychainError(
                .missingEntitlement,
                "backing up or restoring the keychain through securityd needs its passcode: \(error.message)"
            )
        }
        return context
    }

    /// Throws "authentication needed" for the presence check, unless no passcode is set (then
    /// nothing could be checked, and the keychain protects nothing from the user's programs).
    private func requirePresence() throws(KeychainError) {
        guard try engine.lockState().hasPasscode else { return }
        var error = KeychainError.authenticationNeeded(PresenceLedger.request)
        error.message = "another application's items need the user's presence"
        throw error
    }

    /// `query` with the access groups the client's application may use of those it asked for.
    private func scoped(_ query: ItemQuery, _ client: ClientIdentity, present: Bool) -> ItemQuery {
        guard let applications else { return query }
        if let appID = client.appID { applications.noteSandboxedApp(appID) }
        var query = query
        query.accessGroups = applications.grant(for: client, present: present).scope(query.accessGroups)
        return query
    }
}
