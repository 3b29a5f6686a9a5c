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

import KeychainBus
import KeychainContract

/// The Secret Service's own errors (`org.freedesktop.Secret.Error.*`).
enum SecretError {
    /// The object is locked: its secret needs an `Unlock` first.
    static func isLocked(_ message: String) -> BusError {
        BusError("org.freedesktop.Secret.Error.IsLocked", message)
    }

    /// The session does not exist or is another connection's.
    static func noSession(_ message: String) -> BusError {
        BusError("org.freedesktop.Secret.Error.NoSession", message)
    }

    /// No such item or collection.
    static func noSuchObject(_ message: String) -> BusError {
        BusError("org.freedesktop.Secret.Error.NoSuchObject", message)
    }

    /// The session algorithm is not one the provider offers.
    static func notSupported(_ message: String) -> BusError {
        BusError("org.freedesktop.DBus.Error.NotSupported", message)
    }
}
