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
package import KeychainCore
import KeychainCrypto
import Logging

extension Keychain {
    // MARK: Adding

    /// `SecItemAdd`: stores a new item and returns it as the query's `kSecReturn…` keys ask.
    ///
    /// - Throws: ``KeychainError/Code/duplicateItem`` if an item with the same primary key
    ///   exists, ``KeychainError/Code/notAvailable`` for a `WhenPasscodeSetThisDeviceOnly` item
    ///   without a passcode, ``KeychainError/Code/interactionNotAllowed`` while its class is locked.
    ///   An item with access-control constraints is sealed to the keybag's constraint keys, which needs no
    ///   authentication, except for the application password that `credentials` must carry
    ///   (``KeychainError/Code/authenticationNeeded`` otherwise). Constraints this device cannot
    ///   satisfy (no passcode, no enrolled biometry) are ``KeychainError/Code/authenticationFailed``.
    @discardableResult
    package func add(
        _ query: ItemQuery,
        credentials: AuthenticationCredentials = AuthenticationCredentials()
    ) throws(KeychainError) -> ItemResult {
        let itemClass = query.itemClass
        // The engine's own marks are never a client's to set (the parser refuses them; a query
        // decoded from the daemon's socket was not parsed here).
        guard StoredItem.marks.isDisjoint(with: query.attributes.keys) else {
            throw KeychainError(.invalidParameter, "unknown key")
        }
        if case .generateWrapped(let compactRepresentable) = query.keyOperation {
            return try generateKeyBlob(query, compactRepresentable: compactRepresentable, credentials: credentials)
        }
        // A token key is made here, never brought: its private key exists only in the engine.
        let query = try query.keyOperation == nil ? query : StoredEnclaveKeys.generating(query, hardware: hardware)
        if query.keyOperation == nil, query.attributes[QueryKey.tokenID] != nil {
            throw KeychainError(.invalidParameter, "kSecAttrTokenID items are made by SecKeyCreateRandomKey")
        }
        guard itemClass != .identity else {
            throw KeychainError(.invalidParameter, "identities are added as a certificate and a key reference")
        }
        // Private-key usage is an operation of a token's keys: on any other item, a software key
        // included, the access control cannot be satisfied (Apple's sec_acl_stress.c 254–266:
        // errSecAuthFailed on the add, every class).
        if let flags = query.accessControl?.flags, flags & AccessControl.privateKeyUsage != 0,
            query.attributes[QueryKey.tokenID] == nil
        {
            throw KeychainError(.authenticationFailed, "kSecAccessControlPrivateKeyUsage applies to token keys only")
        }
        let accessControl = AccessControl(
            protection: query.protection ?? itemClass.defaultProtection,
            flags: query.accessControl?.flags ?? 0
        )

        var attributes = query.attributes
        attributes["agrp"] = .string(try groupForNew(query))
        let secret = query.valueData ?? Data()
        if query.valueData == nil, itemClass != .key {
            attributes[StoredItem.absentDataMark] = .bool(true)
        }
        // A certificate's attributes come from its DER when it is given; one added from attributes
        // only (Apple's si-12 and sec_acl_stress do) keeps the attributes given.
        if itemClass == .certificate, query.valueData != nil {
            let derived = try CertificateAttributes.attributes(ofDER: secret)
            attributes.merge(derived) { given, _ in given }
        }
        let schema = ItemSchema.of(itemClass)
        for descriptor in schema.primaryKey where attributes[descriptor.code] == nil {
            attributes[descriptor.code] = .defaultValue(for: descriptor.kind)
        }
        let now = clock()
        attributes["cdat"] = .date(now)
        attributes["mdat"] = .date(now)

        let identifier = Self.makeIdentifier()
        let sealedAttributes = attributes
        // Adding erases nothing, unless an undecryptable item with the same key is replaced.
        var replaced = false
        defer { if replaced { store.noteErasure() } }
        return try store.write(erasing: false) { db throws(KeychainError) in
            let tiers = try refreshLookupTiers(in: db)
            if !tiers.areSeparate {
                // One tier for every class: a keychain from before the tiers, or one whose protected
                // look-up key was removed. Never write protected rows hashed with the device key then.
                try keybagService.requireKnownClasses(in: itemClass, tiers: tiers, db: db)
            }
            if accessControl.protection == .whenPasscodeSetThisDeviceOnly {
                guard try keybagService.refreshKeybag(in: db).record.hasPasscode == true else {
                    throw KeychainError(.notAvailable, "WhenPasscodeSetThisDeviceOnly items need a passcode")
                }
            }
            let sealed = Result { () throws(KeychainError) in
                try codec.seal(
                    itemClass: itemClass,
                    identifier: identifier,
                    accessControl: accessControl,
                    attributes: sealedAttributes,
                    secret: secret,
                    constraints: accessControl.hasConstraints ? try keybagService.constraints(in: db) : [:],
                    credentials: credentials,
                    operation: .createItem,
                    tiers: tiers
                )
            }
            if case .failure(let error) = sealed, error.code == .constraintDamaged {
                // An item with this primary key sealed to the lock before it was damaged is still
                // there (refused on reading, never deleted): the add is a duplicate of it.
                let tier = try codec.tier(for: accessControl.protection, in: tiers)
                let hashes =
                    [codec.primaryKeyHash(of: sealedAttributes, schema: schema, tier: tier)]
                    + [
                        try otherTierPrimaryKeyHash(
                            of: sealedAttributes,
                            protection: accessControl.protection,
                            schema: schema,
                            tiers: tiers,
                            in: db
                        )
                    ]
                    .compactMap { $0 }
                for hash in hashes where try ItemTable(itemClass).containsPrimaryKey(hash, in: db) {
                    throw KeychainError(.duplicateItem, "an item with the same primary key exists")
                }
            }
            let row = try sealed.get()
            // Apple's primary key leaves the class out: the other tier's hash of it must be free too.
            if let other = try otherTierPrimaryKeyHash(
                of: sealedAttributes,
                protection: accessControl.protection,
                schema: schema,
                tiers: tiers,
                in: db
            ), try ItemTable(itemClass).containsPrimaryKey(other, in: db) {
                guard try removeUndecryptableDuplicate(primaryKeyHash: other, itemClass: itemClass, in: db) else {
                    throw KeychainError(.duplicateItem, "an item with the same primary key exists")
                }
                replaced = true
            }
            let inserted = Result { () throws(KeychainError) in
                try row.insert(into: db, schema: schema)
            }
            if case .failure(let error) = inserted {
                // An undecryptable item with the same key "was never here" (Apple drops such items):
                // remove it and store the new one; a readable one is a real duplicate.
                guard error.code == .duplicateItem,
                    try removeUndecryptableDuplicate(primaryKeyHash: row.primaryKeyHash, itemClass: itemClass, in: db)
                else { throw error }
                replaced = true
                try row.insert(into: db, schema: schema)
            }
            let rowID = db.lastInsertedRowID
            try journalChange(
                of: itemClass,
                identifier: identifier,
                synchronizable: Self.isSynchronizable(sealedAttributes),
                in: db
            )
            let item = StoredItem(
                rowID: rowID,
                itemClass: itemClass,
                identifier: identifier,
                protection: accessControl.protection,
                accessControl: accessControl,
                attributes: sealedAttributes
            )
            // A token key's data is its public key: its secret never leaves the engine.
            let data = item.isTokenKey ? item.tokenPublicKey : secret
            return ItemResult(item, data: query.returnTypes.contains(.data) ? data : nil)
        }
    }

