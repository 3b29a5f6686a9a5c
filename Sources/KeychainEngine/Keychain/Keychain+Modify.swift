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

extension Keychain {
    // MARK: Updating

    /// `SecItemUpdate`: applies `changes` to every item matching `query`, all or nothing.
    ///
    /// - Throws: ``KeychainError/Code/itemNotFound`` when nothing matches,
    ///   ``KeychainError/Code/duplicateItem`` when a changed item would collide with another.
    ///   A protected item is opened with `credentials` first (Apple decrypts before updating), so
    ///   updating it needs authentication: ``KeychainError/Code/authenticationNeeded``.
    package func update(
        _ query: ItemQuery,
        with changes: ItemUpdate,
        credentials: AuthenticationCredentials = AuthenticationCredentials()
    ) throws(KeychainError) {
        guard query.itemClass != .identity else {
            throw KeychainError(.itemNotFound, "no identity items exist")
        }
        let query = writing(query)
        guard StoredItem.marks.isDisjoint(with: changes.attributes.keys) else {
            throw KeychainError(.invalidParameter, "unknown key")  // the engine's own marks
        }
        guard changes.attributes[QueryKey.tokenID] == nil, query.keyOperation == nil else {
            throw KeychainError(.invalidParameter, "kSecAttrTokenID cannot be changed")
        }
        if let group = changes.attributes["agrp"] {
            guard case .string(let name) = group else {
                throw KeychainError(.invalidParameter, "an access group must be a string")
            }
            guard accessGroups(of: query).permits(name) else {
                throw KeychainError(.missingEntitlement, "this process may not use access group \(name)")
            }
        }
        let itemClass = query.itemClass
        let schema = ItemSchema.of(itemClass)
        let now = clock()
        try store.write { db throws(KeychainError) in
            let tiers = try refreshLookupTiers(in: db)
            if !tiers.areSeparate {
                // One tier for every class: a keychain from before the tiers, or one whose protected
                // look-up key was removed. Never write protected rows hashed with the device key then.
                try keybagService.requireKnownClasses(in: itemClass, tiers: tiers, db: db)
            }
            var cachedLocks: [AccessPolicy.Constraint: ConstraintKeyRecord]?
            func currentConstraints() throws(KeychainError) -> [AccessPolicy.Constraint: ConstraintKeyRecord] {
                if let cachedLocks { return cachedLocks }
                let fetched = try keybagService.constraints(in: db)
                cachedLocks = fetched
                return fetched
            }
            var targets: [(row: ItemRow, item: StoredItem, secret: Data)] = []
            try forEachMatch(of: query, in: db, limit: nil, tiers: tiers) { (row, item) throws(KeychainError) in
                // A Secure Enclave key's private key and access control are its own for good.
                if item.isTokenKey,
                    changes.valueData != nil || changes.accessControl != nil || changes.protection != nil
                {
                    throw KeychainError(
                        .invalidParameter,
                        "a Secure Enclave key's data and access control cannot be changed"
                    )
                }
                // An item with an access control's constraints never syncs: Apple refuses the pair
                // on add, and on an update that would make it (before anything is asked).
                let flags = changes.accessControl?.flags ?? item.accessControl.flags
                let synchronizable =
                    changes.attributes[QueryKey.synchronizable] ?? item.attributes[QueryKey.synchronizable]
                if case .bool(true)? = synchronizable,
                    AccessControl(protection: item.protection, flags: flags).hasConstraints
                {
                    throw KeychainError(
                        .invalidParameter,
                        "an item with kSecAttrAccessControl constraints is not synchronizable"
                    )
                }
                // Always opened: proves the caller may use the item, even when the secret is replaced.
                let secret = try codec.openSecret(
                    row,
                    item: item,
                    credentials: credentials,
                    operation: .useItem,
                    currentConstraints: currentConstraints
                )
                targets.append((row, item, secret))
                return true
            }
            guard !targets.isEmpty else {
                throw KeychainError(.itemNotFound, "no item matched the query")
            }
            let newProtection = changes.protection
            if newProtection == .whenPasscodeSetThisDeviceOnly,
                try keybagService.refreshKeybag(in: db).record.hasPasscode != true
            {
                throw KeychainError(.notAvailable, "WhenPasscodeSetThisDeviceOnly items need a passcode")
            }
            for (row, item, current) in targets {
                let secret = changes.valueData ?? current
                var attributes = item.attributes
                attributes.merge(changes.attributes) { _, new in new }
                if changes.valueData != nil { attributes[StoredItem.absentDataMark] = nil }
                attributes["mdat"] = .date(now)
                let accessControl = AccessControl(
                    protection: newProtection ?? item.protection,
                    flags: changes.accessControl?.flags ?? item.accessControl.flags
                )
                var updated = try codec.seal(
                    itemClass: itemClass,
                    identifier: item.identifier,
                    accessControl: accessControl,
                    attributes: attributes,
                    secret: secret,
                    constraints: accessControl.hasConstraints ? try currentConstraints() : [:],
                    credentials: credentials,
                    operation: .createItem,
                    tiers: tiers
                )
                updated.rowID = item.rowID
                // A new primary key or class must be free in both tiers. An undecryptable item or
                // a tombstone holding it "was never here" and goes, as for an add.
                if updated.primaryKeyHash != row.primaryKeyHash {
                    let other = try otherTierPrimaryKeyHash(
                        of: attributes,
                        protection: accessControl.protection,
                        schema: schema,
                        tiers: tiers,
                        in: db
                    )
                    for hash in [updated.primaryKeyHash, other].compactMap({ $0 })
                    where try ItemTable(itemClass).containsPrimaryKey(hash, excluding: item.rowID, in: db) {
                        guard try removeUndecryptableDuplicate(primaryKeyHash: hash, itemClass: itemClass, in: db)
                        else {
                            throw KeychainError(.duplicateItem, "the updated item would duplicate another")
                        }
                    }
                }
                try updated.update(in: db, schema: schema)
                try journalChange(
                    of: itemClass,
                    identifier: item.identifier,
                    synchronizable: Self.isSynchronizable(item.attributes) || Self.isSynchronizable(attributes),
                    in: db
                )
            }
        }
    }

