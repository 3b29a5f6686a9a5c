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

/// What the engine needs evaluated before it retries an operation on a protected item.
///
/// This is the payload of Apple's private `errSecAuthNeeded`: the item's access control and the
/// operation. The caller's authentication context evaluates it (prompting unless interaction is
/// not allowed), gains credentials, and calls the engine again.
package struct AuthenticationRequest: Hashable, Sendable, Codable {
    /// The access control of the item that needs authentication.
    package var accessControl: AccessControl
    /// What is being done with the item.
    package var operation: AccessOperation
    /// What the credentials lack, for each alternative that can still be satisfied (any one of
    /// them, completed, opens the item).
    package var missingAlternatives: [Set<AccessPolicy.Constraint>]

    package init(
        accessControl: AccessControl,
        operation: AccessOperation,
        missingAlternatives: [Set<AccessPolicy.Constraint>] = []
    ) {
        self.accessControl = accessControl
        self.operation = operation
        self.missingAlternatives = missingAlternatives
    }
}

/// An operation on a protected item; the raw values are `LAAccessControlOperation`'s, but for
/// ``confirmPresence``.
package enum AccessOperation: Int, Hashable, Sendable, Codable {
    case createItem = 0
    case useItem = 1
    case createKey = 2
    case useKeySign = 3
    case useKeyDecrypt = 4
    case useKeyKeyExchange = 5
    /// The daemon's own check that the user is present (`PresenceLedger`): no item's operation,
    /// so that the daemon tells its check from an item whose access control is the same passcode.
    case confirmPresence = 100
}
