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

/// A request to a ``Engine``, as it crosses the process boundary: one case per operation.
package enum EngineRequest: Sendable, Codable {
    case add(ItemQuery)
    case search(ItemQuery)
    case update(ItemQuery, ItemUpdate)
    case delete(ItemQuery)

    case lockState
    case unlock(passcode: String, endsBiometricLockout: Bool)
    case lock
    case setPasscode(passcode: String, current: String?, reportsProgress: Bool)
    case removePasscode(current: String)
    case moveSecrets(toTPM: Bool, passcode: String?, reportsProgress: Bool)
    /// How many items ``removePasscode(current:)`` would destroy.
    case itemsLostWithPasscode
    /// What the login tells the keychain of `userID` (the daemon takes it from root only).
    case login(LoginEvent, userID: UInt32)

    case makeContext
    case releaseContext(ContextReference)
    case invalidateContext(ContextReference)
    case setApplicationPassword(Data?, context: ContextReference)
    case preflight(AuthenticationPolicy, context: ContextReference)
    case evaluatePolicy(
        AuthenticationPolicy,
        context: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        target: PromptTarget
    )
    case evaluateAccessControl(
        AccessControl,
        operation: AccessOperation,
        missing: [Set<AccessPolicy.Constraint>]?,
        context: ContextReference,
        reason: String,
        interactionAllowed: Bool,
        target: PromptTarget
    )
    /// The client's answer to an ``EngineResponse/ask(_:)`` of the request in flight; never a
    /// request of its own.
    case answer(PasscodePrompt.Reply)

    /// Writes a backup; its bytes come back as ``EngineResponse/backupBytes(_:)`` interim replies.
    case backup(BackupSealing, context: ContextReference?, target: PromptTarget, reportsProgress: Bool)
    /// Restores (or with `checkOnly` checks) a backup that the engine reads from the client, asking
    /// for each range with ``EngineResponse/readBackup(offset:count:)``.
    case restore(
        BackupOpening,
        context: ContextReference?,
        target: PromptTarget,
        checkOnly: Bool,
        reportsProgress: Bool
    )
    /// The client's answer to ``EngineResponse/readBackup(offset:count:)``; never a request of its own.
    case backupBytes(Data)

    case biometryState
    case changeSimulatedSensor(SimulatedSensorChange)
    case changeSensor(SensorChange)

    /// The sandboxed apps the daemon has seen, with the groups the user granted each.
    case applications
    /// Grants sandboxed app `application` the `groups`, once the daemon's prompt took the passcode.
    case grantAccessGroups([String], application: String, target: PromptTarget)
    /// Takes `groups` back from sandboxed app `application`.
    case revokeAccessGroups([String], application: String)
    /// `security sync …`: the circle of the user's devices (the daemon only).
    case sync(SyncCommand, target: PromptTarget)
}

extension EngineRequest {
    /// Whether the request completes without waiting for anything but the processor: no person,
    /// no passcode derivation, no scan of the keychain (the lock state, context bookkeeping, a
    /// look-up that the look-up columns' index answers).
    ///
    /// The daemon answers these on the connection's own thread: two thread hand-offs cost a look-up
    /// as much as the engine's work (measured in BENCHMARKS.md).
    ///
    /// A look-up is brief when it asks for one item, brings no context (an application password
    /// may need its key derived), and names only primary-key attributes or a persistent reference
    /// (any other attribute, a host-or-subdomain match or `kSecUseAuthenticationUISkip` may decrypt
    /// every row of the class before it finds one, or none). A look-up that meets an item that can
    /// never be opened again (a tombstone, a changed enrolment) removes it and waits for the write
    /// lock for that: once per such item, the price of not taking two hand-offs on every other one.
    package var isBrief: Bool {
        switch self {
        case .lockState, .biometryState, .preflight, .makeContext, .releaseContext, .invalidateContext: true
        case .search(let query): Self.isIndexedLookUp(query)
        default: false
        }
    }

    private static func isIndexedLookUp(_ query: ItemQuery) -> Bool {
        guard query.credentialReference == nil, query.matchLimit == .one, query.hostOrSubdomainOf == nil,
            query.authenticationUI != .skip, query.itemClass != .identity
        else { return false }
        if query.persistentReference != nil { return true }
        let schema = ItemSchema.of(query.itemClass)
        return !query.attributes.isEmpty
            && query.attributes.keys.allSatisfy { schema.attribute($0)?.isPrimaryKey == true }
    }
}

extension EngineRequest {
    /// Whether the request changes the keychain as a whole (its lock, passcode or sensor) or the
    /// apps' grants, rather than items: what only the user's own programs may ask.
    package var changesTheKeychain: Bool {
        switch self {
        case .unlock, .lock, .setPasscode, .removePasscode, .moveSecrets, .itemsLostWithPasscode, .login, .backup,
            .restore, .changeSimulatedSensor,
            .changeSensor, .applications,
            .grantAccessGroups,
            .revokeAccessGroups, .sync:
            true
        default: false
        }
    }
}

extension EngineRequest {
    /// Whether the request is an evaluation, which may wait for a person as long as they take, or
    /// a backup or restore, which waits for its client as long as it takes to send or take the file:
    /// both are rationed, so that clients that never answer cannot take the daemon's threads.
    package var isEvaluation: Bool {
        switch self {
        case .evaluatePolicy, .evaluateAccessControl, .grantAccessGroups, .backup, .restore, .sync: true
        default: false
        }
    }
}

/// A reply from a ``Engine``: a result, an error, or an interim reply before the final
/// one: progress of a passcode change, or a question for the client's prompt.
package enum EngineResponse: Sendable, Codable {
    case done
    case item(ItemResult)
    case items([ItemResult])
    case lockState(LockState)
    case count(Int)
    case context(ContextReference)
    case preflight(AuthenticationFailure?)
    case biometryState(BiometryState)
    case applications([String: [String]])
    case backupSummary(BackupSummary)
    case restoreSummary(RestoreSummary)
    case login(LoginOutcome)
    case sync(SyncReport)
    /// Interim: the next bytes of the backup being written.
    case backupBytes(Data)
    /// Interim: the engine asks for `count` bytes of the backup being restored, from `offset`; the
    /// client answers with ``EngineRequest/backupBytes(_:)``.
    case readBackup(offset: Int, count: Int)
    /// Interim: items re-sealed so far, of the total.
    case progress(completed: Int, total: Int)
    /// Interim: the client's prompt is asked this; it sends ``EngineRequest/answer(_:)`` back.
    case ask(PromptQuestion)
    /// Interim: the client's prompt shows this line (a fingerprint scan is awaited, and for whom).
    case notice(String)
    case keychainError(KeychainError)
    case authenticationFailure(AuthenticationFailure)

    /// Whether more replies follow this one for the same request.
    package var isInterim: Bool {
        switch self {
        case .progress, .ask, .notice, .backupBytes, .readBackup: true
        default: false
        }
    }
}
