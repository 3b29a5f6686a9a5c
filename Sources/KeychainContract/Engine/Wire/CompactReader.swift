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

/// Reads what ``CompactWriter`` writes, checking every length against the bytes left: hostile
/// input ends in ``WireValue/Malformed``, never in a crash or a runaway allocation.
struct CompactReader {
    private let bytes: [UInt8]
    private var offset: Int

    init(_ bytes: [UInt8], from offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    var isAtEnd: Bool { offset == bytes.count }

    private var remaining: Int { bytes.count - offset }

    mutating func byte() throws(WireValue.Malformed) -> UInt8 {
        guard remaining > 0 else { throw WireValue.Malformed() }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func bool() throws(WireValue.Malformed) -> Bool {
        switch try byte() {
        case 0: false
        case 1: true
        default: throw WireValue.Malformed()
        }
    }

    mutating func unsigned() throws(WireValue.Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            // The tenth byte may carry only the top bit.
            guard shift < 63 || byte <= 1 else { throw WireValue.Malformed() }
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(WireValue.Malformed) -> Int64 {
        let raw = try unsigned()
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }

    /// A signed integer that fits `Int`.
    mutating func int() throws(WireValue.Malformed) -> Int {
        guard let value = Int(exactly: try signed()) else { throw WireValue.Malformed() }
        return value
    }

    mutating func double() throws(WireValue.Malformed) -> Double {
        guard remaining >= 8 else { throw WireValue.Malformed() }
        var pattern: UInt64 = 0
        for index in 0..<8 { pattern |= UInt64(bytes[offset + index]) << (8 * index) }
        offset += 8
        return Double(bitPattern: pattern)
    }

    mutating func string() throws(WireValue.Malformed) -> String {
        let count = try count(ofElementsAtLeast: 1)
        defer { offset += count }
        guard let string = String(validating: bytes[offset..<offset + count], as: UTF8.self) else {
            throw WireValue.Malformed()
        }
        return string
    }

    mutating func data() throws(WireValue.Malformed) -> Data {
        let count = try count(ofElementsAtLeast: 1)
        defer { offset += count }
        return Data(bytes[offset..<offset + count])
    }

    mutating func byteArray() throws(WireValue.Malformed) -> [UInt8] {
        let count = try count(ofElementsAtLeast: 1)
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }

    /// A presence byte, then the value `read` reads if there is one.
    mutating func optional<Value>(
        _ read: (inout CompactReader) throws(WireValue.Malformed) -> Value
    ) throws(WireValue.Malformed) -> Value? {
        try bool() ? try read(&self) : nil
    }

    /// A count, then that many elements; each takes at least `size` bytes, so a count beyond what
    /// is left is refused before anything is allocated.
    mutating func array<Element>(
        elementsAtLeast size: Int = 1,
        _ read: (inout CompactReader) throws(WireValue.Malformed) -> Element
    ) throws(WireValue.Malformed) -> [Element] {
        let count = try count(ofElementsAtLeast: size)
        var elements: [Element] = []
        // What is reserved before the elements are read: a count that only the bytes bound could
        // still reserve far more memory than its elements would take.
        elements.reserveCapacity(Swift.min(count, 1_024))
        for _ in 0..<count { elements.append(try read(&self)) }
        return elements
    }

    /// A value whose raw form is a string, refused unless `make` accepts it.
    mutating func named<Value>(_ make: (String) -> Value?) throws(WireValue.Malformed) -> Value {
        guard let value = make(try string()) else { throw WireValue.Malformed() }
        return value
    }

    private mutating func count(ofElementsAtLeast size: Int) throws(WireValue.Malformed) -> Int {
        let value = try unsigned()
        guard value <= UInt64(remaining / size) else { throw WireValue.Malformed() }
        return Int(value)
    }
}
