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

import CSDBus

/// libsystemd's sd-bus entry points, loaded once for the process (see `sd_bus_loader.h`).
///
/// Where libsystemd is missing, ``api`` is `nil` and ``unavailableReason`` says why: nothing here
/// can connect, and everything that needs a bus reports that it has none.
package enum BusLibrary {
    private struct Loaded: @unchecked Sendable {
        var api: c_sd_bus_api?
        var reason: String?
    }

    private static let loaded: Loaded = {
        var api = c_sd_bus_api()
        var reason: UnsafePointer<CChar>?
        // Kept loaded for the life of the process: connections may outlive any one user of them.
        guard c_sd_bus_load(&api, &reason) != nil else {
            return Loaded(api: nil, reason: reason.map { String(cString: $0) } ?? "libsystemd cannot be loaded")
        }
        return Loaded(api: api, reason: nil)
    }()

    /// The entry points, or `nil` without libsystemd.
    static var api: c_sd_bus_api? { loaded.api }

    /// Why there is no bus library, if there is none.
    package static var unavailableReason: String? { loaded.reason }
}
