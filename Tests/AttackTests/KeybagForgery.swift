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
import GRDB
import KeychainContract

@testable import KeychainCore
@testable import KeychainEngine

/// What an attacker who holds today's files (`device.key`, `keybag.key`, the database) can do to
/// the sealed keybag: open it, change it, and seal it again as the next generation.
enum KeybagForgery {
    /// Rewrites the stored keybag of `home` with `change`, sealed as the next generation under a
    /// new keybag secret (which it installs, as the engine would).
    static func forge(_ home: URL, _ change: (inout KeybagRecord) throws -> Void) throws {
        let vault = KeybagVault(
            deviceSecret: try FileDeviceSecretStore(directory: home).load(),
            secrets: FileKeybagSecretStore(directory: home)
        )
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(
            path: home.appendingPathComponent("keychain.db").path,
            configuration: configuration
        )
        let secret = try queue.write { db -> KeybagSecret in
            guard let stored = try vault.stored(db, isWriting: true) else { throw KeychainError(.decode, "no keybag") }
            var record = stored.record
            try change(&record)
            return try vault.save(record, generation: stored.generation + 1, in: db)
        }
        try vault.promote(secret)
    }

    /// The stored keybag of `home`, opened with its files.
    static func read(_ home: URL) throws -> KeybagRecord {
        let vault = KeybagVault(
            deviceSecret: try FileDeviceSecretStore(directory: home).load(),
            secrets: FileKeybagSecretStore(directory: home)
        )
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(
            path: home.appendingPathComponent("keychain.db").path,
            configuration: configuration
        )
        guard let stored = try queue.read({ db in try vault.stored(db, isWriting: true) }) else {
            throw KeychainError(.decode, "no keybag")
        }
        return stored.record
    }
}
