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
/// The check is the access control ``check`` for the operation `confirmPresence`, which no item
/// asks for (an item protected by the passcode alone has the same access control, and reading it
/// must neither ask in these words nor open apps' items): the client's retry loop evaluates it on its
/// context, the daemon's gate asks for the passcode (through the daemon's prompt, in the daemon's
/// words, never the program's), and a success is noted here. The context then opens apps' items
/// for ``lifetime``, until it is released or invalidated, or the keychain is locked.
///
/// The passcode, not biometry: the simulated sensor is scripted by the user's own programs
/// (`security biometry next match`), so a match proves nothing against them.
package final class PresenceLedger: Sendable {
    /// The access control a client evaluates to prove presence: the passcode.
    package static let check = AccessControl(protection: .whenUnlocked, flags: AccessControl.devicePasscode)
    /// How long a proof lasts.
    package static let lifetime = Duration.seconds(300)

    /// The request the daemon answers with when presence is needed.
    package static var request: AuthenticationRequest {
        AuthenticationRequest(
            accessControl: check,
            operation: .confirmPresence,
            missingAlternatives: AccessPolicy(check).alternatives.map(Set.init)
        )
    }

    /// When each context proved presence.
    private let proven = LockedState<[ContextReference: ContinuousClock.Instant]>([:])

    package init() {}

    /// Whether `context` proved presence, less than ``lifetime`` ago.
    package func isPresent(_ context: ContextReference?) -> Bool {
        guard let context else { return false }
        return proven.withLock { proven in
            guard let when = proven[context] else { return false }
            guard ContinuousClock.now - when < Self.lifetime else {
                proven[context] = nil
                return false
            }
            return true
        }
    }

    /// Notes that the user proved presence on `context`.
    package func notePresence(_ context: ContextReference) {
        proven.withLock { $0[context] = .now }
    }

    /// Forgets `context` (released or invalidated).
    package func forget(_ context: ContextReference) {
        _ = proven.withLock { $0.removeValue(forKey: context) }
    }

    /// Forgets every proof (the keychain was locked).
    package func forgetAll() {
        proven.withLock { $0.removeAll() }
    }
}
