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

public import Foundation
public import GRDB

/// One row of an item table, exactly as stored: keyed hashes and ciphertexts, nothing in the clear.
package struct ItemRow: Sendable {
    package var rowID: Int64?
    /// 16 random bytes: the item's identity, in the persistent reference and every ciphertext's binding.
    package var identifier: Data
    /// The keyed hash of the protection class.
    package var protectionTag: Data
    /// The keyed hash of the whole primary key (UNIQUE).
    package var primaryKeyHash: Data
    /// The keyed hash of each primary-key attribute, by code.
    package var keyColumns: [String: Data]
    /// The metadata key, wrapped by the class key.
    package var wrappedMetadataKey: Data
    /// The encrypted attributes.
    package var metadata: Data
    /// The secret key's envelope: wrapped by the class key (and, later, access-control layers).
    package var secretKeyEnvelope: Data
    /// The encrypted secret.
    package var secret: Data

    static let fixedColumns = ["rowid", "uuid", "pdmn", "pkey", "mkey", "data", "skey", "v_Data"]

    package init(
        identifier: Data,
        protectionTag: Data,
        primaryKeyHash: Data,
        keyColumns: [String: Data],
        wrappedMetadataKey: Data,
        metadata: Data,
        secretKeyEnvelope: Data,
        secret: Data
    ) {
        self.identifier = identifier
        self.protectionTag = protectionTag
        self.primaryKeyHash = primaryKeyHash
        self.keyColumns = keyColumns
        self.wrappedMetadataKey = wrappedMetadataKey
        self.metadata = metadata
        self.secretKeyEnvelope = secretKeyEnvelope
        self.secret = secret
    }

    /// Reads a row selected with `SELECT *`; `nil` if a column is missing or of the wrong type.
    package init?(row: Row, schema: ItemSchema) {
        guard let rowID = row["rowid"] as Int64?,
            let identifier = row["uuid"] as Data?,
            let protectionTag = row["pdmn"] as Data?,
            let primaryKeyHash = row["pkey"] as Data?,
            let wrappedMetadataKey = row["mkey"] as Data?,
            let metadata = row["data"] as Data?,
            let secretKeyEnvelope = row["skey"] as Data?,
            let secret = row["v_Data"] as Data?
        else { return nil }
        var keyColumns: [String: Data] = [:]
        for descriptor in schema.primaryKey {
            guard let hash = row[descriptor.code] as Data? else { return nil }
            keyColumns[descriptor.code] = hash
        }
        self.init(
            identifier: identifier,
            protectionTag: protectionTag,
            primaryKeyHash: primaryKeyHash,
            keyColumns: keyColumns,
            wrappedMetadataKey: wrappedMetadataKey,
            metadata: metadata,
            secretKeyEnvelope: secretKeyEnvelope,
            secret: secret
        )
        self.rowID = rowID
    }

    // MARK: Writing

    /// Inserts the row; a primary-key collision throws ``KeychainCoreError/Code/duplicateItem``.
    package func insert(into db: Database, table: String, schema: ItemSchema) throws(KeychainCoreError) {
        let keyCodes = schema.primaryKey.map(\.code)
        let columns = ["uuid", "pdmn", "pkey"] + keyCodes + ["mkey", "data", "skey", "v_Data"]
        var values: [(any DatabaseValueConvertible)?] = [identifier, protectionTag, primaryKeyHash]
        values += keyCodes.map { keyColumns[$0] }
        values += [wrappedMetadataKey, metadata, secretKeyEnvelope, secret]
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        do {
            try db.execute(
                sql: "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(placeholders))",
                arguments: StatementArguments(values)
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot store the item")
        }
    }

    /// Rewrites every column of the row `rowID`.
    package func update(in db: Database, table: String, schema: ItemSchema) throws(KeychainCoreError) {
        guard let rowID else { throw KeychainCoreError(.internalInconsistency, "updating a row without an id") }
        let keyCodes = schema.primaryKey.map(\.code)
        let columns = ["pdmn", "pkey"] + keyCodes + ["mkey", "data", "skey", "v_Data"]
        var values: [(any DatabaseValueConvertible)?] = [protectionTag, primaryKeyHash]
        values += keyCodes.map { keyColumns[$0] }
        values += [wrappedMetadataKey, metadata, secretKeyEnvelope, secret, rowID]
        let assignments = columns.map { "\($0) = ?" }.joined(separator: ", ")
        do {
            try db.execute(
                sql: "UPDATE \(table) SET \(assignments) WHERE rowid = ?",
                arguments: StatementArguments(values)
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot update the item")
        }
    }
}
