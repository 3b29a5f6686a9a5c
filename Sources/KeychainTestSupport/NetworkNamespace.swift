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

/// A network namespace of its own for one test's process, linked to the test's namespace by a
/// veth pair: the process reaches the host at ``hostAddress``, and taking the link down cuts it
/// off (a laptop offline) without stopping it.
package final class NetworkNamespace: @unchecked Sendable {
    package let name: String
    /// The test's end of the link, as the namespace reaches it.
    package let hostAddress: String
    private let hostLink: String

    /// Makes namespace number `index` (1…200) of this test run.
    ///
    /// - Throws: When `ip` fails (no root, no iproute2).
    package init(index: Int) throws {
        let tag = String(UUID().uuidString.prefix(4)).lowercased()
        name = "kc-\(tag)-\(index)"
        hostLink = "kch\(tag)\(index)"
        let deviceLink = "kcd\(tag)\(index)"
        let subnet = "10.\(200 + index % 50).\(Int.random(in: 1...250)).0"
        let prefix = subnet.split(separator: ".").prefix(3).joined(separator: ".")
        hostAddress = "\(prefix).1"
        try Self.ip(["netns", "add", name])
        try Self.ip(["link", "add", hostLink, "type", "veth", "peer", "name", deviceLink])
        try Self.ip(["link", "set", deviceLink, "netns", name])
        try Self.ip(["addr", "add", "\(hostAddress)/24", "dev", hostLink])
        try Self.ip(["link", "set", hostLink, "up"])
        try Self.ip(["netns", "exec", name, "ip", "addr", "add", "\(prefix).2/24", "dev", deviceLink])
        try Self.ip(["netns", "exec", name, "ip", "link", "set", deviceLink, "up"])
        try Self.ip(["netns", "exec", name, "ip", "link", "set", "lo", "up"])
    }

    deinit {
        try? Self.ip(["link", "delete", hostLink])
        try? Self.ip(["netns", "delete", name])
    }

    /// Brings the link up or takes it down (from the test's side).
    package func setOnline(_ online: Bool) throws {
        try Self.ip(["link", "set", hostLink, online ? "up" : "down"])
    }

    private static func ip(_ arguments: [String]) throws {
        let output = try ProgramRun.run(URL(fileURLWithPath: "/usr/sbin/ip"), arguments, input: nil)
        guard output.status == 0 else {
            throw NetworkNamespaceError("ip \(arguments.joined(separator: " ")): \(output.stderr.prefix(300))")
        }
    }
}

/// Why a namespace could not be made or changed.
package struct NetworkNamespaceError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
