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
package import KeychainCore

/// Pads plaintexts to a few sizes before they are sealed, so that a copied database does not show
/// how long each secret or attribute set is.
///
/// The padded form is the length (4 bytes, big-endian), the bytes, then zeros up to the bucket:
/// the smallest bucket (64 bytes for secrets, 256 for an item's attributes, which then hide any
/// service, account and label of ordinary length), doubling up to 4096 bytes, and above that the
/// next multiple of 4096. A copy therefore shows the bucket, not the length.
package enum LengthPadding {
    /// The smallest bucket of secrets.
    package static let secretBucket = 64
    /// The smallest bucket of attribute sets.
    package static let metadataBucket = 256
    private static let pageSize = 4096

    /// The bucket a plaintext of `count` bytes is padded to.
    package static func paddedCount(for count: Int, smallest: Int) -> Int {
        let needed = count + 4
        guard needed > smallest else { return smallest }
        guard needed > pageSize else {
            var bucket = smallest
            while bucket < needed { bucket <<= 1 }
            return bucket
        }
        return (needed + pageSize - 1) / pageSize * pageSize
    }

    /// `plaintext`, length-prefixed and padded with zeros to its bucket.
    package static func pad(_ plaintext: some Collection<UInt8>, smallest: Int) -> Data {
        let padded = paddedCount(for: plaintext.count, smallest: smallest)
        var out = Data(capacity: padded)
        withUnsafeBytes(of: UInt32(truncatingIfNeeded: plaintext.count).bigEndian) { out.append(contentsOf: $0) }
        out.append(contentsOf: plaintext)
        out.append(contentsOf: repeatElement(0, count: padded - out.count))
        return out
    }

    /// The plaintext inside a padded form.
    /// - Throws: ``KeychainError/Code/decode`` when the form is not one ``pad(_:)`` makes.
    package static func unpad(_ padded: Data) throws(KeychainError) -> Data {
        let bytes = Array(padded)
        guard bytes.count >= 4 else { throw KeychainError(.decode, "a padded value is truncated") }
        let count = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard count <= bytes.count - 4, bytes[(4 + count)...].allSatisfy({ $0 == 0 }) else {
            throw KeychainError(.decode, "a padded value is damaged")
        }
        return Data(bytes[4..<(4 + count)])
    }
}
