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

/// What an item's access control requires before its secret key can be unwrapped.
///
/// Apple's `SecAccessControlCreateWithFlags` builds a k-of-n constraint from the flags: several
/// constraints without `or` all apply (`and`), with `or` any one does; `userPresence` is biometry
/// or the device passcode; `applicationPassword` is an extra encryption that applies on every path.
/// The engine compiles that into alternatives of constraints: the secret key is wrapped once per
/// alternative, under a key that needs every constraint of that alternative.
package struct AccessPolicy: Hashable, Sendable {
    // MARK: Properties

    /// Any one of these satisfies the policy; each needs all of its constraints.
    package var alternatives: [[Constraint]]
    /// Whether the application password is needed on every alternative.
    package var requiresApplicationPassword: Bool
    /// Whether the biometric constraint keys of this policy need enrolled biometry when the item is created
    /// (`biometryAny` and `biometryCurrentSet` do; `userPresence` does not).
    package var requiresEnrolledBiometry: Bool

    // MARK: Initialization

    package init(_ accessControl: AccessControl) {
        let flags = accessControl.flags
        requiresApplicationPassword = flags & AccessControl.applicationPassword != 0
        if flags & AccessControl.userPresence != 0 {
            alternatives = [[.biometryAny], [.passcode]]
            requiresEnrolledBiometry = false
            return
        }
        var constraints: [Constraint] = []
        if flags & AccessControl.biometryAny != 0 { constraints.append(.biometryAny) }
        if flags & AccessControl.biometryCurrentSet != 0 { constraints.append(.biometryCurrentSet) }
        if flags & AccessControl.devicePasscode != 0 { constraints.append(.passcode) }
        if flags & AccessControl.companion != 0 { constraints.append(.companion) }
        requiresEnrolledBiometry = true
        if constraints.isEmpty {
            alternatives = [[]]
        } else if flags & AccessControl.or != 0 {
            alternatives = constraints.map { [$0] }
        } else {
            alternatives = [constraints]
        }
    }

    /// Every lock that appears in some alternative.
    package var constraints: Set<Constraint> {
        Set(alternatives.joined())
    }
}

extension AccessPolicy {
    /// One condition of an access control, backed by a key pair in the keybag.
    ///
    /// Items are sealed to a lock's public key, so adding an item needs no authentication; only
    /// the authentication gate releases the private key (after the passcode, or after a biometric
    /// match).
    package enum Constraint: UInt8, Hashable, Sendable, CaseIterable, Codable {
        /// The device passcode: the private key is wrapped by the passcode-derived key.
        case passcode = 1
        /// Any enrolled biometry: survives enrolment changes; destroyed with the passcode.
        case biometryAny = 2
        /// The biometry enrolled now: replaced whenever a finger or face is added or removed.
        case biometryCurrentSet = 3
        /// A paired companion device: none exists on Linux, so this lock never has a key.
        case companion = 4
    }
}
