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
package import Foundation
package import KeychainCore

/// Seals items into rows and opens rows into items, with the keybag's keys.
///
/// Each item has two fresh AES-256 keys: one encrypts its metadata (every attribute), the other its
/// secret. Both are wrapped by the item's class key. Every ciphertext's associated data names the
/// table, the item's random identifier and the protection class, so a blob copied to another row,
/// column or class fails to open.
package struct ItemCodec: Sendable {
    package let keybag: Keybag
    /// The cost given to new application-password wrappings.
    package let passcodeKDF: PasscodeKDF
    /// The least cost accepted from an item's stored application-password parameters.
    package let minimumKDF: PasscodeKDF

    package init(keybag: Keybag, passcodeKDF: PasscodeKDF = .standard) {
        self.keybag = keybag
        self.passcodeKDF = passcodeKDF
        minimumKDF = PasscodeKDF.minimumAccepted(configured: passcodeKDF)
    }

    // MARK: Hashes

    /// The look-up hashes of a row of `protection` with `attributes`: each primary-key column's and
    /// the whole primary key's, in the tier that hashes `protection`.
    package func keyHashes(
        of attributes: [String: AttributeValue],
        schema: ItemSchema,
        tier: LookupTier
    ) -> (columns: [String: Data], primaryKey: Data) {
        let table = schema.itemClass.tableName
        var keyColumns: [String: Data] = [:]
        var keyTuple: [[UInt8]] = []
        for descriptor in schema.primaryKey {
            let value = attributes[descriptor.code] ?? AttributeValue.defaultValue(for: descriptor.kind)
            keyColumns[descriptor.code] = tier.columnHash(value, descriptor: descriptor, table: table)
            keyTuple.append(value.canonicalBytes(for: descriptor.kind))
        }
        return (keyColumns, tier.primaryKeyHash(table: table, values: keyTuple))
    }

    /// The hash of `attributes`' whole primary key in `tier` (``keyHashes(of:schema:tier:)`` without the columns).
    package func primaryKeyHash(of attributes: [String: AttributeValue], schema: ItemSchema, tier: LookupTier) -> Data {
        tier.primaryKeyHash(
            table: schema.itemClass.tableName,
            values: schema.primaryKey.map {
                (attributes[$0.code] ?? AttributeValue.defaultValue(for: $0.kind)).canonicalBytes(for: $0.kind)
            }
        )
    }

    /// The tier that hashes `protection` now.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` before the first unlock for a passcode-protected class.
    package func tier(for protection: ProtectionClass, in tiers: LookupTiers) throws(KeychainError) -> LookupTier {
        guard let tier = tiers.tier(for: protection) else {
            throw KeychainError(.interactionNotAllowed, "the \(protection.rawValue) class is locked")
        }
        return tier
    }

    // MARK: Sealing

    /// Encrypts an item into a row.
    ///
    /// `attributes` must hold every primary-key attribute.
    ///
    /// An item whose access control has constraints has its secret key sealed to the keybag's
    /// constraint keys (see ``ConstraintEnvelope``); `credentials` supply the application password key if needed.
    package func seal(
        itemClass: ItemClass,
        identifier: Data,
        accessControl: AccessControl,
        attributes: [String: AttributeValue],
        secret: Data,
        constraints: [AccessPolicy.Constraint: ConstraintKeyRecord] = [:],
        credentials: AuthenticationCredentials = AuthenticationCredentials(),
        operation: AccessOperation = .createItem,
        tiers: LookupTiers? = nil
    ) throws(KeychainError) -> ItemRow {
        let protection = accessControl.protection
        guard let classKey = keybag.classKey(protection) else {
            throw KeychainError(.interactionNotAllowed, "the \(protection.rawValue) class is locked")
        }
        let table = itemClass.tableName
        let schema = ItemSchema.of(itemClass)
        let tier = try tier(for: protection, in: tiers ?? keybag.lookupTiers)
        let (keyColumns, primaryKeyHash) = keyHashes(of: attributes, schema: schema, tier: tier)
        var stored = attributes
        stored["pdmn"] = .string(protection.rawValue)
        stored["accc"] = .string(accessControl.storedRepresentation)

        let metadataKey = SymmetricKey(size: .bits256)
        let secretKey = SymmetricKey(size: .bits256)
        let binding = Self.binding(table: table, identifier: identifier, protection: protection)
        let envelope: SecretKeyEnvelope
        if accessControl.hasConstraints {
            let constraintEnvelope = try ConstraintEnvelope.seal(
                secretKey,
                accessControl: accessControl,
                operation: operation,
                constraints: constraints,
                applicationKey: applicationKey(credentials),
                newParameters: .make(kdf: passcodeKDF),
                binding: Self.constraintBinding(table: table, identifier: identifier, protection: protection)
            )
            envelope = .constrained(
                try AtRestCipher.seal(constraintEnvelope.serialized, using: classKey, binding: binding("skey"))
            )
        } else {
            envelope = .classWrapped(try AtRestCipher.wrap(secretKey, using: classKey, binding: binding("skey")))
        }
        let metadataBinding = Self.metadataBinding(
            table: table,
            identifier: identifier,
            protection: protection,
            hashes: (primaryKeyHash, keyColumns),
            schema: schema
        )
        return ItemRow(
            identifier: identifier,
            protectionTag: tier.protectionTag(protection, table: table, identifier: identifier),
            primaryKeyHash: primaryKeyHash,
            keyColumns: keyColumns,
            wrappedMetadataKey: try AtRestCipher.wrap(metadataKey, using: classKey, binding: binding("mkey")),
            metadata: try AtRestCipher.seal(
                LengthPadding.pad(MetadataCodec.encode(stored), smallest: LengthPadding.metadataBucket),
                using: metadataKey,
                binding: metadataBinding
            ),
            secretKeyEnvelope: envelope.serialized,
            secret: try AtRestCipher.seal(
                LengthPadding.pad(secret, smallest: LengthPadding.secretBucket),
                using: secretKey,
                binding: binding(Self.paddedSecretColumn)
            )
        )
    }

    // MARK: Opening

    /// Decrypts a row's metadata.
    ///
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` if the item's class is locked,
    ///   ``KeychainError/Code/decode`` if the row was altered.
    package func openMetadata(
        _ row: ItemRow,
        itemClass: ItemClass,
        tiers: LookupTiers? = nil
    ) throws(KeychainError) -> StoredItem {
        let protection = try protection(of: row, table: itemClass.tableName, tiers: tiers ?? keybag.lookupTiers)
        if row.isTombstone {
            // Only what removing the passcode leaves is a tombstone; any other blanked row is damage.
            guard protection == .whenPasscodeSetThisDeviceOnly, !keybag.record.hasPasscode else {
                throw KeychainError(.decode, "an item's keys and ciphertexts are missing")
            }
            throw KeychainError(.itemInvalidated, "the item was lost with the passcode")
        }
        let (_, plaintext) = try openMetadataPlaintext(row, protection: protection, schema: ItemSchema.of(itemClass))
        var attributes = try MetadataCodec.decode(plaintext)
        guard case .string(let stored)? = attributes.removeValue(forKey: "accc"),
            let accessControl = AccessControl(storedRepresentation: stored),
            accessControl.protection == protection
        else {
            throw KeychainError(.decode, "an item's access control is damaged")
        }
        attributes["pdmn"] = nil
        guard let rowID = row.rowID else {
            throw KeychainError(.internalInconsistency, "opening a row without an id")
        }
        return StoredItem(
            rowID: rowID,
            itemClass: itemClass,
            identifier: row.identifier,
            protection: protection,
            accessControl: accessControl,
            attributes: attributes
        )
    }

    /// The class of a row, from its tag.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` when the tag may belong to the
    ///   locked protected tier, ``KeychainError/Code/decode`` when it belongs to no class.
    package func protection(of row: ItemRow, table: String, tiers: LookupTiers) throws(KeychainError) -> ProtectionClass
    {
        if let protection = tiers.protection(forTag: row.protectionTag, table: table, identifier: row.identifier) {
            return protection
        }
        if tiers.protectedTierIsLocked {
            throw KeychainError(.interactionNotAllowed, "the passcode-protected classes are locked")
        }
        throw KeychainError(.decode, "an item's protection class is damaged")
    }

    /// Unwraps a row's metadata key and decrypts its metadata, checking its look-up hashes.
    func openMetadataPlaintext(
        _ row: ItemRow,
        protection: ProtectionClass,
        schema: ItemSchema,
        classKey: SymmetricKey? = nil
    ) throws(KeychainError) -> (key: SymmetricKey, plaintext: Data) {
        guard let classKey = classKey ?? keybag.classKey(protection) else {
            throw KeychainError(.interactionNotAllowed, "the \(protection.rawValue) class is locked")
        }
        let table = schema.itemClass.tableName
        let binding = Self.binding(table: table, identifier: row.identifier, protection: protection)
        let metadataKey = try AtRestCipher.unwrap(row.wrappedMetadataKey, using: classKey, binding: binding("mkey"))
        let hashes = (row.primaryKeyHash, row.keyColumns)
        let padded = Self.metadataBinding(
            table: table,
            identifier: row.identifier,
            protection: protection,
            hashes: hashes,
            schema: schema
        )
        if let plaintext = try? AtRestCipher.open(row.metadata, using: metadataKey, binding: padded) {
            return (metadataKey, try LengthPadding.unpad(plaintext))
        }
        // Rows written before padding (format 2) bound the same hashes under another label; rows
        // written before the look-up hashes were bound (format 1) name only their place.
        let unpadded = Self.metadataBinding(
            table: table,
            identifier: row.identifier,
            protection: protection,
            hashes: hashes,
            schema: schema,
            padded: false
        )
        if let plaintext = try? AtRestCipher.open(row.metadata, using: metadataKey, binding: unpadded) {
            return (metadataKey, plaintext)
        }
        return (metadataKey, try AtRestCipher.open(row.metadata, using: metadataKey, binding: binding("data")))
    }

    /// Decrypts a row's secret.
    ///
    /// - Parameters:
    ///   - row: The item's row.
    ///   - item: The item the row holds; its class, protection class and access control say how to open it.
    ///   - credentials: What the caller's authentication context has earned.
    ///   - operation: The operation the secret is opened for, named when authentication is needed.
    ///   - currentConstraints: The keybag's constraint keys now, read only when the credentials do not open the item.
    /// - Returns: The secret.
    /// - Throws: ``KeychainError/Code/authenticationNeeded`` when the item's access control is
    ///   not satisfied yet, ``KeychainError/Code/itemInvalidated`` when it never can be again.
    package func openSecret(
        _ row: ItemRow,
        item: StoredItem,
        credentials: AuthenticationCredentials = AuthenticationCredentials(),
        operation: AccessOperation = .useItem,
        currentConstraints: () throws(KeychainError) -> [AccessPolicy.Constraint: ConstraintKeyRecord] = { [:] }
    ) throws(KeychainError) -> Data {
        let secretKey = try openSecretKey(
            row,
            item: item,
            credentials: credentials,
            operation: operation,
            currentConstraints: currentConstraints
        )
        let binding = Self.binding(
            table: item.itemClass.tableName,
            identifier: row.identifier,
            protection: item.protection
        )
        if let padded = try? AtRestCipher.open(row.secret, using: secretKey, binding: binding(Self.paddedSecretColumn))
        {
            return try LengthPadding.unpad(padded)
        }
        return try AtRestCipher.open(row.secret, using: secretKey, binding: binding("v_Data"))
    }

    /// Unwraps a row's secret key: proves that the caller may use the item, without decrypting the secret.
    package func openSecretKey(
        _ row: ItemRow,
        item: StoredItem,
        credentials: AuthenticationCredentials,
        operation: AccessOperation,
        currentConstraints: () throws(KeychainError) -> [AccessPolicy.Constraint: ConstraintKeyRecord]
    ) throws(KeychainError) -> SymmetricKey {
        guard let classKey = keybag.classKey(item.protection) else {
            throw KeychainError(.interactionNotAllowed, "the \(item.protection.rawValue) class is locked")
        }
        let table = item.itemClass.tableName
        let binding = Self.binding(table: table, identifier: row.identifier, protection: item.protection)
        let requiresAuthentication = item.accessControl.hasConstraints
        switch try SecretKeyEnvelope(serialized: row.secretKeyEnvelope) {
        case .classWrapped(let wrapped):
            guard !requiresAuthentication else {
                throw KeychainError(.decode, "an access-controlled item's key is not sealed to its constraints")
            }
            return try AtRestCipher.unwrap(wrapped, using: classKey, binding: binding("skey"))
        case .constrained(let sealed):
            guard requiresAuthentication else {
                throw KeychainError(.decode, "an item's key envelope does not match its access control")
            }
            let constraintEnvelope = try ConstraintEnvelope(
                serialized: try AtRestCipher.open(sealed, using: classKey, binding: binding("skey"))
            )
            return try constraintEnvelope.open(
                accessControl: item.accessControl,
                operation: operation,
                credentials: credentials,
                applicationKey: applicationKey(credentials),
                legacyParameters: legacyApplicationPasswordParameters,
                currentConstraints: currentConstraints,
                binding: Self.constraintBinding(table: table, identifier: row.identifier, protection: item.protection)
            )
        }
    }

    // MARK: Private

    static func binding(
        table: String,
        identifier: Data,
        protection: ProtectionClass
    ) -> (String) -> [UInt8] {
        let base = AssociatedData("swift-keychain/v1/item")
            .appending(table)
            .appending(Array(identifier))
            .appending(protection.rawValue)
        return { column in base.appending(column).bytes }
    }

    /// The metadata's associated data: its place, and every look-up hash of the row, so that a
    /// row whose hashes were altered or swapped with another row's fails to open instead of being
    /// found by the wrong query or escaping the uniqueness check.
    static func metadataBinding(
        table: String,
        identifier: Data,
        protection: ProtectionClass,
        hashes: (primaryKey: Data, columns: [String: Data]),
        schema: ItemSchema,
        padded: Bool = true
    ) -> [UInt8] {
        var binding = AssociatedData(padded ? "swift-keychain/v3/item-metadata" : "swift-keychain/v2/item-metadata")
            .appending(table)
            .appending(Array(identifier))
            .appending(protection.rawValue)
            .appending(Array(hashes.primaryKey))
        for descriptor in schema.primaryKey {
            binding.append(Array(hashes.columns[descriptor.code] ?? Data()))
        }
        return binding.bytes
    }

    /// The binding name of a padded secret (rows from before padding use `v_Data`).
    static let paddedSecretColumn = "v_Data/padded"

    /// Derives application-password keys from the password `credentials` hold, if any.
    func applicationKey(_ credentials: AuthenticationCredentials) -> ConstraintEnvelope.ApplicationKey? {
        guard let password = credentials.applicationPassword else { return nil }
        let keybag = keybag
        let minimum = minimumKDF
        return { (parameters) throws(KeychainError) -> SymmetricKey in
            try password.key(for: parameters) { (bytes) throws(KeychainError) -> SymmetricKey in
                try keybag.applicationPasswordKey(for: bytes, parameters: parameters, minimum: minimum)
            }
        }
    }

    /// The salt and cost of application-password wrappings from before each item had its own.
    var legacyApplicationPasswordParameters: ApplicationPasswordParameters? {
        keybag.record.legacyApplicationPassword.map { ApplicationPasswordParameters(kdf: $0.kdf, salt: $0.salt) }
    }

    private static func constraintBinding(
        table: String,
        identifier: Data,
        protection: ProtectionClass
    ) -> AssociatedData {
        AssociatedData("swift-keychain/v1/item-lock")
            .appending(table)
            .appending(Array(identifier))
            .appending(protection.rawValue)
    }
}

