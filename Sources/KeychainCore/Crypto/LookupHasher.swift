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

public import Crypto
public import Foundation

/// Keyed hashes for the searchable columns of the database.
///
/// A column holds `HMAC-SHA256(lookupKey, table ‖ column ‖ value)` truncated to 16 bytes, never the
/// value itself, so the database file alone reveals no service, account or label. The key comes from
/// the keybag and is itself sealed under the device key.
package struct LookupHasher: Sendable {
    /// Bytes kept of each HMAC.
    package static let hashLength = 16

    private let key: SymmetricKey

    package init(key: SymmetricKey) {
        self.key = key
    }

    /// The hash of one attribute value in one column of one table.
    package func hash(table: String, column: String, value: some Collection<UInt8>) -> Data {
        var hmac = HMAC<SHA256>(key: key)
        update(&hmac, with: Array(table.utf8))
        update(&hmac, with: Array(column.utf8))
        update(&hmac, with: Array(value))
        return Data(hmac.finalize().prefix(Self.hashLength))
    }

    /// The hash of a tuple of values (a primary key).
    package func hash(table: String, column: String, values: [[UInt8]]) -> Data {
        var hmac = HMAC<SHA256>(key: key)
        update(&hmac, with: Array(table.utf8))
        update(&hmac, with: Array(column.utf8))
        for value in values {
            update(&hmac, with: value)
        }
        return Data(hmac.finalize().prefix(Self.hashLength))
    }

    private func update(_ hmac: inout HMAC<SHA256>, with field: [UInt8]) {
        var length = UInt32(field.count).bigEndian
        withUnsafeBytes(of: &length) { hmac.update(data: $0) }
        hmac.update(data: field)
    }
}
