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

    /// What the passcode prompt says it is for, naming the server's host (never its password).
    package var reason: String {
        switch self {
        case .create(let server, _):
            "make a circle on \(Self.host(of: server)) to synchronise this keychain's items with your other devices"
        case .join(let server, _, _):
            "send this keychain's synchronizable items to the circle on \(Self.host(of: server))"
        case .approve: "let another device receive this keychain's synchronizable items"
        case .remove: "remove a device from the circle"
        case .leave: "stop synchronising this keychain with your other devices"
        case .status: ""
        }
    }
}

extension SyncCommand {
    /// The host a server URL names, printable (or "the server" when it names none).
    private static func host(of server: String) -> String {
        guard let components = URLComponents(string: server) else { return "the server" }
        let host =
            components.host.flatMap { $0.isEmpty ? nil : $0 }
            ?? components.queryItems?.first { $0.name == "host" }?.value
            ?? "the server"
        var printable = String.UnicodeScalarView()
        printable.append(
            contentsOf: host.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(253)
        )
        return String(printable)
    }
}

/// Runs the `security sync` commands: the daemon's synchronisation, in the daemon only.
package protocol SyncControl: Sendable {
    /// Performs `command` and reports the circle afterwards.
    ///
    /// - Throws: ``KeychainError`` with a sentence for the user (no server password, no secret).
    func perform(_ command: SyncCommand) throws(KeychainError) -> SyncReport
}
