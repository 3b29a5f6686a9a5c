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

/// The authentication contexts in which the user proved presence for the daemon's own check: an
/// unsandboxed program's request that touches a sandboxed app's items.
///
/// The check is the access control ``check``: the client's retry loop evaluates it on its
/// context, the daemon's gate asks for the passcode or a finger (through the daemon's prompt, never
/// the program's word), and a success is noted here. The context then opens apps' items until it
/// is released or invalidated.
package final class PresenceLedger: Sendable {
    /// The access control a client evaluates to prove presence: biometry or the passcode.
    package static let check = AccessControl(protection: .whenUnlocked, flags: AccessControl.userPresence)

    /// The request the daemon answers with when presence is needed.
    package static var request: AuthenticationRequest {
        AuthenticationRequest(
            accessControl: check,
            operation: .useItem,
            missingAlternatives: AccessPolicy(check).alternatives.map(Set.init)
        )
    }

    private let proven = LockedState<Set<ContextReference>>([])

    package init() {}

    /// Whether `context` proved presence.
    package func isPresent(_ context: ContextReference?) -> Bool {
        guard let context else { return false }
        return proven.withLock { $0.contains(context) }
    }

    /// Notes that the user proved presence on `context`.
    package func notePresence(_ context: ContextReference) {
        _ = proven.withLock { $0.insert(context) }
    }

    /// Forgets `context` (released or invalidated).
    package func forget(_ context: ContextReference) {
        _ = proven.withLock { $0.remove(context) }
    }
}
