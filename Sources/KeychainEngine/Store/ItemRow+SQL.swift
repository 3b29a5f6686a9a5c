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
package import GRDB
package import KeychainCore

extension ItemRow {
    // MARK: Reading

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

    /// Inserts the row; a primary-key collision throws ``KeychainError/Code/duplicateItem``.
    package func insert(into db: Database, schema: ItemSchema) throws(KeychainError) {
        var values: [(any DatabaseValueConvertible)?] = [identifier, protectionTag, primaryKeyHash]
        values += schema.primaryKey.map { keyColumns[$0.code] }
        values += [wrappedMetadataKey, metadata, secretKeyEnvelope, secret]
        do {
            try db.cachedStatement(sql: RowSQL.of(schema.itemClass).insert).execute(
                arguments: StatementArguments(values)
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot store the item")
        }
    }

    /// Rewrites every column of the row `rowID`.
    package func update(in db: Database, schema: ItemSchema) throws(KeychainError) {
        guard let rowID else { throw KeychainError(.internalInconsistency, "updating a row without an id") }
        var values: [(any DatabaseValueConvertible)?] = [protectionTag, primaryKeyHash]
        values += schema.primaryKey.map { keyColumns[$0.code] }
        values += [wrappedMetadataKey, metadata, secretKeyEnvelope, secret, rowID]
        do {
            try db.cachedStatement(sql: RowSQL.of(schema.itemClass).update).execute(
                arguments: StatementArguments(values)
            )
        } catch {
            throw SQLiteItemStore.translate(error, "cannot update the item")
        }
    }
}