    // MARK: Deleting

    /// `SecItemDelete`: removes every item matching `query`.
    ///
    /// Rows that match the query's look-up columns but can no longer be decrypted are removed
    /// too, as Apple drops undecryptable items; they do not count as found. What is left of an
    /// item lost with the passcode (see ``ItemRow/isTombstone``) counts: Apple's delete of a
    /// `WhenPasscodeSetThisDeviceOnly` item right after the passcode was removed succeeds
    /// (`secd-81-item-acl-stress.m`, "delete local - AKPU").
    package func delete(_ query: ItemQuery) throws(KeychainError) {
        guard query.itemClass != .identity else {
            throw KeychainError(.itemNotFound, "no identity items exist")
        }
        let query = writing(query)
        let deleted = try store.write { db throws(KeychainError) in
            var rowIDs: [Int64] = []
            var undecryptable: [Int64] = []
            var tombstones = 0
            let countsTombstones = Self.deleteCountsTombstones(query)
            let skipped = { (row: ItemRow, code: KeychainError.Code) in
                guard let rowID = row.rowID else { return }
                undecryptable.append(rowID)
                if code == .itemInvalidated, row.isTombstone, countsTombstones { tombstones += 1 }
            }
            var synchronizable: [Data] = []
            try forEachMatch(of: query, in: db, limit: nil, skipped: skipped) { (_, item) throws(KeychainError) in
                rowIDs.append(item.rowID)
                if Self.isSynchronizable(item.attributes) { synchronizable.append(item.identifier) }
                return true
            }
            try ItemTable(query.itemClass).deleteRows(rowIDs + undecryptable, in: db)
            for identifier in synchronizable {
                try journalChange(of: query.itemClass, identifier: identifier, synchronizable: true, in: db)
            }
            return rowIDs.count + tombstones
        }
        guard deleted > 0 else {
            throw KeychainError(.itemNotFound, "no item matched the query")
        }
    }

    /// Whether a delete counts the tombstones it meets as found: only their look-up columns are
    /// left, so only a query that asks nothing else of an item (its primary key, and the class,
    /// access control and data Apple's test passes along) can be said to match one.
    private static func deleteCountsTombstones(_ query: ItemQuery) -> Bool {
        let primaryKey = Set(ItemSchema.of(query.itemClass).primaryKey.map(\.code))
        return query.attributes.keys.allSatisfy(primaryKey.contains)
            && (query.protection == nil || query.protection == .whenPasscodeSetThisDeviceOnly)
            && query.hostOrSubdomainOf == nil
    }
}
