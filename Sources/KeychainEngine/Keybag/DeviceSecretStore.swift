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
package import Foundation
package import KeychainCore

/// Where the device secret lives: the analog of Apple's UID key, under which every class key is
/// wrapped, so that the database is useless without it.
///
/// ``FileDeviceSecretStore`` keeps it in the keychain home; a TPM can implement the same contract
/// with a key that never leaves it. The secret is made once, when the keychain is created, and
/// never changes: a creation ``stage()``s it, commits the keybag sealed with it, then
/// ``install(_:)``s it, so that a crash leaves either no keychain or a complete one.
package protocol DeviceSecretStore: Sendable {
    /// Where the secret is kept, for messages.
    var location: String { get }

    /// Whether the keychain has a device secret (readable or not).
    func exists() -> Bool

    /// The device secret of a keychain whose keybag exists. A missing secret is an error, not a
    /// reason to make a new one: the keybag was sealed with it.
    func load() throws(KeychainError) -> SymmetricKey

    /// A new device secret, kept aside until ``install(_:)``.
    func stage() throws(KeychainError) -> StagedDeviceSecret

    /// The device secret of a keychain moving in from another store, kept aside until
    /// ``install(_:)``: the same value, which every key of the keychain derives from.
    func stage(keeping secret: SymmetricKey) throws(KeychainError) -> StagedDeviceSecret

    /// Erases the secret and what this store keeps of the keychain (after it moved to another store).
    func erase()

    /// Makes a staged secret the keychain's (never over an existing one).
    func install(_ staged: StagedDeviceSecret) throws(KeychainError)

    /// The staged secrets left behind (a creation that crashed before or after its commit).
    func staged() -> [StagedDeviceSecret]

    /// Erases the staged secrets that no keybag uses.
    func discardStaged()

    /// The hardware root behind the secret, which also binds the passcode; `nil` for files.
    var hardwareRoot: (any HardwareRoot)? { get }

    /// The store, as `security status` names it: "TPM 2.0 (…)" or "file (no TPM: …)".
    var storeDescription: String { get }
}

/// A device secret made for a keychain being created, not yet installed.
package struct StagedDeviceSecret: Sendable {
    /// The secret.
    package let key: SymmetricKey
    /// Where the store keeps it until it is installed (a file's path for the file store).
    package let reference: String

    package init(key: SymmetricKey, reference: String) {
        self.key = key
        self.reference = reference
    }
}

/// The two secrets of a keychain that live outside its database: the device secret and the keybag
/// secret.
///
/// An engine is given them when it opens a keychain; by default, files in its home.
package struct SecretStores: Sendable {
    package var device: any DeviceSecretStore
    package var keybag: any KeybagSecretStore

    package init(device: any DeviceSecretStore, keybag: any KeybagSecretStore) {
        self.device = device
        self.keybag = keybag
    }

    /// `device.key` and `keybag.key` in the keychain home `directory`.
    package static func files(in directory: URL) -> SecretStores {
        SecretStores(
            device: FileDeviceSecretStore(directory: directory),
            keybag: FileKeybagSecretStore(directory: directory)
        )
    }
}
