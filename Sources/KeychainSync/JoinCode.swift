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

/// The code a joining device shows and its user types on a trusted device: 60 random bits, in
/// twelve characters of Crockford's base32 (`7KQ2-M9XD-4HRT`).
///
/// The code never reaches the server. Both sides derive a key from it: the joining device
/// authenticates its request with it (so the server cannot put its own key in the request), and
/// the approving device authenticates the list it answers with (so the server cannot answer
/// with a circle of its own).
package struct JoinCode: Sendable, Equatable, CustomStringConvertible {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    private static let length = 12

    /// The code's twelve characters.
    package let characters: String

    /// A new random code.
    package static func make() -> JoinCode {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] }
        return JoinCode(characters: String(characters))
    }

    private init(characters: String) { self.characters = characters }

    /// Reads a code as a user typed it: any case, with or without dashes and spaces, `O` for zero
    /// and `I` or `L` for one.
    package init?(typed: String) {
        var characters = ""
        for character in typed.uppercased() where character != "-" && character != " " {
            let read: Character =
                switch character {
                case "O": "0"
                case "I", "L": "1"
                default: character
                }
            guard Self.alphabet.contains(read) else { return nil }
            characters.append(read)
        }
        guard characters.count == Self.length else { return nil }
        self.characters = characters
    }

    /// As shown: three groups of four.
    package var description: String {
        let chars = Array(characters)
        return stride(from: 0, to: chars.count, by: 4).map { String(chars[$0..<min($0 + 4, chars.count)]) }
            .joined(separator: "-")
    }

    /// The key both devices derive from the code for this circle.
    func key(circle: CircleID) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(characters.utf8)),
            salt: circle.rawValue,
            info: Data("swift-keychain sync join".utf8),
            outputByteCount: 32
        )
    }
}
