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
import KeychainCore

/// Keyed hashes for the searchable columns of the database.
///
/// A column holds `HMAC-SHA256(lookupKey, table ‖ column ‖ value)` truncated to 16 bytes, never the
/// value itself, so the database file alone reveals no service, account or label. The key comes from
/// the keybag and is itself sealed under the device key.
package struct LookupHasher: Sendable {
    /// Bytes kept of each HMAC.
    package static let hashLength = 16

    /// SHA-256 after absorbing the key XOR ipad, and after the key XOR opad (RFC 2104): copying
    /// these states saves hashing the key pads twice per hash, which swift-crypto's `HMAC` repeats.
    private let inner: SHA256
    private let outer: SHA256

    package init(key: SymmetricKey) {
        var block = [UInt8](repeating: 0, count: SHA256.blockByteCount)
        key.withUnsafeBytes { raw in
            if raw.count > block.count {
                let digest = SHA256.hash(data: raw)
                digest.withUnsafeBytes { for (index, byte) in $0.enumerated() { block[index] = byte } }
            } else {
                for (index, byte) in raw.enumerated() { block[index] = byte }
            }
        }
        var inner = SHA256()
        inner.update(data: block.map { $0 ^ 0x36 })
        var outer = SHA256()
        outer.update(data: block.map { $0 ^ 0x5c })
        _ = block.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) }
        self.inner = inner
        self.outer = outer
    }

    /// The hash of one attribute value in one column of one table.
    package func hash(table: String, column: String, value: some Collection<UInt8>) -> Data {
        var message = Self.header(table: table, column: column, capacity: value.count + 4)
        Self.appendField(value, to: &message)
        return finalize(message)
    }

    /// The hash of a tuple of values (a primary key).
    package func hash(table: String, column: String, values: [[UInt8]]) -> Data {
        var message = Self.header(table: table, column: column, capacity: values.reduce(0) { $0 + $1.count + 4 })
        for value in values {
            Self.appendField(value, to: &message)
        }
        return finalize(message)
    }

    // MARK: Private

    /// HMAC-SHA256 of the whole length-prefixed message in one update: swift-crypto's per-call
    /// overhead dominates for messages this short.
    private func finalize(_ message: [UInt8]) -> Data {
        var innerHash = inner
        innerHash.update(data: message)
        var outerHash = outer
        innerHash.finalize().withUnsafeBytes { outerHash.update(bufferPointer: $0) }
        return outerHash.finalize().withUnsafeBytes { Data($0.prefix(Self.hashLength)) }
    }

    private static func header(table: String, column: String, capacity: Int) -> [UInt8] {
        var message: [UInt8] = []
        message.reserveCapacity(table.utf8.count + column.utf8.count + 8 + capacity)
        appendField(table.utf8, to: &message)
        appendField(column.utf8, to: &message)
        return message
    }

    /// Appends a field as a 4-byte big-endian length and its bytes, so that fields cannot run together.
    private static func appendField(_ field: some Collection<UInt8>, to message: inout [UInt8]) {
        let length = UInt32(field.count)
        message.append(UInt8(truncatingIfNeeded: length >> 24))
        message.append(UInt8(truncatingIfNeeded: length >> 16))
        message.append(UInt8(truncatingIfNeeded: length >> 8))
        message.append(UInt8(truncatingIfNeeded: length))
        message.append(contentsOf: field)
    }
}
