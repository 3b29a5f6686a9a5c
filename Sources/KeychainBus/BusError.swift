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

/// A D-Bus error reply: a name (`org.freedesktop.DBus.Error.InvalidArgs`) and a message.
package struct BusError: Error, Sendable, Hashable {
    package var name: String
    package var message: String

    package init(_ name: String, _ message: String) {
        self.name = name
        self.message = message
    }

    /// The arguments do not have the method's signature or values.
    package static func invalidArguments(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.InvalidArgs", message)
    }

    /// No such method on the object's interface.
    package static func unknownMethod(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.UnknownMethod", message)
    }

    /// No such property.
    package static func unknownProperty(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.UnknownProperty", message)
    }

    /// The caller may not do this.
    package static func accessDenied(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.AccessDenied", message)
    }

    /// The service failed.
    package static func failed(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.Failed", message)
    }

    /// The service is out of a resource (too many sessions, prompts or objects for one caller).
    package static func limitsExceeded(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.LimitsExceeded", message)
    }
}
