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
package import KeychainDevice

/// Introduces the engine to `KeychainDevice`; the constructor in `CKeychainServerLoader` calls it
/// when the program loads (see `ServerRegistry`).
@_cdecl("swift_keychain_register_server")
public func registerServer() {
    ServerRegistry.register(EmbeddedServer())
}

/// The engine in this process, as `Device` and `KeychainProcess` reach it.
struct EmbeddedServer: LinkedServer {
    func openEngine(directory: URL, configuration: DeviceConfiguration) throws(KeychainCoreError) -> any KeychainEngine {
        try EmbeddedEngine(directory: directory, configuration: configuration)
    }

    func hardenProcess() -> Bool {
        ProcessProtection.harden()
    }

    var isProcessHardened: Bool {
        ProcessProtection.isHardened
    }
}

extension Device {
    /// The engine in this process, behind the loopback engine or not: for harnesses and tests
    /// that inspect the files. `nil` when the keychain is served from elsewhere.
    package var embedded: EmbeddedEngine? {
        (engine as? EmbeddedEngine) ?? ((engine as? WireEngine)?.served as? EmbeddedEngine)
    }

    /// The keychain of the engine in this process.
    package var keychain: Keychain {
        guard let embedded else { preconditionFailure("this device's engine is not in this process") }
        return embedded.keychain
    }
}

extension DeviceConfiguration.PasscodeCost {
    /// The KDF parameters of the cost.
    var kdf: PasscodeKDF {
        switch self {
        case .standard: .standard
        case .testing: .testing
        }
    }
}
