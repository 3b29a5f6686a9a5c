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
import KeychainContract
import KeychainCore
import KeychainEngine
import Testing

/// The look-up hashes are on disk: any change to how they are computed orphans every stored item.
@Suite struct LookupHasherTests {
    /// HMAC-SHA256 over length-prefixed fields, computed with swift-crypto's `HMAC` as the reference.
    private func reference(_ key: SymmetricKey, _ fields: [[UInt8]]) -> Data {
        var hmac = HMAC<SHA256>(key: key)
        for field in fields {
            let length = UInt32(field.count).bigEndian
            withUnsafeBytes(of: length) { hmac.update(data: $0) }
            hmac.update(data: field)
        }
        return Data(Data(hmac.finalize()).prefix(LookupHasher.hashLength))
    }

    @Test(arguments: [32, 64, 100])
    func matchesHMACSHA256OverLengthPrefixedFields(keyLength: Int) {
        let key = SymmetricKey(data: (0..<keyLength).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) })
        let hasher = LookupHasher(key: key)
        let value = Array("user1@example.invalid".utf8)
        #expect(
            hasher.hash(table: "genp", column: "acct", value: value)
                == reference(key, [Array("genp".utf8), Array("acct".utf8), value])
        )
        #expect(
            hasher.hash(table: "genp", column: "pkey", values: [value, [], [1, 2, 3]])
                == reference(key, [Array("genp".utf8), Array("pkey".utf8), value, [], [1, 2, 3]])
        )
    }

    @Test func aKnownVectorStaysFixed() {
        // Computed with Python's hmac module: a change here means existing keychains stop matching.
        let hasher = LookupHasher(key: SymmetricKey(data: [UInt8](repeating: 0x0b, count: 32)))
        let hash = hasher.hash(table: "genp", column: "svce", value: Array("Example".utf8))
        #expect(hash.map { String(format: "%02x", $0) }.joined() == Self.pinned)
    }

    private static let pinned = "eda8b36839fa1f6f634cd6e59085e02e"
}
