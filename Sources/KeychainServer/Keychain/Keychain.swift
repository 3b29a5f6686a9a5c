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
package import KeychainCore
package import Logging

/// An open keychain: its database, its keybag and this process's lock state.
///
/// This is the engine behind `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` and
/// `SecItemDelete`. It is safe to use from many threads at once; every operation is one
/// database transaction.
///
/// ```swift
/// let keychain = try Keychain(directory: home, accessGroups: .standard)
/// var query = try QueryParser.parse(["class": "genp", "svce": "Example"], for: .copyMatching)
/// let items = try keychain.search(query)
/// ```
package final class Keychain: Sendable {
    // MARK: Properties

    /// The keychain home: `keychain.db`, `device.key` and `keybag.key`.
    package let directory: URL
    /// The access groups this process may use.
    package let accessGroups: AccessGroups
    /// The KDF parameters given to a new passcode or application-password wrapping.
    package let passcodeKDF: PasscodeKDF
    /// The least KDF cost accepted from disk (the standard cost, unless this is a test configuration).
    package let minimumKDF: PasscodeKDF
    /// The clock used for item dates and passcode back-off.
    package let clock: @Sendable () -> Date

    // The parts, internal to the engine: tests reach them with `@testable import`, harnesses
    // through the narrow calls in Keychain+Testing.swift.
    let store: SQLiteItemStore
    let vault: KeybagVault
    let keybag: Keybag
    let codec: ItemCodec
    let logger: Logger

    // MARK: Initialization

    /// Opens the keychain in `directory`, creating it (and the directory, mode 0700) if there is none.
    ///
    /// A home or file that another user owns or can write is refused; so is a damaged database, a
    /// database whose device secret or keybag secret is missing, and one written by a newer
    /// version: the engine never replaces a keychain it cannot read with an empty one.
    package init(
        directory: URL,
        accessGroups: AccessGroups,
        passcodeKDF: PasscodeKDF = .standard,
        clock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "swift-keychain")
    ) throws(KeychainCoreError) {
        // The path as checked: `..` resolved once, the same for every file opened in it.
        let directory = directory.standardizedFileURL
        self.directory = directory
        self.accessGroups = accessGroups
        self.passcodeKDF = passcodeKDF
        minimumKDF = PasscodeKDF.minimumAccepted(configured: passcodeKDF)
        self.clock = clock
        self.logger = logger

        try PrivateDirectory.prepare(directory)
        for name in [DeviceSecret.fileName, FileKeybagSecretStore.fileName] {
            try PrivateFile.check(directory.appendingPathComponent(name).path)
        }
        store = try SQLiteItemStore(url: directory.appendingPathComponent(SQLiteItemStore.fileName))
        let opened = try Self.openKeybag(in: directory, store: store, kdf: passcodeKDF)
        vault = opened.vault
        keybag = try Keybag(deviceSecret: vault.deviceSecret, stored: opened.stored, accessGroups: accessGroups.groups)
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
        kdf: PasscodeKDF
    ) throws(KeychainCoreError) -> (vault: KeybagVault, stored: StoredKeybag, staged: KeybagSecret?) {
        let secrets = FileKeybagSecretStore(directory: directory)
        if try store.read({ db throws(KeychainCoreError) in try KeybagVault.exists(db) }) {
            let vault = try openVault(in: directory, store: store, secrets: secrets)
            guard let stored = try store.read({ db throws(KeychainCoreError) in try vault.stored(db, isWriting: false) }) else {
                throw KeychainCoreError(.decode, "the keybag is missing")
            }
            // A keybag write committed but was killed before it installed its secret: install it
            // now, erasing the previous one (safe without the write lock: it is a committed secret).
            try? vault.secrets.promote(stored.secretIdentifier)
            return (vault, stored, nil)
        }
        var stagedDevice: String?
        var staged: KeybagSecret?
        let result = Result { () throws(KeychainCoreError) -> (KeybagVault, StoredKeybag)? in
            try store.write { db throws(KeychainCoreError) -> (KeybagVault, StoredKeybag)? in
                guard try !KeybagVault.exists(db) else { return nil }  // another process created it meanwhile
                let vault: KeybagVault
                let record: KeybagRecord
                if DeviceSecret.exists(in: directory) {
                    let deviceSecret = try DeviceSecret.load(in: directory)
                    guard let legacy = try LegacyKeybag.fetch(db, deviceSecret: deviceSecret) else {
                        throw KeychainCoreError(
                            .decode,
                            "the keychain database has no keybag but \(directory.path) has a device secret: the database was "
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
                    guard PrivateFile.status(directory.appendingPathComponent(FileKeybagSecretStore.fileName).path, followingLinks: false) == nil else {
                        throw KeychainCoreError(
                            .decode,
                            "\(directory.path) has a keybag secret (keybag.key) but no device secret and no keybag: move "
                                + "keychain.db*, device.key and keybag.key out of the directory together to start anew"
                        )
                    }
                    try requireNoItems(db)
                    DeviceSecret.discardStaged(in: directory)
                    secrets.discardStaged(except: nil)
                    let (deviceSecret, path) = try DeviceSecret.stage(in: directory)
                    stagedDevice = path
                    vault = KeybagVault(deviceSecret: deviceSecret, secrets: secrets)
                    record = try Keybag.makeRecord(deviceSecret: deviceSecret, kdf: kdf)
                }
                let secret = try vault.save(record, generation: 1, in: db)
                staged = secret
                return (vault, StoredKeybag(generation: 1, secretIdentifier: secret.identifier, record: record))
            }
        }
        switch result {
        case .success(let (vault, stored)?):
            if let stagedDevice { try DeviceSecret.install(stagedDevice, in: directory) }
            return (vault, stored, staged)
        case .success(nil):
            return try openKeybag(in: directory, store: store, kdf: kdf)
        case .failure(let error):
            // What it staged stays: if the commit happened after all (an I/O error while committing
            // is ambiguous), the next opening installs it; if not, the next creation discards it.
            throw error
        }
    }

    /// The vault of a keychain whose keybag exists: with `device.key`, or — when a creation
    /// committed but crashed before installing it — with the staged device secret that opens it.
    private static func openVault(
        in directory: URL,
        store: SQLiteItemStore,
        secrets: FileKeybagSecretStore
    ) throws(KeychainCoreError) -> KeybagVault {
        if DeviceSecret.exists(in: directory) {
            return KeybagVault(deviceSecret: try DeviceSecret.load(in: directory), secrets: secrets)
        }
        for (key, path) in DeviceSecret.staged(in: directory) {
            let candidate = KeybagVault(deviceSecret: key, secrets: secrets)
            let opens = (try? store.read { db throws(KeychainCoreError) in try candidate.stored(db, isWriting: false) }) != nil
            if opens {
                try DeviceSecret.install(path, in: directory)
                return candidate
            }
        }
        return KeybagVault(deviceSecret: try DeviceSecret.load(in: directory), secrets: secrets)
    }

    /// Refuses to create a keybag over a database that already holds items.
    private static func requireNoItems(_ db: Database) throws(KeychainCoreError) {
        for itemClass in ItemClass.storedClasses {
            let count: Int?
            do {
                count = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(itemClass.tableName)")
            } catch {
                throw SQLiteItemStore.translate(error, "cannot inspect the keychain database")
            }
            if (count ?? 0) > 0 {
                throw KeychainCoreError(.decode, "the keychain database holds items but its keybag is missing")
            }
        }
    }
}
