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
import KeychainContract
import KeychainCore

extension Keychain {
    /// What restoring one item did.
    enum RestoreOutcome: Equatable {
        case added
        case replaced
        case kept
        case refused(RestoreRefusal)
    }

    /// Restores `items` in one transaction: all of them, or none if the keychain cannot be written.
    ///
    /// An item whose primary key exists keeps the newer of the two (by modification date; the
    /// keychain's on a tie), and keeps its own identifier so that this keychain's persistent references
    /// still find it; a new item keeps the identifier it had, unless this keychain already uses it.
    /// Access control is re-created with this keychain's constraint keys: an item whose access
    /// control this keychain cannot satisfy (no passcode, no enrolled finger) is refused.
    ///
    /// A backup is trusted no further than a genuine one goes: a record no backup writes (a
    /// `…ThisDeviceOnly` item, the daemon's own records of apps' grants) is refused, an item here
    /// that a backup would leave on the device (a Secure Enclave key, a `…ThisDeviceOnly` item, one
    /// bound to the enrolled fingers) is never replaced, and a modification date in the future
    /// counts as now.
    ///
    /// - Parameter items: The items of one part of a backup.
    /// - Returns: What happened to each item, in order.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the keychain is locked; a
    ///   store error (nothing of `items` is then written).
    func restore(_ items: [BackupItem]) throws(KeychainError) -> [RestoreOutcome] {
        var erased = false
        defer { if erased { store.noteErasure() } }
        return try store.write(erasing: false) { db throws(KeychainError) in
            let tiers = try refreshLookupTiers(in: db)
            guard keybag.classKey(.whenUnlocked) != nil, tiers.tier(for: .whenUnlocked) != nil else {
                throw KeychainError(.interactionNotAllowed, "unlock the keychain to restore into it")
            }
            let constraints = try keybagService.constraints(in: db)
            let hasPasscode = try keybagService.refreshKeybag(in: db).record.hasPasscode
            var outcomes: [RestoreOutcome] = []
            outcomes.reserveCapacity(items.count)
            for item in items {
                let outcome = try restore(
                    item,
                    tiers: tiers,
                    constraints: constraints,
                    hasPasscode: hasPasscode,
                    in: db
                )
                if outcome == .replaced { erased = true }
                outcomes.append(outcome)
            }
            return outcomes
        }
    }

    private func restore(
        _ record: BackupItem,
        tiers: LookupTiers,
        constraints: [AccessPolicy.Constraint: ConstraintKeyRecord],
        hasPasscode: Bool,
        in db: Database
    ) throws(KeychainError) -> RestoreOutcome {
        let protection = record.accessControl.protection
        guard Self.omission(of: record.accessControl, attributes: record.attributes) == nil,
            case .string(let group)? = record.attributes["agrp"],
            group != ApplicationRegistry.recordsGroup, group != AccessGroups.synchronizationGroup,
            !AccessGroups.readOnly.contains(group)
        else { return .refused(.invalidItem) }
        var item = record
        let now = clock()
        for date in ["cdat", "mdat"] {
            if case .date(let value)? = item.attributes[date], value > now { item.attributes[date] = .date(now) }
        }
        let schema = ItemSchema.of(item.itemClass)
        let table = ItemTable(item.itemClass)
        if !tiers.areSeparate {
            // A keychain from before the tiers: never write protected rows hashed with the device key.
            try keybagService.requireKnownClasses(in: item.itemClass, tiers: tiers, db: db)
        }
        let tier = try codec.tier(for: protection, in: tiers)
        let hashes =
            [codec.primaryKeyHash(of: item.attributes, schema: schema, tier: tier)]
            + [
                try otherTierPrimaryKeyHash(
                    of: item.attributes,
                    protection: protection,
                    schema: schema,
                    tiers: tiers,
                    in: db
                )
            ]
            .compactMap { $0 }
        var identifier = item.identifier
        var existing: ItemRow?
        for hash in hashes {
            if let row = try table.row(primaryKeyHash: hash, in: db) {
                existing = row
                break
            }
        }
        if let existing, let rowID = existing.rowID {
            let opened = Result { () throws(KeychainError) in
                try codec.openMetadata(existing, itemClass: item.itemClass, tiers: tiers)
            }
            switch opened {
            case .success(let current):
                // What a backup leaves on the device is never replaced from one.
                if Self.omission(of: current.accessControl, attributes: current.attributes) != nil { return .kept }
                let currentDate: Date
                if case .date(let date)? = current.attributes["mdat"] {
                    currentDate = date
                } else {
                    currentDate = .distantPast
                }
                if currentDate >= item.modificationDate { return .kept }
            case .failure(let error) where error.code == .decode || error.code == .itemInvalidated:
                // An item that cannot be read again "was never here": the file's takes its place,
                // unless its class (readable without its metadata) says it stays on the device.
                let existingClass = try? codec.protection(of: existing, table: item.itemClass.tableName, tiers: tiers)
                if existingClass?.isThisDeviceOnly == true { return .kept }
            case .failure(let error):
                throw error
            }
            identifier = existing.identifier
            let sealed = try seal(item, identifier: identifier, constraints: constraints, tiers: tiers)
            guard let row = sealed else { return .refused(.accessControlUnavailable) }
            try table.deleteRow(rowID, identifier: existing.identifier, in: db)
            try row.insert(into: db, schema: schema)
            try journalChange(
                of: item.itemClass,
                identifier: identifier,
                synchronizable: Self.isSynchronizable(item.attributes),
                in: db
            )
            return .replaced
        }
        if try isUsed(identifier, in: table, db: db) { identifier = Self.makeIdentifier() }
        guard let row = try seal(item, identifier: identifier, constraints: constraints, tiers: tiers) else {
            return .refused(.accessControlUnavailable)
        }
        try row.insert(into: db, schema: schema)
        try journalChange(
            of: item.itemClass,
            identifier: identifier,
            synchronizable: Self.isSynchronizable(item.attributes),
            in: db
        )
        return .added
    }

    /// The row of `item`, sealed to this keychain's keys; `nil` when its access control cannot be
    /// created here.
    func seal(
        _ item: BackupItem,
        identifier: Data,
        constraints: [AccessPolicy.Constraint: ConstraintKeyRecord],
        tiers: LookupTiers
    ) throws(KeychainError) -> ItemRow? {
        let sealed = Result { () throws(KeychainError) in
            try codec.seal(
                itemClass: item.itemClass,
                identifier: identifier,
                accessControl: item.accessControl,
                attributes: item.attributes,
                secret: item.secret,
                constraints: item.accessControl.hasConstraints ? constraints : [:],
                operation: .createItem,
                tiers: tiers
            )
        }
        switch sealed {
        case .success(let row): return row
        case .failure(let error) where error.code == .authenticationFailed || error.code == .authenticationNeeded:
            return nil
        case .failure(let error): throw error
        }
    }

    /// Whether a row of `table` has the identifier `identifier`.
    private func isUsed(_ identifier: Data, in table: ItemTable, db: Database) throws(KeychainError) -> Bool {
        var found = false
        try table.forEachRow(matching: RowFilter(identifier: identifier, alternatives: [[]]), in: db) { _ in
            found = true
            return false
        }
        return found
    }
}
