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

extension EngineRequest {
    /// The request with every context reference it names passed through `transform`.
    ///
    /// The daemon uses it to bind a context to the process that made it: a reference another
    /// process made is replaced by one nobody was given, which earns nothing and ends nothing.
    ///
    /// - Parameter transform: The reference to use in place of each one named.
    /// - Returns: The same request, naming the references `transform` gave.
    package func replacingContexts(_ transform: (ContextReference) -> ContextReference) -> EngineRequest {
        func query(_ query: ItemQuery) -> ItemQuery {
            var query = query
            query.credentialReference = query.credentialReference.map(transform)
            return query
        }
        switch self {
        case .add(let item):
            return .add(query(item))
        case .search(let item):
            return .search(query(item))
        case .update(let item, let changes):
            return .update(query(item), changes)
        case .delete(let item):
            return .delete(query(item))
        case .releaseContext(let context):
            return .releaseContext(transform(context))
        case .invalidateContext(let context):
            return .invalidateContext(transform(context))
        case .setApplicationPassword(let password, let context):
            return .setApplicationPassword(password, context: transform(context))
        case .preflight(let policy, let context):
            return .preflight(policy, context: transform(context))
        case .evaluatePolicy(let policy, let context, let reason, let interactionAllowed, let target):
            return .evaluatePolicy(
                policy,
                context: transform(context),
                reason: reason,
                interactionAllowed: interactionAllowed,
                target: target
            )
        case .evaluateAccessControl(
            let accessControl,
            let operation,
            let missing,
            let context,
            let reason,
            let interactionAllowed,
            let target
        ):
            return .evaluateAccessControl(
                accessControl,
                operation: operation,
                missing: missing,
                context: transform(context),
                reason: reason,
                interactionAllowed: interactionAllowed,
                target: target
            )
        case .backup(let sealing, let context, let target, let reportsProgress):
            return .backup(sealing, context: context.map(transform), target: target, reportsProgress: reportsProgress)
        case .restore(let opening, let context, let target, let checkOnly, let reportsProgress):
            return .restore(
                opening,
                context: context.map(transform),
                target: target,
                checkOnly: checkOnly,
                reportsProgress: reportsProgress
            )
        case .lockState, .unlock, .lock, .setPasscode, .removePasscode, .moveSecrets, .itemsLostWithPasscode,
            .login, .makeContext,
            .answer, .backupBytes, .biometryState, .changeSimulatedSensor, .changeSensor, .applications,
            .grantAccessGroups,
            .revokeAccessGroups, .sync:
            return self
        }
    }
}
