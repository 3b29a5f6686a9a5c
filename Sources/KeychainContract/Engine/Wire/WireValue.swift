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
        case null = 0
        case `false`, `true`, int, uint, double, string, bytes, array, keyed
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
        var reader = CompactReader(Array(bytes), from: 0)
        self = try Self.read(from: &reader, depth: 0)
        guard reader.isAtEnd else { throw Malformed() }
    }

    /// One tagged value, read with the compact form's checked primitives.
    private static func read(from reader: inout CompactReader, depth: Int) throws(Malformed) -> WireValue {
        guard depth < maximumDepth, let tag = Tag(rawValue: try reader.byte()) else { throw Malformed() }
        switch tag {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .int: return .int(try reader.signed())
        case .uint: return .uint(try reader.unsigned())
        case .double: return .double(try reader.double())
        case .string: return .string(try reader.string())
        case .bytes: return .bytes(try reader.byteArray())
        case .array:
            // Every element takes at least one byte: a count beyond what is left is a lie.
            return .array(try reader.array { reader throws(Malformed) in try read(from: &reader, depth: depth + 1) })
        case .keyed:
            return .keyed(
                try reader.array(elementsAtLeast: 2) { reader throws(Malformed) in
                    (key: try reader.string(), value: try read(from: &reader, depth: depth + 1))
                }
            )
        }
    }
}
