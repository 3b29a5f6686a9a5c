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

package import Crypto
import Foundation
package import KeychainCore

/// The device secret of a keychain bound to a TPM, computed by a key that never leaves the TPM.
///
/// `device.tpm` in the home names the key; there is no `device.key`.
package struct TPMDeviceSecretStore: DeviceSecretStore {
    package let home: TPMHome

    package init(home: TPMHome) {
        self.home = home
    }

    package var location: String { "\(home.path) (\(home.configuration))" }

    package var hardwareRoot: (any HardwareRoot)? { home }

    package var storeDescription: String { home.description }

    package func exists() -> Bool {
        PrivateFile.status(home.path, followingLinks: false) != nil
    }

    package func load() throws(KeychainError) -> SymmetricKey {
        try home.installed().secret
    }

    package func stage() throws(KeychainError) -> StagedDeviceSecret {
        let bound = try home.stage()
        return StagedDeviceSecret(key: bound.secret, reference: bound.path)
    }

    package func stage(keeping secret: SymmetricKey) throws(KeychainError) -> StagedDeviceSecret {
        let bound = try home.stage(keeping: secret)
        return StagedDeviceSecret(key: bound.secret, reference: bound.path)
    }

    package func erase() {
        home.erase()
    }

    package func install(_ staged: StagedDeviceSecret) throws(KeychainError) {
        try home.install(staged.reference)
    }

    package func staged() -> [StagedDeviceSecret] {
        home.stagedBindings().map { StagedDeviceSecret(key: $0.secret, reference: $0.path) }
    }

    package func discardStaged() {
        home.discardStaged()
    }
}
