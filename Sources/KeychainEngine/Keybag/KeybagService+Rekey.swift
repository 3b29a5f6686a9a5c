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
import Foundation
import GRDB
import KeychainCore
import Logging

extension KeybagService {
    // MARK: Replacing the class keys

    /// Replaces what opens the passcode-protected items, in the caller's write transaction: the
    /// class keys `old` by `new` (the same keys when only the look-up tiers move), the protected
    /// look-up key by a fresh one, every protected row sealed again (``ItemCodec/rekeyed(_:itemClass:from:to:)``),
    /// the constraint keys re-wrapped and authenticated under the new `cku` key, and the blob keys re-wrapped
    /// under the new class keys, with a new generation begun.
    ///
    /// This is what makes a copy of the keybag from before the passcode (or before a passcode
    /// change) useless for anything written since: its class keys and look-up key open nothing
    /// stored now. `passcodeKey` wraps the new class keys and the passcode constraint key (`nil` without a
    /// passcode); `oldPasscodeKey` unwraps the passcode constraint key if there is one.
    func rekey(
        _ record: inout KeybagRecord,
        from old: [ProtectionClass: SymmetricKey],
        to new: [ProtectionClass: SymmetricKey],
        passcodeKey: SymmetricKey?,
        oldPasscodeKey: SymmetricKey?,
        in db: Database,
        progress: RekeyProgress?
    ) throws(KeychainError) {
        guard let newConstraintWrappingKey = new[Self.biometryWrappingClass] else {
            throw KeychainError(
                .internalInconsistency,
                "re-keying needs the \(Self.biometryWrappingClass.rawValue) class key"
            )
        }
        let oldTiers = try keybag.lookupTiers(of: record, classKeys: old)
        record.sealedProtectedLookupKey = try Keybag.sealProtectedLookupKey(
            SymmetricKey(size: .bits256),
            classKey: newConstraintWrappingKey
        )
        let newTiers = try keybag.lookupTiers(of: record, classKeys: new)
        let from = RowKeys(classKeys: old, tiers: oldTiers)
        let to = RowKeys(classKeys: new, tiers: newTiers)
        var total = 0
        for itemClass in ItemClass.storedClasses {
            total += try ItemTable(itemClass).count(in: db)
        }
        var completed = 0
        for itemClass in ItemClass.storedClasses {
            try rekeyRows(of: itemClass, from: from, to: to, in: db) {
                completed += 1
                if completed % 1000 == 0 || completed == total { progress?(completed, total) }
            }
        }
        record.constraints = try rekeyedConstraints(
            record.constraints,
            oldConstraintWrappingKey: old[Self.biometryWrappingClass],
            newConstraintWrappingKey: newConstraintWrappingKey,
            oldPasscodeKey: oldPasscodeKey,
            passcodeKey: passcodeKey
        )
        record.wrappedBlobKeys = try rewrappedBlobKeys(record.wrappedBlobKeys, from: old, to: new)
        record.wrappedClassKeys = try wrap(new, passcodeKey: passcodeKey)
        if old.contains(where: { protection, key in protection.isPasscodeProtected && new[protection] != key }) {
            record.classKeyEpoch = KeybagRecord.newEpoch()
        }
        record.needsClassKeyRotation = false
    }

    /// The constraint keys re-wrapped for new keys and authenticated under the new `cku` key; with a
    /// passcode, the passcode constraint key and the `biometryAny` constraint key exist afterwards.
    ///
    /// A constraint key that fails its check stays as it is, marked damaged: its items are refused, never deleted.
    private func rekeyedConstraints(
        _ constraints: [AccessPolicy.Constraint: ConstraintKeyRecord],
        oldConstraintWrappingKey: SymmetricKey?,
        newConstraintWrappingKey: SymmetricKey,
        oldPasscodeKey: SymmetricKey?,
        passcodeKey: SymmetricKey?
    ) throws(KeychainError) -> [AccessPolicy.Constraint: ConstraintKeyRecord] {
        let oldAuthentication = oldConstraintWrappingKey.map { ConstraintKeyRecord.authenticationKey(classKey: $0) }
        let newAuthentication = ConstraintKeyRecord.authenticationKey(classKey: newConstraintWrappingKey)
        var result: [AccessPolicy.Constraint: ConstraintKeyRecord] = [:]
        for (kind, key) in constraints {
            let oldWrapping = kind == .passcode ? oldPasscodeKey : oldConstraintWrappingKey
            let newWrapping = kind == .passcode ? passcodeKey : newConstraintWrappingKey
            let checked = key.mac == nil && !key.isDamaged ? key : key.verified(oldAuthentication)
            guard checked.isIntact, let oldWrapping, let newWrapping,
                let rewrapped = try? checked.rewrapped(from: oldWrapping, to: newWrapping)
            else {
                var damaged = key
                damaged.isDamaged = true
                damaged.mac = nil
                result[kind] = damaged
                continue
            }
            result[kind] = rewrapped.authenticated(newAuthentication)
        }
        if let passcodeKey, result[.passcode] == nil {
            result[.passcode] = try ConstraintKeyRecord.make(.passcode, wrappingKey: passcodeKey).authenticated(
                newAuthentication
            )
        }
        if passcodeKey != nil, result[.biometryAny] == nil {
            result[.biometryAny] = try ConstraintKeyRecord.make(.biometryAny, wrappingKey: newConstraintWrappingKey)
                .authenticated(newAuthentication)
        }
        return result
    }

