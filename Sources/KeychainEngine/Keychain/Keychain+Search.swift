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
import Logging

extension Keychain {
    // MARK: Searching

    /// `SecItemCopyMatching`: the items that match, decrypted as far as the query asks.
    ///
    /// An item whose access control has constraints is opened with `credentials` even when only
    /// its attributes are asked for, as Apple's securityd does; under `kSecUseAuthenticationUISkip`
    /// such an item is left out instead. Items whose access control can never be satisfied again
    /// (a changed biometric set, a removed passcode) are removed and not returned.
    ///
    /// - Throws: ``KeychainError/Code/itemNotFound`` when nothing matches,
    ///   ``KeychainError/Code/interactionNotAllowed`` when a matching item's class is locked,
    ///   ``KeychainError/Code/authenticationNeeded`` when a matching item needs credentials
    ///   the caller does not have yet.
    package func search(
        _ query: ItemQuery,
        credentials: AuthenticationCredentials = AuthenticationCredentials()
    ) throws(KeychainError) -> [ItemResult] {
        guard query.itemClass != .identity else {
            // Identities pair a certificate with its private key reference; none exist without SecKey.
            throw KeychainError(.itemNotFound, "no identity items exist")
        }
        if case .count(0) = query.matchLimit {
            throw KeychainError(.itemNotFound, "kSecMatchLimit is 0")
        }
        if let operation = query.keyOperation, operation.isWrapped {
            return [try useKeyBlob(operation, query: query, credentials: credentials)]
        }
        if let operation = query.keyOperation {
            // Its output is the item's data, so it asks for data: whatever guards reads of secrets
            // (an app's items, for another program) guards it too.
            guard operation != .generate, query.itemClass == .key, query.matchLimit == .one,
                query.returnTypes.contains(.data)
            else {
                throw KeychainError(.invalidParameter, "a key operation uses one key item and returns data")
            }
        }
        let wantsData = query.returnTypes.contains(.data)
        var invalidated: [ItemRow] = []
        let results = try store.read { db throws(KeychainError) in
            var results: [ItemResult] = []
            // Rows are opened with the class keys this process holds; if another thread follows a
            // newer keybag (new class keys) meanwhile, the read runs again on a newer snapshot.
            let tiers = try refreshLookupTiers(in: db)
            let generation = keybag.generation
            defer { if keybag.generation != generation { invalidated.removeAll() } }
            try forEachMatch(
                of: query,
                in: db,
                limit: query.matchLimit.maximum,
                tiers: tiers,
                skipped: { row, code in if code == .itemInvalidated { invalidated.append(row) } }
            ) { row, item throws(KeychainError) in
                // A token key is found, and its public key handed out, without opening it; only an
                // operation with its private key asks for its access control.
                if item.isTokenKey, query.keyOperation == nil {
                    results.append(ItemResult(item, data: wantsData ? item.tokenPublicKey : nil))
                    return true
                }
                guard query.keyOperation == nil || item.isTokenKey else {
                    throw KeychainError(.invalidParameter, "the key is not a Secure Enclave key")
                }
                let isProtected = item.accessControl.hasConstraints
                guard wantsData || isProtected || query.keyOperation != nil else {
                    results.append(ItemResult(item, data: nil))
                    return true
                }
                let opened = Result { () throws(KeychainError) in
                    try codec.openSecret(
                        row,
                        item: item,
                        credentials: credentials,
                        operation: query.keyOperation?.accessOperation ?? .useItem,
                        currentConstraints: { () throws(KeychainError) in try keybagService.constraints(in: db) }
                    )
                }
                switch opened {
                case .success(let data):
                    if let operation = query.keyOperation {
                        results.append(
                            ItemResult(
                                item,
                                data: try StoredEnclaveKeys.perform(
                                    operation,
                                    secret: data,
                                    publicKey: item.tokenPublicKey,
                                    hardware: enclaveHardware
                                )
                            )
                        )
                    } else {
                        results.append(ItemResult(item, data: wantsData ? data : nil))
                    }
                    return true
                case .failure(let error) where error.code == .authenticationNeeded && query.authenticationUI == .skip:
                    return false
                case .failure(let error):
                    throw error
                }
            }
            if keybag.generation != generation {
                throw KeychainError(.staleSnapshot, "the class keys changed during the search")
            }
            return results
        }
        if !invalidated.isEmpty {
            try removeInvalidated(invalidated, itemClass: query.itemClass)
        }
        guard !results.isEmpty else {
            throw KeychainError(.itemNotFound, "no item matched the query")
        }
        return results
    }

