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

/// A circle as `security sync status` shows it.
package struct SyncReport: Sendable, Hashable, Codable {
    /// Where this device stands.
    package enum Membership: String, Sendable, Hashable, Codable {
        /// In no circle.
        case none
        /// Asked to join; waits for a trusted device's approval.
        case joining
        /// In the circle, exchanging.
        case member
        /// In the circle's list, waiting for the keys of its current generation.
        case awaitingKeys
        /// Removed from the circle by another device.
        case removed
    }

    /// A device of the circle.
    package struct Device: Sendable, Hashable, Codable {
        package var id: String
        package var name: String
        package var isThisDevice: Bool

        package init(id: String, name: String, isThisDevice: Bool) {
            self.id = id
            self.name = name
            self.isThisDevice = isThisDevice
        }
    }

    package var membership: Membership = .none
    /// The circle's id.
    package var circle: String?
    /// The server, without its password.
    package var server: String?
    /// The code to type on a trusted device (while joining).
    package var joinCode: String?
    /// The device the command let in or removed.
    package var changedDevice: Device?
    package var devices: [Device] = []
    package var lastExchange: Date?
    package var lastError: String?
    package var pending = 0
    package var sent = 0
    package var received = 0
    /// Messages from the server that were refused, by reason.
    package var refused: [String: Int] = [:]

    package init() {}
}
