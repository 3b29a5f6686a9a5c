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
    package func hasKeychainToSearch(namesDefault: Bool, environment: [String: String]) -> Bool {
        if containsKeychain { return true }
        guard namesDefault, !["embedded", "loopback"].contains(environment["KEYCHAIN_ENGINE"] ?? ""),
            let socket = DaemonEndpoint.named(environment: environment)
        else { return false }
        return access(socket, F_OK) == 0
    }
}
