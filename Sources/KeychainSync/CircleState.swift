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

import Foundation

/// What a device holds of its circle: its identity, the list of devices it trusts, and the
/// circle's keys of every generation it received.
///
/// Written by ``CircleMembership``; the device keeps it in its keychain, split by class (see
/// ``CircleKeys/rawRepresentation(of:)``).
package struct CircleState: Sendable {
    package let circle: CircleID
    package let identity: DeviceIdentity
    package var list: DeviceList
    /// By generation; the greatest is the one the device writes with.
    package var keys: [UInt32: CircleKeys]
    /// Messages the server gave that were refused, by reason (logged where they were met).
    package var refused: [SyncError.Reason: Int] = [:]

    package init(circle: CircleID, identity: DeviceIdentity, list: DeviceList, keys: [UInt32: CircleKeys]) {
        self.circle = circle
        self.identity = identity
        self.list = list
        self.keys = keys
    }

    /// The keys new records are written with: the generation the list commits to, once held.
    package var currentKeys: CircleKeys? { keys[list.generation] }

    /// Whether this device is still on the list it holds.
    package var isMember: Bool { list.contains(identity.id) }

    mutating func count(_ error: SyncError) { refused[error.reason, default: 0] += 1 }
}
