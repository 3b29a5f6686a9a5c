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
public import Foundation
import GRDB
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

    /// The keychain home: `keychain.db` and `device.key`.
    package let directory: URL
    /// The access groups this process may use.
    package let accessGroups: AccessGroups
    /// The KDF parameters given to a new passcode.
    package let passcodeKDF: PasscodeKDF
    /// The clock used for item dates and passcode back-off.
    package let clock: @Sendable () -> Date

    package let store: SQLiteItemStore
    package let keybag: Keybag
    package let codec: ItemCodec
    let logger: Logger

    // MARK: Initialization

    /// Opens the keychain in `directory`, creating it (and the directory) if there is none.
    ///
    /// A damaged database, or a database whose device secret is missing, is an error: the engine
    /// never replaces a keychain it cannot read with an empty one.
    package init(
        directory: URL,
        accessGroups: AccessGroups,
        passcodeKDF: PasscodeKDF = .standard,
        clock: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "swift-keychain")
    ) throws(KeychainCoreError) {
        self.directory = directory
        self.accessGroups = accessGroups
        self.passcodeKDF = passcodeKDF
        self.clock = clock
        self.logger = logger

        do {
            try FileManager.default.createDirectory(
                at: directory,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw KeychainCoreError(.io, "cannot create the keychain home \(directory.path)", cause: error)
        }
        store = try SQLiteItemStore(url: directory.appendingPathComponent(SQLiteItemStore.fileName))

        let record: KeybagRecord
        let key: SymmetricKey
        if let existing = try store.read({ db throws(KeychainCoreError) in try KeybagRecord.fetch(db) }) {
            record = existing
            key = try DeviceSecret.load(in: directory)
        } else {
            (record, key) = try Self.create(in: directory, store: store, kdf: passcodeKDF)
        }
        keybag = try Keybag(deviceSecret: key, record: record, accessGroups: accessGroups.groups)
        codec = ItemCodec(keybag: keybag)
        separateLookupTiersIfNeeded()
    }

    /// Creates the keybag and the device secret of a new keychain, in one write transaction: the
    /// device secret exists only if a keybag was committed with it (or is being committed).
    ///
    /// A home that has a device secret but whose database has no keybag lost its database (it was
    /// replaced, truncated to nothing or recreated): that is an error, never a new empty keychain
    /// that would take the old one's place.
    private static func create(
        in directory: URL,
        store: SQLiteItemStore,
        kdf: PasscodeKDF
    ) throws(KeychainCoreError) -> (KeybagRecord, SymmetricKey) {
        var createdSecret = false
        do {
            return try store.write { db throws(KeychainCoreError) in
                if let raced = try KeybagRecord.fetch(db) {
                    return (raced, try DeviceSecret.load(in: directory))
                }
                guard !DeviceSecret.exists(in: directory) else {
                    throw KeychainCoreError(
                        .decode,
                        "the keychain database has no keybag but \(directory.path) has a device secret: the database was "
                            + "replaced, truncated or damaged. Restore it, or move keychain.db* and device.key away to start anew"
                    )
                }
                try requireNoItems(db)
                let key = try DeviceSecret.create(in: directory)
                createdSecret = true
                let fresh = try Keybag.makeRecord(deviceSecret: key, kdf: kdf)
                try fresh.save(db)
                return (fresh, key)
            }
        } catch {
            // The transaction did not commit: no keybag uses the new secret.
            if createdSecret { DeviceSecret.discard(in: directory) }
            throw error
        }
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