/// How an item's secret key is wrapped.
///
/// Kind 0: wrapped by the class key. Kind 1: an ``ConstraintEnvelope`` (one wrapping per alternative of the
/// access control), itself sealed by the class key. New layouts get new kind bytes, so old rows
/// stay readable.
package enum SecretKeyEnvelope: Sendable {
    case classWrapped(Data)
    case constrained(Data)

    private static let version: UInt8 = 1
    private static let classWrappedKind: UInt8 = 0
    private static let constrainedKind: UInt8 = 1

    package init(serialized: Data) throws(KeychainError) {
        guard serialized.count > 2, serialized[serialized.startIndex] == Self.version else {
            throw KeychainError(.decode, "an item's key envelope is damaged")
        }
        switch serialized[serialized.startIndex + 1] {
        case Self.classWrappedKind:
            self = .classWrapped(Data(serialized.dropFirst(2)))
        case Self.constrainedKind:
            self = .constrained(Data(serialized.dropFirst(2)))
        default:
            throw KeychainError(.decode, "an item's key envelope has an unknown kind")
        }
    }

    package var serialized: Data {
        switch self {
        case .classWrapped(let wrapped): Data([Self.version, Self.classWrappedKind]) + wrapped
        case .constrained(let sealed): Data([Self.version, Self.constrainedKind]) + sealed
        }
    }
}