    /// A new random item identifier.
    static func makeIdentifier() -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data(
            (0..<PersistentReference.identifierLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
        )
    }

    /// Deletes the row whose primary-key hash is `primaryKeyHash` if it cannot be decrypted; whether it did.
    func removeUndecryptableDuplicate(
        primaryKeyHash: Data,
        itemClass: ItemClass,
        in db: Database
    ) throws(KeychainError) -> Bool {
        let table = ItemTable(itemClass)
        guard let existing = try table.row(primaryKeyHash: primaryKeyHash, in: db), let rowID = existing.rowID else {
            return false
        }
        // An item that merely needs authentication is a real duplicate; so is one whose lock in
        // the keybag is damaged: the item itself may be intact, and deleting it would lose it.
        let readable = Result { () throws(KeychainError) in
            _ = try codec.openSecret(
                existing,
                item: try codec.openMetadata(existing, itemClass: itemClass),
                currentConstraints: { () throws(KeychainError) in try keybagService.constraints(in: db) }
            )
        }
        switch readable {
        case .success:
            return false
        case .failure(let error)
        where error.code == .authenticationNeeded || error.code == .authenticationFailed
            || error.code == .constraintDamaged:
            return false
        case .failure(let error) where error.code == .decode || error.code == .itemInvalidated:
            try table.deleteRows([rowID], in: db)
            logger.warning("replaced an undecryptable item", metadata: ["keychain.item.class": "\(table.name)"])
            return true
        case .failure(let error):
            throw error
        }
    }

    /// The access group a new item (or key blob) of `query` goes to: the one it names, if the caller may
    /// write it, else the caller's first writable group.
    func groupForNew(_ query: ItemQuery) throws(KeychainError) -> String {
        let callerGroups = accessGroups(of: query).writable
        if let group = query.accessGroup {
            guard callerGroups.permits(group) else {
                throw KeychainError(.missingEntitlement, "this process may not use access group \(group)")
            }
            return group
        }
        guard let group = callerGroups.groupForNewItems else {
            throw KeychainError(.missingEntitlement, "this process has no keychain access groups")
        }
        return group
    }
}
