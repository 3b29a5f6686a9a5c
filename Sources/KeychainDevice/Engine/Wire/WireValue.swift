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


/// A value of the engine's binary format: the shape Codable types take (null, Booleans, numbers,
/// strings, bytes, arrays, keyed containers), each written as a one-byte tag and its payload.
///
/// Integers are variable-length (LEB128; signed ones zig-zagged), doubles 8 bytes little-endian,
/// strings and bytes a length then their bytes, arrays a count then the elements, keyed
/// containers a count then key–value pairs. Reading checks every length against the bytes left
/// and limits nesting, so hostile input ends in ``WireValue/Malformed``, never in a crash.
enum WireValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case bytes([UInt8])
    case array([WireValue])
    case keyed([(key: String, value: WireValue)])

    /// Input that is not a value of the format.
    struct Malformed: Error {}

    /// The deepest nesting read: far more than any message has, far less than a thread's stack.
    static let maximumDepth = 64

    private enum Tag: UInt8 {
        case null = 0, `false`, `true`, int, uint, double, string, bytes, array, keyed
    }

    static func == (lhs: WireValue, rhs: WireValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.uint(let a), .uint(let b)): a == b
        case (.double(let a), .double(let b)): a.bitPattern == b.bitPattern
        case (.string(let a), .string(let b)): a == b
        case (.bytes(let a), .bytes(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.keyed(let a), .keyed(let b)): a.elementsEqual(b) { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    // MARK: Writing

    /// Appends this value's bytes to `bytes`.
    func write(to bytes: inout [UInt8]) {
        switch self {
        case .null:
            bytes.append(Tag.null.rawValue)
        case .bool(let value):
            bytes.append(value ? Tag.true.rawValue : Tag.false.rawValue)
        case .int(let value):
            bytes.append(Tag.int.rawValue)
            Self.writeVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &bytes)
        case .uint(let value):
            bytes.append(Tag.uint.rawValue)
            Self.writeVarint(value, to: &bytes)
        case .double(let value):
            bytes.append(Tag.double.rawValue)
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        case .string(let value):
            bytes.append(Tag.string.rawValue)
            Self.writeVarint(UInt64(value.utf8.count), to: &bytes)
            bytes.append(contentsOf: value.utf8)
        case .bytes(let value):
            bytes.append(Tag.bytes.rawValue)
            Self.writeVarint(UInt64(value.count), to: &bytes)
            bytes.append(contentsOf: value)
        case .array(let elements):
            bytes.append(Tag.array.rawValue)
            Self.writeVarint(UInt64(elements.count), to: &bytes)
            for element in elements { element.write(to: &bytes) }
        case .keyed(let pairs):
            bytes.append(Tag.keyed.rawValue)
            Self.writeVarint(UInt64(pairs.count), to: &bytes)
            for pair in pairs {
                Self.writeVarint(UInt64(pair.key.utf8.count), to: &bytes)
                bytes.append(contentsOf: pair.key.utf8)
                pair.value.write(to: &bytes)
            }
        }
    }

    static func writeVarint(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    // MARK: Reading

    /// The one value that `bytes` holds, all of them.
    init(reading bytes: some Collection<UInt8>) throws(Malformed) {
        var reader = Reader(bytes: Array(bytes))
        self = try reader.value(depth: 0)
        guard reader.offset == reader.bytes.count else { throw Malformed() }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var remaining: Int { bytes.count - offset }

        mutating func value(depth: Int) throws(Malformed) -> WireValue {
            guard depth < WireValue.maximumDepth, remaining > 0, let tag = Tag(rawValue: bytes[offset]) else { throw Malformed() }
            offset += 1
            switch tag {
            case .null: return .null
            case .false: return .bool(false)
            case .true: return .bool(true)
            case .int:
                let raw = try varint()
                return .int(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1))
            case .uint:
                return .uint(try varint())
            case .double:
                guard remaining >= 8 else { throw Malformed() }
                var pattern: UInt64 = 0
                for index in 0..<8 { pattern |= UInt64(bytes[offset + index]) << (8 * index) }
                offset += 8
                return .double(Double(bitPattern: pattern))
            case .string:
                return .string(try string())
            case .bytes:
                let count = try length(elementSize: 1)
                defer { offset += count }
                return .bytes(Array(bytes[offset..<offset + count]))
            case .array:
                // Every element takes at least one byte: a count beyond what is left is a lie.
                let count = try length(elementSize: 1)
                var elements: [WireValue] = []
                elements.reserveCapacity(count)
                for _ in 0..<count { elements.append(try value(depth: depth + 1)) }
                return .array(elements)
            case .keyed:
                let count = try length(elementSize: 2)
                var pairs: [(key: String, value: WireValue)] = []
                pairs.reserveCapacity(count)
                for _ in 0..<count {
                    let key = try string()
                    pairs.append((key, try value(depth: depth + 1)))
                }
                return .keyed(pairs)
            }
        }

        private mutating func string() throws(Malformed) -> String {
            let count = try length(elementSize: 1)
            defer { offset += count }
            guard let string = String(validating: bytes[offset..<offset + count], as: UTF8.self) else { throw Malformed() }
            return string
        }

        /// A count of things of at least `elementSize` bytes each, checked against the bytes left.
        private mutating func length(elementSize: Int) throws(Malformed) -> Int {
            let value = try varint()
            guard value <= UInt64(remaining / elementSize) else { throw Malformed() }
            return Int(value)
        }

        private mutating func varint() throws(Malformed) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard remaining > 0, shift < 64 else { throw Malformed() }
                let byte = bytes[offset]
                offset += 1
                // The tenth byte may carry only the top bit.
                guard shift < 63 || byte <= 1 else { throw Malformed() }
                value |= UInt64(byte & 0x7f) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
    }
}
