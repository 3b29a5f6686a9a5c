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

/// What the engine module (`KeychainServer`) provides to `KeychainDevice`, which does not import it.
package protocol LinkedServer: Sendable {
    /// Opens the keychain in `directory`, creating it if needed.
    func openEngine(directory: URL, configuration: DeviceConfiguration) throws(KeychainCoreError) -> any KeychainEngine
    /// Makes this process non-dumpable with no core files; whether it now is non-dumpable.
    func hardenProcess() -> Bool
    /// Whether this process is non-dumpable.
    var isProcessHardened: Bool { get }
}

/// The engine linked into this program.
///
/// `KeychainDevice` and the mirror modules never import the engine: the clients of a module load
/// every module it imports, and a module that imports the mirrors (swift-certificates' X509 does,
/// under `canImport(Security)`) must not need GRDB, swift-crypto or this package's C modules.
/// Every product links the engine all the same, and a C constructor in `CKeychainServerLoader`
/// registers it here before `main` runs.
package enum ServerRegistry {
    private static let registered = LockedState<(any LinkedServer)?>(nil)

    /// Makes `server` the one ``Device`` opens keychains with.
    package static func register(_ server: any LinkedServer) {
        registered.withLock { $0 = server }
    }

    /// The linked engine; `notAvailable` when the program was linked without it.
    package static func server() throws(KeychainCoreError) -> any LinkedServer {
        guard let server = registered.withLock({ $0 }) else {
            throw KeychainCoreError(.notAvailable, "no keychain engine is linked into this program")
        }
        return server
    }
}