    /// Every generation of the blob keys re-wrapped from the `old` class keys to the `new` ones, and a new
    /// generation for each class whose key changed.
    ///
    /// The old generations stay: the blobs they sealed are kept by applications, not here, and cannot be
    /// sealed again. One that does not open is kept as it is (its blobs are refused); a class with no new
    /// key loses its blob keys and its blobs.
    private func rewrappedBlobKeys(
        _ wrapped: [ProtectionClass: [Data]],
        from old: [ProtectionClass: SymmetricKey],
        to new: [ProtectionClass: SymmetricKey]
    ) throws(KeychainError) -> [ProtectionClass: [Data]] {
        var result: [ProtectionClass: [Data]] = [:]
        for (protection, generations) in wrapped {
            guard let newKey = new[protection] else { continue }
            var rewrapped: [Data] = []
            for (generation, sealed) in generations.enumerated() {
                let binding = KeybagRecord.blobKeyBinding(protection, generation: generation).bytes
                guard let oldKey = old[protection],
                    let blobKey = try? AtRestCipher.unwrap(sealed, using: oldKey, binding: binding)
                else {
                    logger.error(
                        "a blob key does not open with its class key; the keys sealed under it are refused",
                        metadata: ["keychain.class": "\(protection.rawValue)"]
                    )
                    rewrapped.append(sealed)
                    continue
                }
                rewrapped.append(try AtRestCipher.wrap(blobKey, using: newKey, binding: binding))
            }
            if old[protection] != newKey {
                let binding = KeybagRecord.blobKeyBinding(protection, generation: rewrapped.count).bytes
                rewrapped.append(try AtRestCipher.wrap(SymmetricKey(size: .bits256), using: newKey, binding: binding))
            }
            result[protection] = rewrapped
        }
        return result
    }

    /// Wraps class keys: the passcode-protected ones by `passcodeKey` when there is one, the rest
    /// by the device key.
    func wrap(
        _ keys: [ProtectionClass: SymmetricKey],
        passcodeKey: SymmetricKey?
    ) throws(KeychainError) -> [ProtectionClass: Data] {
        var wrapped: [ProtectionClass: Data] = [:]
        for (protection, key) in keys {
            let wrappingKey = protection.isPasscodeProtected ? passcodeKey ?? keybag.deviceKey : keybag.deviceKey
            wrapped[protection] = try AtRestCipher.wrap(
                key,
                using: wrappingKey,
                binding: KeybagRecord.classKeyBinding(protection).bytes
            )
        }
        return wrapped
    }

    // MARK: Rows

    private func rekeyRows(
        of itemClass: ItemClass,
        from old: RowKeys,
        to new: RowKeys,
        in db: Database,
        didRow: () -> Void
    ) throws(KeychainError) {
        let schema = ItemSchema.of(itemClass)
        let table = ItemTable(itemClass)
        // Row by row, by rowid: a large keychain is never held in memory at once.
        let rowIDs = try table.rowIDs(in: db)
        if !old.tiers.areSeparate {
            try requireKnownClasses(in: itemClass, tiers: old.tiers, db: db)
        }
        var damaged = 0
        for rowID in rowIDs {
            defer { didRow() }
            guard let row = try table.row(rowID, in: db) else { continue }
            if row.isTombstone, old.classKeys[.whenPasscodeSetThisDeviceOnly] == nil,
                old.tiers.protection(forTag: row.protectionTag, table: table.name, identifier: row.identifier)
                    == .whenPasscodeSetThisDeviceOnly
            {
                // Lost with an earlier passcode: nothing to seal again, and nothing to keep.
                try table.deleteRows([rowID], in: db)
                continue
            }
            let moved = Result { () throws(KeychainError) in
                try codec.rekeyed(row, itemClass: itemClass, from: old, to: new)
            }
            switch moved {
            case .success(let rekeyed?):
                try rekeyed.update(in: db, schema: schema)
            case .success(nil):
                continue
            case .failure(let error) where error.code == .decode:
                // Undecryptable before and after; its old hashes would let an old copy of the keybag
                // confirm its attributes, so they are replaced by random bytes (its ciphertexts stay).
                try scrambleLookupColumns(of: row, schema: schema, in: db)
                damaged += 1
            case .failure(let error):
                throw error
            }
        }
        if damaged > 0 {
            logger.warning(
                "replaced the look-up hashes of undecryptable items by random bytes",
                metadata: ["keychain.item.class": "\(itemClass.rawValue)", "keychain.item.count": "\(damaged)"]
            )
        }
    }

    /// Refuses to move a keychain to separate tiers when a row's class tag is one the single tier
    /// does not know: such a keychain had a protected look-up key that its keybag no longer names
    /// (tampering), and moving would strand those rows for good.
    func requireKnownClasses(in itemClass: ItemClass, tiers: LookupTiers, db: Database) throws(KeychainError) {
        let table = itemClass.tableName
        let tags = ProtectionClass.allCases.compactMap { tiers.device.sharedTag($0, table: table) }
        let unknown = try ItemTable(itemClass).containsRows(taggedOutside: tags, in: db)
        if unknown {
            throw KeychainError(
                .decode,
                "\(table) holds rows of no known class: the keybag's look-up tiers were tampered with; the keychain refuses to write"
            )
        }
    }

    /// Replaces a row's class tag and look-up hashes by random bytes.
    private func scrambleLookupColumns(of row: ItemRow, schema: ItemSchema, in db: Database) throws(KeychainError) {
        func random() -> Data { SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) } }
        var scrambled = row
        scrambled.protectionTag = random()
        scrambled.primaryKeyHash = random()
        for code in row.keyColumns.keys {
            scrambled.keyColumns[code] = random()
        }
        try scrambled.update(in: db, schema: schema)
    }
}
