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
import Foundation
package import KeychainCore

/// The keys a row is sealed with: the class keys and the look-up tiers.
package struct RowKeys: Sendable {
    package var classKeys: [ProtectionClass: SymmetricKey]
    package var tiers: LookupTiers

    package init(classKeys: [ProtectionClass: SymmetricKey], tiers: LookupTiers) {
        self.classKeys = classKeys
        self.tiers = tiers
    }
}

extension ItemCodec {
    /// A passcode-protected row sealed again for `new` class keys and look-up tiers; `nil` for a
    /// row of a class that keeps its keys (`dk`, `dku`).
    ///
    /// Its metadata and secret keys are wrapped by the new class key, its class tag and look-up
    /// hashes are those of the new protected tier, and its metadata is sealed again to bind them
    /// (and padded, if it was not). The item's own keys, its secret's ciphertext and its
    /// identifier stay: nothing about the item changes but what opens it.
    ///
    /// - Throws: ``KeychainError/Code/decode`` when the row does not open with the `old` keys.
    package func rekeyed(
        _ row: ItemRow,
        itemClass: ItemClass,
        from old: RowKeys,
        to new: RowKeys
    ) throws(KeychainError) -> ItemRow? {
        let table = itemClass.tableName
        let schema = ItemSchema.of(itemClass)
        guard let protection = old.tiers.protection(forTag: row.protectionTag, table: table, identifier: row.identifier)
        else {
            throw KeychainError(.decode, "an item's protection class is damaged")
        }
        guard protection.isPasscodeProtected else { return nil }
        if protection == .whenPasscodeSetThisDeviceOnly, old.classKeys[protection] == nil {
            // Lost with an earlier passcode but not erased (damage, or a copy from mid-removal).
            throw KeychainError(.decode, "an item of a destroyed class")
        }
        guard let oldKey = old.classKeys[protection], let newKey = new.classKeys[protection] else {
            throw KeychainError(.internalInconsistency, "re-keying needs every class key")
        }
        let tier = try tier(for: protection, in: new.tiers)
        let (metadataKey, plaintext) = try openMetadataPlaintext(
            row,
            protection: protection,
            schema: schema,
            classKey: oldKey
        )
        let attributes = try MetadataCodec.decode(plaintext)
        let (keyColumns, primaryKeyHash) = keyHashes(of: attributes, schema: schema, tier: tier)
        let binding = Self.binding(table: table, identifier: row.identifier, protection: protection)

        let envelope: SecretKeyEnvelope
        switch try SecretKeyEnvelope(serialized: row.secretKeyEnvelope) {
        case .classWrapped(let wrapped):
            let secretKey = try AtRestCipher.unwrap(wrapped, using: oldKey, binding: binding("skey"))
            envelope = .classWrapped(try AtRestCipher.wrap(secretKey, using: newKey, binding: binding("skey")))
        case .constrained(let sealed):
            var sealedEnvelope = try AtRestCipher.open(sealed, using: oldKey, binding: binding("skey"))
            defer { sealedEnvelope.resetBytes(in: 0..<sealedEnvelope.count) }
            envelope = .constrained(try AtRestCipher.seal(sealedEnvelope, using: newKey, binding: binding("skey")))
        }
        var rekeyed = row
        rekeyed.protectionTag = tier.protectionTag(protection, table: table, identifier: row.identifier)
        rekeyed.keyColumns = keyColumns
        rekeyed.primaryKeyHash = primaryKeyHash
        rekeyed.wrappedMetadataKey = try AtRestCipher.wrap(metadataKey, using: newKey, binding: binding("mkey"))
        rekeyed.metadata = try AtRestCipher.seal(
            LengthPadding.pad(plaintext, smallest: LengthPadding.metadataBucket),
            using: metadataKey,
            binding: Self.metadataBinding(
                table: table,
                identifier: row.identifier,
                protection: protection,
                hashes: (primaryKeyHash, keyColumns),
                schema: schema
            )
        )
        rekeyed.secretKeyEnvelope = envelope.serialized
        return rekeyed
    }
}
