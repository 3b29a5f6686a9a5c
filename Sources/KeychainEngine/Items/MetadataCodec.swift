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
package import KeychainCore

/// The binary form of an item's attributes before they are encrypted.
///
/// `version (1) ‖ count (u32) ‖ entries`, each entry `key length (u16) ‖ key ‖ tag (1) ‖ value`,
/// where a string or data value is `length (u32) ‖ bytes`, a number or date eight bytes big-endian
/// and a Boolean one byte. Small, fast, and strict on decode: any trailing or missing byte is an error.
package enum MetadataCodec {
    private static let version: UInt8 = 1

    private enum Tag: UInt8 {
        case string = 0
        case data = 1
        case number = 2
        case bool = 3
        case date = 4
    }

    package static func encode(_ attributes: [String: AttributeValue]) -> Data {
        var out = Data()
        out.reserveCapacity(64 + attributes.count * 24)
        out.append(version)
        append(UInt32(attributes.count), to: &out)
        for key in attributes.keys.sorted() {
            guard let value = attributes[key] else { continue }
            let keyBytes = Array(key.utf8)
            append(UInt16(keyBytes.count), to: &out)
            out.append(contentsOf: keyBytes)
            switch value {
            case .string(let string):
                out.append(Tag.string.rawValue)
                let bytes = Array(string.utf8)
                append(UInt32(bytes.count), to: &out)
                out.append(contentsOf: bytes)
            case .data(let data):
                out.append(Tag.data.rawValue)
                append(UInt32(data.count), to: &out)
                out.append(data)
            case .number(let number):
                out.append(Tag.number.rawValue)
                append(UInt64(bitPattern: number), to: &out)
            case .bool(let bool):
                out.append(Tag.bool.rawValue)
                out.append(bool ? 1 : 0)
            case .date(let date):
                out.append(Tag.date.rawValue)
                append(date.timeIntervalSinceReferenceDate.bitPattern, to: &out)
            }
        }
        return out
    }

    package static func decode(_ data: Data) throws(KeychainError) -> [String: AttributeValue] {
        var reader = Reader(bytes: [UInt8](data))
        guard try reader.byte() == version else {
            throw KeychainError(.decode, "item metadata has an unknown version")
        }
        let count = Int(try reader.integer(UInt32.self))
        guard count <= 4096 else { throw KeychainError(.decode, "item metadata is damaged") }
        var attributes: [String: AttributeValue] = [:]
        attributes.reserveCapacity(count)
        for _ in 0..<count {
            let keyLength = Int(try reader.integer(UInt16.self))
            guard let key = String(validating: try reader.bytes(keyLength), as: UTF8.self) else {
                throw KeychainError(.decode, "item metadata is damaged")
            }
            let tag = try reader.byte()
            switch Tag(rawValue: tag) {
            case .string:
                let length = Int(try reader.integer(UInt32.self))
                guard let string = String(validating: try reader.bytes(length), as: UTF8.self) else {
                    throw KeychainError(.decode, "item metadata is damaged")
                }
                attributes[key] = .string(string)
            case .data:
                let length = Int(try reader.integer(UInt32.self))
                attributes[key] = .data(Data(try reader.bytes(length)))
            case .number:
                attributes[key] = .number(Int64(bitPattern: try reader.integer(UInt64.self)))
            case .bool:
                attributes[key] = .bool(try reader.byte() != 0)
            case .date:
                let seconds = Double(bitPattern: try reader.integer(UInt64.self))
                attributes[key] = .date(Date(timeIntervalSinceReferenceDate: seconds))
            case nil:
                throw KeychainError(.decode, "item metadata is damaged")
            }
        }
        guard reader.isAtEnd else { throw KeychainError(.decode, "item metadata is damaged") }
        return attributes
    }

    // MARK: Private

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.bigEndian) { data.append(contentsOf: $0) }
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() throws(KeychainError) -> UInt8 {
            let slice = try bytes(1)
            return slice[slice.startIndex]
        }

        mutating func bytes(_ count: Int) throws(KeychainError) -> ArraySlice<UInt8> {
            guard count >= 0, bytes.count - offset >= count else {
                throw KeychainError(.decode, "item metadata is truncated")
            }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func integer<T: FixedWidthInteger>(_: T.Type) throws(KeychainError) -> T {
            try bytes(MemoryLayout<T>.size).reduce(T(0)) { ($0 << 8) | T($1) }
        }
    }
}
