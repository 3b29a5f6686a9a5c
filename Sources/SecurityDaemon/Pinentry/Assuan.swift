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

import Foundation
import KeychainContract

/// The Assuan protocol's text rules (GnuPG's IPC, which pinentry speaks): lines of at most 1,000
/// bytes, with `%`, line breaks and other control bytes in arguments and data percent-escaped.
enum Assuan {
    /// The longest line either side may send, its line feed included.
    static let maximumLine = 1000

    /// `text` with `%`, CR, LF and the other control bytes as `%XX`: nothing in it can end the
    /// line or start another command.
    static func escape(_ text: String) -> String {
        var bytes: [UInt8] = []
        for byte in text.utf8 {
            if byte == UInt8(ascii: "%") || byte < 0x20 || byte == 0x7F {
                bytes += Array(String(format: "%%%02X", byte).utf8)
            } else {
                bytes.append(byte)
            }
        }
        // Only ASCII bytes were replaced, so the rest is still the original UTF-8.
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes `%XX` escapes; `nil` for a malformed escape.
    static func unescape<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8]? {
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            decoded.append(high << 4 | low)
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `text` cut to at most `limit` UTF-8 bytes on a character boundary, with an ellipsis when cut.
    static func truncated(_ text: String, toBytes limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = ""
        for character in text {
            guard kept.utf8.count + character.utf8.count + 3 <= limit else { break }
            kept.append(character)
        }
        return kept + "…"
    }

    /// Whether an `ERR` code is GnuPG's "cancelled" or "timed out" (the low 16 bits: 99, 62),
    /// whichever component reported it.
    static func isCancellation(_ code: UInt32) -> Bool {
        let error = code & 0xFFFF
        return error == 99 || error == 62
    }
}
