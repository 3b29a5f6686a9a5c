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

extension Keychain {
    // MARK: Primary keys across tiers

    /// The hash that `attributes`' primary key has in the tier that does not hash `protection`,
    /// where an item with the same primary key would also be a duplicate (Apple's primary keys
    /// leave the class out); `nil` when one tier hashes every class.
    ///
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` before the first unlock when the
    ///   table holds passcode-protected rows: they cannot be ruled out, and a duplicate is refused
    ///   rather than risked.
    func otherTierPrimaryKeyHash(
        of attributes: [String: AttributeValue],
        protection: ProtectionClass,
        schema: ItemSchema,
        tiers: LookupTiers,
        in db: Database
    ) throws(KeychainError) -> Data? {
        guard tiers.areSeparate else { return nil }
        let other: LookupTier
        if protection.isPasscodeProtected {
            other = tiers.device
        } else if let protected = tiers.protected {
            other = protected
        } else {
            if try hasLockedRows(schema.itemClass, tiers: tiers, in: db) {
                throw KeychainError(
                    .interactionNotAllowed,
                    "the passcode-protected items cannot be checked for a duplicate before the first unlock"
                )
            }
            return nil
        }
        return codec.primaryKeyHash(of: attributes, schema: schema, tier: other)
    }

    /// Whether `itemClass`'s table has rows that only the locked protected tier can tell apart.
    private func hasLockedRows(
        _ itemClass: ItemClass,
        tiers: LookupTiers,
        in db: Database
    ) throws(KeychainError) -> Bool {
        try ItemTable(itemClass).containsRows(taggedOutside: tiers.deviceTags(table: itemClass.tableName), in: db)
    }

    // MARK: Following the keybag

    /// The tiers an operation uses from start to end: those of the keybag as `db` sees it.
    func refreshLookupTiers(in db: Database) throws(KeychainError) -> LookupTiers {
        _ = try keybagService.refreshKeybag(in: db)
        return keybag.lookupTiers
    }
}
