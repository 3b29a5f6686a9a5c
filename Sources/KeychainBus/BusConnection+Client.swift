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

extension BusConnection {
    /// Another program's property (`org.freedesktop.DBus.Properties.Get`), out of its variant.
    package func property(
        _ name: String,
        of interface: String,
        at path: String,
        on destination: String
    ) throws(BusError) -> BusValue {
        let reply = try call(
            destination: destination,
            path: path,
            interface: "org.freedesktop.DBus.Properties",
            member: "Get",
            [.string(interface), .string(name)]
        )
        guard let value = reply.first else { throw BusError.failed("\(destination) gave no value for \(name)") }
        return value.unwrapped
    }

    /// Makes ``run(until:)`` check its condition now (from any thread): what a client that waits
    /// for a signal calls when it is cancelled.
    package func interrupt() {
        perform {}
    }
}
