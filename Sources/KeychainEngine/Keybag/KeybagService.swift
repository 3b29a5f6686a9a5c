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

import Crypto
package import Foundation
import GRDB
import KeychainCore
import Logging

/// The keybag and this process's lock state: Apple's keybag support (`SecKeybagSupport`) and the
/// key store behind it.
///
/// It holds the class keys this process has unlocked, follows the stored keybag as other
/// processes change it, checks the passcode (through the ``AttemptCounters``), sets, changes and
/// removes it, and releases the constraint keys that access controls ask for. Changing the class
/// keys seals every item again in the same transaction, so that no copy of an older keybag opens
/// what is written afterwards.
package final class KeybagService: Sendable {
    // MARK: Properties

    /// The keychain home: `keychain.db`, `device.key` and `keybag.key`.
    package let directory: URL
    /// The KDF parameters given to a new passcode or application-password wrapping.
    package let passcodeKDF: PasscodeKDF
    /// The least KDF cost accepted from disk (the standard cost, unless this is a test configuration).
    package let minimumKDF: PasscodeKDF
    /// The wrong-passcode and failed-match counts.
    package let attempts: AttemptCounters

    /// Where the device and keybag secrets live now.
    package var stores: SecretStores { storesState.withLock { $0 } }

    let store: SQLiteItemStore
    let vault: KeybagVault
    let storesState: LockedState<SecretStores>
    let keybag: Keybag
    /// Seals rows again when the class keys change.
    let codec: ItemCodec
    let logger: Logger
    /// What reopens the keychain when a locked login session unlocks.
    let sessionResume = SessionResume()

    // MARK: Initialization

    /// Opens the keybag of the database `store` in `directory`: converts one of the unsealed
    /// layout, creates one for a new keychain, and finishes a keybag write a killed process left.
    init(
        directory: URL,
        store: SQLiteItemStore,
        accessGroups: AccessGroups,
        passcodeKDF: PasscodeKDF,
        attempts: AttemptCounters,
        secrets: SecretStores,
        logger: Logger
    ) throws(KeychainError) {
        self.directory = directory
        self.store = store
        self.passcodeKDF = passcodeKDF
        minimumKDF = PasscodeKDF.minimumAccepted(configured: passcodeKDF)
        self.attempts = attempts
        self.logger = logger
        storesState = LockedState(secrets)
        let opened = try Self.openKeybag(in: directory, store: store, secrets: secrets, kdf: passcodeKDF)
        vault = opened.vault
        keybag = try Keybag(
            deviceSecret: vault.deviceSecret,
            stored: opened.stored,
            accessGroups: accessGroups.groups,
            hardware: secrets.device.hardwareRoot
        )
        codec = ItemCodec(keybag: keybag, passcodeKDF: passcodeKDF)
        if let staged = opened.staged {
            finishKeybagWrite(staged)
        } else if store.hasLog {
            // A process killed while writing may have left earlier page versions in the log.
            store.truncateLog(wait: 0)
        }
        rekeyIfNeeded(passcodeKey: nil)
    }

    /// The keybag of the database in `directory`: opened, converted from the unsealed layout, or
    /// created; with the secret a conversion or creation staged, to promote once committed.
    private static func openKeybag(
        in directory: URL,
        store: SQLiteItemStore,
        secrets stores: SecretStores,
        kdf: PasscodeKDF
    ) throws(KeychainError) -> (vault: KeybagVault, stored: StoredKeybag, staged: KeybagSecret?) {
        let device = stores.device
        let secrets = stores.keybag
        if try store.read({ db throws(KeychainError) in try KeybagVault.exists(db) }) {
            let vault = try openVault(store: store, secrets: stores)
            guard let stored = try store.read({ db throws(KeychainError) in try vault.stored(db, isWriting: false) })
            else {
                throw KeychainError(.decode, "the keybag is missing")
            }
            // A keybag write committed but was killed before it installed its secret: install it
            // now, erasing the previous one (safe without the write lock: it is a committed secret).
            try? vault.secrets.promote(stored.secretIdentifier)
            return (vault, stored, nil)
        }
        var stagedDevice: StagedDeviceSecret?
        var staged: KeybagSecret?
        let result = Result { () throws(KeychainError) -> (KeybagVault, StoredKeybag)? in
            try store.write { db throws(KeychainError) -> (KeybagVault, StoredKeybag)? in
                guard try !KeybagVault.exists(db) else { return nil }  // another process created it meanwhile
                let vault: KeybagVault
                let record: KeybagRecord
                if device.exists() {
                    let deviceSecret = try device.load()
                    guard let legacy = try LegacyKeybag.fetch(db, deviceSecret: deviceSecret) else {
                        throw KeychainError(
                            .decode,
                            "the keychain database has no keybag but \(directory.path) has a device secret (\(device.location)): the database was "
                                + "replaced, truncated or damaged. Restore it, or move keychain.db*, device.key and keybag.key "
                                + "out of the directory to start anew"
                        )
                    }
                    vault = KeybagVault(deviceSecret: deviceSecret, secrets: secrets)
                    record = legacy
                    try LegacyKeybag.erase(db)
                } else {
                    // A keybag secret without a device secret belongs to a keychain moved away in part:
                    // never overwrite it with a new keychain's.
                    guard !secrets.holdsCurrentSecret() else {
                        throw KeychainError(
                            .decode,
                            "\(directory.path) has a keybag secret (keybag.key) but no device secret and no keybag: move "
                                + "keychain.db*, device.key and keybag.key out of the directory together to start anew"
                        )
                    }
                    try requireNoItems(db)
                    device.discardStaged()
                    secrets.discardStaged(except: nil)
                    let newDevice = try device.stage()
                    stagedDevice = newDevice
                    vault = KeybagVault(deviceSecret: newDevice.key, secrets: secrets)
                    record = try Keybag.makeRecord(deviceSecret: newDevice.key, kdf: kdf)
                }
                let secret = try vault.save(record, generation: 1, in: db)
                staged = secret
                return (vault, StoredKeybag(generation: 1, secretIdentifier: secret.identifier, record: record))
            }
        }
        switch result {
        case .success(let (vault, stored)?):
            if let stagedDevice { try device.install(stagedDevice) }
            return (vault, stored, staged)
        case .success(nil):
            return try openKeybag(in: directory, store: store, secrets: stores, kdf: kdf)
        case .failure(let error):
            // What it staged stays: if the commit happened after all (an I/O error while committing
            // is ambiguous), the next opening installs it; if not, the next creation discards it.
            throw error
        }
    }

    /// The vault of a keychain whose keybag exists: with its device secret, or — when a creation
    /// committed but crashed before installing it — with the staged device secret that opens it.
    private static func openVault(
        store: SQLiteItemStore,
        secrets stores: SecretStores
    ) throws(KeychainError) -> KeybagVault {
        let device = stores.device
        if device.exists() {
            return KeybagVault(deviceSecret: try device.load(), secrets: stores.keybag)
        }
        for staged in device.staged() {
            let candidate = KeybagVault(deviceSecret: staged.key, secrets: stores.keybag)
            let opens =
                (try? store.read { db throws(KeychainError) in try candidate.stored(db, isWriting: false) }) != nil
            if opens {
                try device.install(staged)
                return candidate
            }
        }
        return KeybagVault(deviceSecret: try device.load(), secrets: stores.keybag)
    }

    /// Refuses to create a keybag over a database that already holds items.
    private static func requireNoItems(_ db: Database) throws(KeychainError) {
        for itemClass in ItemClass.storedClasses where try ItemTable(itemClass).count(in: db) > 0 {
            throw KeychainError(.decode, "the keychain database holds items but its keybag is missing")
        }
    }
}
