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

/// Who is at the other end of a bus connection, as the bus daemon recorded it.
package struct BusPeer: Sendable, Hashable {
    /// The connection's unique name.
    package var name: String
    package var userID: UInt32
    /// The process that connected, where the bus daemon knows it.
    package var processID: Int32?

    package init(name: String, userID: UInt32, processID: Int32?) {
        self.name = name
        self.userID = userID
        self.processID = processID
    }
}

/// A signal received.
package struct BusSignal: Sendable {
    package var sender: String
    package var path: String
    package var member: String
    package var arguments: [BusValue]
}