    /// Deletes rows whose access control can never be satisfied again, as Apple drops such items.
    func removeInvalidated(_ rows: [ItemRow], itemClass: ItemClass) throws(KeychainError) {
        let table = ItemTable(itemClass)
        try store.write { db throws(KeychainError) in
            for row in rows {
                guard let rowID = row.rowID else { continue }
                try table.deleteRow(rowID, identifier: row.identifier, in: db)
            }
        }
        logger.notice(
            "removed items whose access control can no longer be satisfied",
            metadata: ["keychain.item.class": "\(itemClass.rawValue)", "keychain.item.count": "\(rows.count)"]
        )
    }

    // MARK: Matching

    /// Calls `body` for each decryptable item matching `query`, in insertion order, until `limit`
    /// items were counted (`body` returns whether the item counts).
    ///
    /// Look-up columns narrow the rows with an index; each candidate is then decrypted and checked
    /// against every attribute of the query. A row that fails to decrypt (or whose `body` fails
    /// with ``KeychainError/Code/decode`` or ``KeychainError/Code/itemInvalidated``) is
    /// skipped, as Apple skips an item "that was never here"; if `skipped` is given, such rows are
    /// reported to it with the reason. Before the first unlock, passcode-protected rows cannot be
    /// told apart: if the limit is not reached without them, the search reports the lock.
    func forEachMatch(
        of query: ItemQuery,
        in db: Database,
        limit: Int?,
        tiers known: LookupTiers? = nil,
        skipped: ((ItemRow, KeychainError.Code) -> Void)? = nil,
        _ body: (ItemRow, StoredItem) throws(KeychainError) -> Bool
    ) throws(KeychainError) {
        let schema = ItemSchema.of(query.itemClass)
        let tiers: LookupTiers
        if let known { tiers = known } else { tiers = try refreshLookupTiers(in: db) }
        let filter = try selection(for: query, schema: schema, tiers: tiers)
        let table = query.itemClass.tableName
        var found = 0
        var lockedCandidates = false
        try ItemTable(query.itemClass).forEachRow(matching: filter, in: db) { row throws(KeychainError) -> Bool in
            if tiers.protectedTierIsLocked,
                tiers.protection(forTag: row.protectionTag, table: table, identifier: row.identifier) == nil
            {
                // A passcode-protected row before the first unlock: it may match or not.
                lockedCandidates = true
                return true
            }
            let opened = Result { () throws(KeychainError) in
                try codec.openMetadata(row, itemClass: query.itemClass, tiers: tiers)
            }
            let item: StoredItem
            switch opened {
            case .success(let value):
                item = value
            case .failure(let error) where error.code == .decode:
                logger.warning(
                    "skipping an item that cannot be decrypted",
                    metadata: ["keychain.item.class": "\(query.itemClass.rawValue)"]
                )
                skipped?(row, error.code)
                return true
            case .failure(let error) where error.code == .itemInvalidated:
                // A tombstone: only its look-up columns matched; nothing else of it is left to check.
                skipped?(row, error.code)
                return true
            case .failure(let error):
                throw error
            }
            guard matches(item, query, schema: schema) else { return true }
            let handled = Result { () throws(KeychainError) in try body(row, item) }
            switch handled {
            case .success(let counts):
                guard counts else { return true }
            case .failure(let error) where error.code == .decode || error.code == .itemInvalidated:
                skipped?(row, error.code)
                return true
            case .failure(let error):
                throw error
            }
            found += 1
            if let limit, found >= limit {
                lockedCandidates = false  // the limit was reached: locked rows change nothing
                return false
            }
            return true
        }
        if lockedCandidates {
            // Fewer items than asked for, and the rest may be among the locked ones.
            throw KeychainError(
                .interactionNotAllowed,
                "the passcode-protected classes are locked until the first unlock"
            )
        }
    }

