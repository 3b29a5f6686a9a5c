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

/// A NIST prime curve that keys can be made on (Apple's `kSecAttrKeyTypeECSECPrimeRandom`).
package enum ECCurve: Sendable, Hashable, CaseIterable {
    case p256
    case p384
    case p521

    /// The curve of `bits` (`kSecAttrKeySizeInBits`): 256, 384 or 521.
    package init?(bits: Int) {
        switch bits {
        case 256: self = .p256
        case 384: self = .p384
        case 521: self = .p521
        default: return nil
        }
    }

    /// The size of the curve's field in bits.
    package var bits: Int {
        switch self {
        case .p256: 256
        case .p384: 384
        case .p521: 521
        }
    }

    /// The bytes of one coordinate or of the private scalar.
    package var coordinateByteCount: Int {
        (bits + 7) / 8
    }

    /// The length of an uncompressed public key in ANSI X9.63 form (`04 ‖ X ‖ Y`).
    package var publicKeyByteCount: Int {
        1 + 2 * coordinateByteCount
    }

    /// The length of a private key in Apple's X9.63 form (`04 ‖ X ‖ Y ‖ K`).
    package var privateKeyByteCount: Int {
        1 + 3 * coordinateByteCount
    }

    /// The curve whose X9.63 public key is `count` bytes long.
    package init?(publicKeyByteCount count: Int) {
        guard let curve = Self.allCases.first(where: { $0.publicKeyByteCount == count }) else { return nil }
        self = curve
    }

    /// The curve whose X9.63 private key is `count` bytes long.
    package init?(privateKeyByteCount count: Int) {
        guard let curve = Self.allCases.first(where: { $0.privateKeyByteCount == count }) else { return nil }
        self = curve
    }
}
