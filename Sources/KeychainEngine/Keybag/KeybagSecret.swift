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

/// The keybag secret: a small random key, stored apart from the database, that seals the keybag.
///
/// It plays the part of the key Apple keeps in effaceable storage: every keybag write seals the
/// keybag under a new secret and erases the previous one, so a copy of the keybag taken earlier (a
/// backup, a snapshot, pages left in the write-ahead log) cannot be opened with today's secret,
/// and today's keybag cannot be opened with an old one. A ``KeybagSecretStore`` keeps it.
package struct KeybagSecret: Sendable {
    /// Identifies the secret; the sealed keybag names the secret it was sealed with.
    package let identifier: Data
    /// The 256-bit key material.
    package let key: SymmetricKey

    package static let identifierLength = 16
    private static let format: UInt8 = 1

    /// A new random secret.
    package static func make() -> KeybagSecret {
        KeybagSecret(
            identifier: SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) },
            key: SymmetricKey(size: .bits256)
        )
    }

    package init(identifier: Data, key: SymmetricKey) {
        self.identifier = identifier
        self.key = key
    }

    // MARK: Serialization

    /// Format byte, identifier, key: 49 bytes.
    package var serialized: [UInt8] {
        var bytes = [Self.format]
        bytes.append(contentsOf: identifier)
        key.withUnsafeBytes { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Reads a serialized secret; `nil` if the bytes are not one.
    package init?(serialized bytes: [UInt8]) {
        guard bytes.count == 1 + Self.identifierLength + 32, bytes[0] == Self.format else { return nil }
        identifier = Data(bytes[1...Self.identifierLength])
        key = SymmetricKey(data: bytes[(1 + Self.identifierLength)...])
    }

    /// The identifier as lower-case hexadecimal (for file names).
    package var hexIdentifier: String { Self.hex(identifier) }

    /// An identifier as lower-case hexadecimal.
    package static func hex(_ identifier: Data) -> String {
        HexText.encode(identifier)
    }
}
