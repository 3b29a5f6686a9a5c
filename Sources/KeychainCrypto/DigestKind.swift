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
package import Foundation

/// A hash function that a key algorithm names: what a message is hashed with before it is signed,
/// and what the X9.63 key derivation runs on.
package enum DigestKind: Sendable, Hashable, CaseIterable {
    case sha1
    case sha224
    case sha256
    case sha384
    case sha512

    /// The length of a digest in bytes.
    package var byteCount: Int {
        switch self {
        case .sha1: 20
        case .sha224: 28
        case .sha256: 32
        case .sha384: 48
        case .sha512: 64
        }
    }

    /// The digest of `data`.
    package func hash(_ data: some DataProtocol) -> Data {
        switch self {
        case .sha1: Data(Insecure.SHA1.hash(data: data))
        case .sha224: SHA224.hash(data)
        case .sha256: Data(SHA256.hash(data: data))
        case .sha384: Data(SHA384.hash(data: data))
        case .sha512: Data(SHA512.hash(data: data))
        }
    }

    /// The digest of several parts, as if they were one message.
    package func hash(parts: [Data]) -> Data {
        switch self {
        case .sha224:
            return SHA224.hash(parts.reduce(into: Data()) { $0.append($1) })
        case .sha1:
            var hasher = Insecure.SHA1()
            for part in parts { hasher.update(data: part) }
            return Data(hasher.finalize())
        case .sha256:
            var hasher = SHA256()
            for part in parts { hasher.update(data: part) }
            return Data(hasher.finalize())
        case .sha384:
            var hasher = SHA384()
            for part in parts { hasher.update(data: part) }
            return Data(hasher.finalize())
        case .sha512:
            var hasher = SHA512()
            for part in parts { hasher.update(data: part) }
            return Data(hasher.finalize())
        }
    }
}
