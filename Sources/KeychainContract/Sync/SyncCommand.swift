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

/// What the `security sync` commands ask the daemon: the circle of the user's devices that share
/// their synchronizable items.
package enum SyncCommand: Sendable, Hashable, Codable {
    /// Makes a circle, on the server at `server` (a `postgres://` URL), whose first device is this one.
    case create(server: String, deviceName: String)
    /// Asks to join the circle on `server` (its only one, or the circle named by its id); the
    /// report carries the code to type on a trusted device.
    case join(server: String, circle: String?, deviceName: String)
    /// Lets in the device that showed `code`.
    case approve(code: String)
    /// Removes a device (its id, or the first digits of it): the circle's keys change.
    case remove(device: String)
    /// The circle, its devices, the server, the last exchange, what is pending.
    case status
    /// Leaves the circle on this device (the items stay).
    case leave

    /// Whether the daemon asks for the passcode first: every step that lets a device in, puts
    /// this one in a circle or changes who is in it.
    package var needsPasscode: Bool {
        switch self {
        case .create, .join, .approve, .remove, .leave: true
        case .status: false
        }
    }

    /// What the passcode prompt says it is for.
    package var reason: String {
        switch self {
        case .create: "make a circle to synchronise this keychain's items with your other devices"
        case .join: "synchronise this keychain's items with your other devices"
        case .approve: "let another device receive this keychain's synchronizable items"
        case .remove(let device): "remove the device \(device) from the circle"
        case .leave: "stop synchronising this keychain with your other devices"
        case .status: ""
        }
    }
}

/// Runs the `security sync` commands: the daemon's synchronisation, in the daemon only.
package protocol SyncControl: Sendable {
    /// Performs `command` and reports the circle afterwards.
    ///
    /// - Throws: ``KeychainError`` with a sentence for the user (no server password, no secret).
    func perform(_ command: SyncCommand) throws(KeychainError) -> SyncReport
}
