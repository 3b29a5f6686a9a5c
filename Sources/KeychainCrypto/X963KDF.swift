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

/// The ANSI X9.63 key derivation (SEC 1 §3.6.1): `Hash(Z ‖ counter ‖ SharedInfo)` for counter =
/// 1, 2, … (32-bit big-endian), concatenated and cut to the length asked for.
package enum X963KDF {
    /// The most bytes a caller may ask for: far beyond any key, and small enough that a hostile
    /// size cannot exhaust memory.
    package static let maximumByteCount = 1 << 20

    /// `byteCount` bytes derived from `secret` and `sharedInfo` with `digest`.
    package static func derive(
        secret: Data,
        sharedInfo: Data,
        byteCount: Int,
        digest: DigestKind
    ) throws(KeyMaterialError) -> Data {
        guard (0...maximumByteCount).contains(byteCount) else {
            throw .invalidInput("the requested size is out of range")
        }
        var output = Data(capacity: byteCount + digest.byteCount)
        var counter: UInt32 = 1
        while output.count < byteCount {
            let counterBytes = Data([
                UInt8(counter >> 24), UInt8(truncatingIfNeeded: counter >> 16),
                UInt8(truncatingIfNeeded: counter >> 8), UInt8(truncatingIfNeeded: counter),
            ])
            output.append(digest.hash(parts: [secret, counterBytes, sharedInfo]))
            counter += 1
        }
        return output.prefix(byteCount)
    }
}
