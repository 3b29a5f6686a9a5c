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

package import Foundation
package import KeychainCore

/// What the engine module (`KeychainEngine`) provides to the modules that do not import it.
package protocol EngineProvider: Sendable {
    /// Opens the keychain in `directory`, creating it if needed.
    func openEngine(directory: URL, configuration: DeviceConfiguration) throws(KeychainError) -> any Engine
    /// Makes this process non-dumpable with no core files; whether it now is non-dumpable.
    func hardenProcess() -> Bool
    /// Whether this process is non-dumpable.
    var isProcessHardened: Bool { get }
}

/// The engine linked into this program.
///
/// `KeychainDevice`, this module and the mirrors never import the engine: the clients of a module load
/// every module it imports, and a module that imports the mirrors (swift-certificates' X509 does,
/// under `canImport(Security)`) must not need GRDB, swift-crypto or this package's C modules.
/// Every product links the engine all the same, and a C constructor in `CKeychainEngineLoader`
/// registers it here before `main` runs.
package enum LinkedEngine {
    private static let registered = LockedState<(any EngineProvider)?>(nil)

    /// Makes `provider` the one `Device` opens keychains with.
    package static func register(_ provider: any EngineProvider) {
        registered.withLock { $0 = provider }
    }

    /// The linked engine; `notAvailable` when the program was linked without it.
    package static func provider() throws(KeychainError) -> any EngineProvider {
        guard let provider = registered.withLock({ $0 }) else {
            throw KeychainError(.notAvailable, "no keychain engine is linked into this program")
        }
        return provider
    }
}
