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
import KeychainDevice

extension Device {
    /// The keychain in `home` as every harness process opens it: cheap passcode KDF, never prompts;
    /// in this process, or served by the `securityd` listening on `daemonSocket`.
    static func stress(_ home: URL, daemonSocket: String? = nil) throws -> Device {
        // The `security` processes of a harness start a daemon for the home, which reads this.
        try KeychainHome(url: home).configureDaemonForTests()
        var configuration = DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        if let daemonSocket {
            configuration.engine = .daemon
            configuration.daemonSocket = daemonSocket
        }
        return try Device(home: KeychainHome(url: home), configuration: configuration)
    }
}
