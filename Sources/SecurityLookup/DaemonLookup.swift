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
import KeychainCore
import KeychainDevice
import Logging
import SecurityCommandLine

/// A password look-up sent to `securityd` as the full tool would send it.
enum DaemonLookup {
    /// The password of the item `lookup` finds, when the keychain is served by `securityd` and
    /// the item is handed over without anything more: `nil` for everything else (the full tool
    /// then runs the command, and reports, prompts or starts what it needs).
    static func password(for lookup: PasswordLookup) -> Data? {
        let environment = ProcessInfo.processInfo.environment
        let home = KeychainHome.resolve(environment: environment)
        guard home.hasKeychainToSearch(namesDefault: true, environment: environment) else { return nil }
        // The tool's configuration, with no way to ask anything and no daemon to start (a question,
        // or a daemon that is not running yet, is for the full tool), and nothing to log: whatever
        // would be worth reporting ends in the full tool, which reports it in its own words.
        var configuration = DeviceConfiguration.securityTool(environment: environment)
        configuration.passcodePrompt = .none
        configuration.startsDaemon = false
        configuration.logger = Logger(label: "swift-keychain", factory: { _ in SwiftLogNoOpLogHandler() })
        // Without the engine linked, a keychain that is not the daemon's does not open here.
        guard let device = try? Device(home: home, configuration: configuration), device.engine is WireEngine,
            let query = try? QueryParser.parse(lookup.query, for: .copyMatching),
            let found = try? device.engine.search(query)
        else { return nil }
        return found.first?.data
    }
}
