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
import KeychainContract
import KeychainCore

/// Introduces the engine to `LinkedEngine`; the constructor in `CKeychainEngineLoader` calls it
/// when the program loads (see `LinkedEngine`).
@_cdecl("swift_keychain_register_engine")
public func registerEngine() {
    LinkedEngine.register(EmbeddedEngineProvider())
}

/// The engine in this process, as `Device` and `KeychainProcess` reach it.
struct EmbeddedEngineProvider: EngineProvider {
    func openEngine(directory: URL, configuration: DeviceConfiguration) throws(KeychainError) -> any Engine {
        try EmbeddedEngine(directory: directory, configuration: configuration)
    }

    func hardenProcess() -> Bool {
        ProcessProtection.harden()
    }

    var isProcessHardened: Bool {
        ProcessProtection.isHardened
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

extension Engine {
    /// The engine in this process that answers this one, itself or behind the loopback engine: for
    /// harnesses and tests that inspect the files.
    ///
    /// `nil` when the keychain is served from elsewhere.
    package var embedded: EmbeddedEngine? {
        (self as? EmbeddedEngine) ?? ((self as? WireEngine)?.served as? EmbeddedEngine)
    }
}
