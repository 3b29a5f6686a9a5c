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
package import KeychainDevice

extension KeychainHome {
    /// Whether a command that only looks has a keychain to look in here, so that looking never
    /// creates one: a keychain exists in this home, or the default keychain (`namesDefault`) is
    /// served by a daemon named by its socket (a system daemon among them), which holds files of
    /// its own — a socket that exists, for a client that uses the daemon.
    ///
    /// A home that cannot be searched may hold one, and settings that name the default keychain
    /// wrongly (a relative path, a socket named and absent) are no "nothing here": opening it says
    /// what is wrong.
    package func hasKeychainToSearch(namesDefault: Bool, environment: [String: String]) -> Bool {
        if !keychainIsAbsent { return true }
        guard namesDefault else { return false }
        if KeychainHome.misconfiguration(environment: environment) != nil { return true }
        guard !["embedded", "loopback"].contains(environment["KEYCHAIN_ENGINE"] ?? ""),
            let socket = DaemonEndpoint.named(environment: environment)
        else { return false }
        return access(socket, F_OK) == 0 || !(environment["KEYCHAIN_SOCKET"] ?? "").isEmpty
    }
}