    /// The rows that may match a query.
    ///
    /// Each look-up tier (see ``LookupTier``) narrows its own rows with its own hashes; the
    /// alternatives are joined with `OR`. Before the first unlock the protected tier cannot be
    /// hashed, so every protected row is a candidate, and opening it reports the lock, as a
    /// matching locked item does.
    private func selection(
        for query: ItemQuery,
        schema: ItemSchema,
        tiers: LookupTiers
    ) throws(KeychainError) -> RowFilter {
        let table = query.itemClass.tableName
        var filter = RowFilter(identifier: query.persistentReference?.identifier)
        var groupsToMatch: [String]?
        let callerGroups = accessGroups(of: query)
        if query.attributes[QueryKey.accessGroup] != nil, query.accessGroup == nil {
            throw KeychainError(.invalidParameter, "an access group must be a string")
        }
        if let group = query.accessGroup {
            guard callerGroups.permits(group) else {
                throw KeychainError(.missingEntitlement, "this process may not use access group \(group)")
            }
        } else if !callerGroups.grantsAll {
            guard !callerGroups.groups.isEmpty, schema.attribute("agrp") != nil else {
                throw KeychainError(.missingEntitlement, "this process has no keychain access groups")
            }
            groupsToMatch = callerGroups.groups
        }
        for tier in tiers.available {
            if let protection = query.protection, !tier.covers(protection) { continue }
            var conditions: [RowFilter.Condition] = []
            if let groups = groupsToMatch, let descriptor = schema.attribute("agrp") {
                conditions.append(
                    .isIn(column: "agrp", tier.accessGroupHashes(groups, descriptor: descriptor, table: table))
                )
            }
            for descriptor in schema.primaryKey {
                guard let value = query.attributes[descriptor.code] else { continue }
                conditions.append(
                    .equals(column: descriptor.code, tier.columnHash(value, descriptor: descriptor, table: table))
                )
            }
            if let protection = query.protection, let tag = tier.sharedTag(protection, table: table) {
                conditions.append(.equals(column: "pdmn", tag))
            }
            filter.alternatives.append(conditions)
        }
        if tiers.protectedTierIsLocked, query.protection?.isPasscodeProtected ?? true {
            filter.alternatives.append([.notIn(column: "pdmn", tiers.deviceTags(table: table))])
        }
        return filter
    }

    /// Whether a decrypted item has every attribute value of the query.
    private func matches(_ item: StoredItem, _ query: ItemQuery, schema: ItemSchema) -> Bool {
        if let protection = query.protection, protection != item.protection { return false }
        let callerGroups = accessGroups(of: query)
        if !callerGroups.grantsEverything {
            if case .string(let group)? = item.attributes["agrp"] {
                guard callerGroups.permits(group) else { return false }
            } else if !callerGroups.grantsAll {
                return false
            }
        }
        if let host = query.hostOrSubdomainOf {
            // Apple's isHostOrSubdomainOfHost: the server is the host, or ends in "." and the host.
            guard case .string(let server)? = item.attributes["srvr"], server == host || server.hasSuffix("." + host)
            else { return false }
        }
        for (code, wanted) in query.attributes {
            guard let descriptor = schema.attribute(code) else { return false }
            let stored = item.attributes[code] ?? (descriptor.isPrimaryKey ? .defaultValue(for: descriptor.kind) : nil)
            guard let stored, stored.canonicalBytes(for: descriptor.kind) == wanted.canonicalBytes(for: descriptor.kind)
            else { return false }
        }
        return true
    }
}
