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

package import Foundation
package import GRDB
package import KeychainCore

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

    /// Reads a row selected with ``RowSQL/columns`` (by position); `nil` if a column is missing or
    /// of the wrong type.
    package init?(row: Row, schema: ItemSchema) {
        let keyCount = schema.primaryKey.count
        guard row.count == 8 + keyCount,
            let rowID = row[0] as Int64?,
            let identifier = row[1] as Data?,
            let protectionTag = row[2] as Data?,
            let primaryKeyHash = row[3] as Data?,
            let wrappedMetadataKey = row[4] as Data?,
            let metadata = row[5] as Data?,
            let secretKeyEnvelope = row[6] as Data?,
            let secret = row[7] as Data?
        else { return nil }
        var keyColumns: [String: Data] = [:]
        keyColumns.reserveCapacity(keyCount)
        for (offset, descriptor) in schema.primaryKey.enumerated() {
            guard let hash = row[8 + offset] as Data? else { return nil }
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
    package func insert(into db: Database, schema: ItemSchema) throws(KeychainCoreError) {
        var values: [(any DatabaseValueConvertible)?] = [identifier, protectionTag, primaryKeyHash]
        values += schema.primaryKey.map { keyColumns[$0.code] }
        values += [wrappedMetadataKey, metadata, secretKeyEnvelope, secret]
        do {
            try db.cachedStatement(sql: RowSQL.of(schema.itemClass).insert).execute(arguments: StatementArguments(values))
        } catch {
            throw SQLiteItemStore.translate(error, "cannot store the item")
        }
    }

    /// Rewrites every column of the row `rowID`.
    package func update(in db: Database, schema: ItemSchema) throws(KeychainCoreError) {
        guard let rowID else { throw KeychainCoreError(.internalInconsistency, "updating a row without an id") }
        var values: [(any DatabaseValueConvertible)?] = [protectionTag, primaryKeyHash]
        values += schema.primaryKey.map { keyColumns[$0.code] }
        values += [wrappedMetadataKey, metadata, secretKeyEnvelope, secret, rowID]
        do {
            try db.cachedStatement(sql: RowSQL.of(schema.itemClass).update).execute(arguments: StatementArguments(values))
        } catch {
            throw SQLiteItemStore.translate(error, "cannot update the item")
        }
    }
}

/// The statements of one item table, built once: the hot paths run them as cached statements.
package struct RowSQL: Sendable {
    /// The column list that ``ItemRow/init(row:schema:)`` reads, in its order.
    package let columns: String
    /// `INSERT` of every column but `rowid`.
    package let insert: String
    /// `UPDATE` of every column but `rowid` and `uuid`, by `rowid`.
    package let update: String
    /// `DELETE` by `rowid`.
    package let deleteByRowID: String

    private init(_ itemClass: ItemClass) {
        let table = itemClass.tableName
        let keyCodes = ItemSchema.of(itemClass).primaryKey.map(\.code)
        let stored = ["uuid", "pdmn", "pkey"] + keyCodes + ["mkey", "data", "skey", "v_Data"]
        columns = (["rowid", "uuid", "pdmn", "pkey", "mkey", "data", "skey", "v_Data"] + keyCodes).joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: stored.count).joined(separator: ", ")
        insert = "INSERT INTO \(table) (\(stored.joined(separator: ", "))) VALUES (\(placeholders))"
        let assignments = stored.dropFirst().map { "\($0) = ?" }.joined(separator: ", ")
        update = "UPDATE \(table) SET \(assignments) WHERE rowid = ?"
        deleteByRowID = "DELETE FROM \(table) WHERE rowid = ?"
    }

    private static let all: [ItemClass: RowSQL] = Dictionary(
        uniqueKeysWithValues: ItemClass.storedClasses.map { ($0, RowSQL($0)) }
    )

    /// The statements of `itemClass`'s table.
    package static func of(_ itemClass: ItemClass) -> RowSQL {
        all[itemClass] ?? RowSQL(itemClass)
    }
}
