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

/// Writes the compact form of the engine's hot messages (``CompactForm``): fields in a fixed
/// order, no names and no tags but where a value has alternatives.
///
/// Integers are LEB128 (signed ones zig-zagged), doubles 8 bytes little-endian, strings and bytes
/// a length then their bytes, an optional a presence byte then its value.
struct CompactWriter {
    private(set) var bytes: [UInt8]

    init(reservingCapacity capacity: Int = 256) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    mutating func byte(_ value: UInt8) {
        bytes.append(value)
    }

    mutating func bool(_ value: Bool) {
        bytes.append(value ? 1 : 0)
    }

    mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func data(_ value: Data) {
        unsigned(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    /// A presence byte, then `value` written by `write` if there is one.
    mutating func optional<Value>(_ value: Value?, _ write: (inout CompactWriter, Value) -> Void) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        write(&self, value)
    }

    /// A count, then each element written by `write`.
    mutating func array<Elements: Collection>(
        _ elements: Elements,
        _ write: (inout CompactWriter, Elements.Element) -> Void
    ) {
        unsigned(UInt64(elements.count))
        for element in elements { write(&self, element) }
    }
}
