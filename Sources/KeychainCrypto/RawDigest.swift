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

/// A digest the caller computed, handed to swift-crypto's ECDSA as it is (Apple's
/// `ecdsaSignatureDigest…` algorithms sign and verify digests of any length, truncated to the
/// curve's order as ECDSA prescribes).
struct RawDigest: Digest {
    static var byteCount: Int { 0 }

    let bytes: [UInt8]

    init(_ bytes: some DataProtocol) {
        self.bytes = [UInt8](bytes)
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try bytes.withUnsafeBytes(body)
    }

    func makeIterator() -> Array<UInt8>.Iterator {
        bytes.makeIterator()
    }

    var description: String {
        "RawDigest(\(bytes.count) bytes)"
    }
}
