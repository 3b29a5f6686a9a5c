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

/// Decodes `Decodable` values from the engine's binary format (``WireValue``).
///
/// A value of the wrong shape, a number out of its type's range or a missing key is a
/// `DecodingError`, as with any decoder; nothing is trusted before it decodes.
struct WireDecoder {
    /// The value of type `type` that `bytes` hold.
    func decode<Value: Decodable>(_ type: Value.Type, from bytes: some Collection<UInt8>) throws -> Value {
        let root: WireValue
        do {
            root = try WireValue(reading: bytes)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(codingPath: [], debugDescription: "not a value of the engine's format")
            )
        }
        return try Self.decode(type, from: root, codingPath: [])
    }

    fileprivate static func decode<Value: Decodable>(
        _ type: Value.Type,
        from value: WireValue,
        codingPath: [any CodingKey]
    ) throws -> Value {
        if type == Data.self || type == [UInt8].self {
            guard case .bytes(let bytes) = value else { throw mismatch(type, value, codingPath) }
            guard let decoded = (type == Data.self ? Data(bytes) as Any : bytes as Any) as? Value else {
                preconditionFailure("Value is Data or [UInt8], and the bytes were made into that type")
            }
            return decoded
        }
        return try Value(from: Decoding(value: value, codingPath: codingPath))
    }

    fileprivate static func mismatch(
        _ type: Any.Type,
        _ value: WireValue,
        _ codingPath: [any CodingKey]
    ) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value.kind)"))
    }

    // MARK: Scalars

    fileprivate static func bool(_ value: WireValue, _ codingPath: [any CodingKey]) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, codingPath) }
        return bool
    }

    fileprivate static func string(_ value: WireValue, _ codingPath: [any CodingKey]) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, codingPath) }
        return string
    }

    fileprivate static func double(_ value: WireValue, _ codingPath: [any CodingKey]) throws -> Double {
        guard case .double(let double) = value else { throw mismatch(Double.self, value, codingPath) }
        return double
    }

    fileprivate static func integer<Integer: FixedWidthInteger>(
        _ type: Integer.Type,
        _ value: WireValue,
        _ codingPath: [any CodingKey]
    ) throws -> Integer {
        let result: Integer?
        switch value {
        case .int(let int): result = Integer(exactly: int)
        case .uint(let uint): result = Integer(exactly: uint)
        default: throw mismatch(type, value, codingPath)
        }
        guard let result else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: codingPath, debugDescription: "number out of range for \(type)")
            )
        }
        return result
    }

    // MARK: Containers

    private struct Decoding: Decoder {
        let value: WireValue
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .keyed(let pairs) = value else {
                throw WireDecoder.mismatch([String: Any].self, value, codingPath)
            }
            return KeyedDecodingContainer(Keyed<Key>(pairs: pairs, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = value else { throw WireDecoder.mismatch([Any].self, value, codingPath) }
            return Unkeyed(elements: elements, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            Single(value: value, codingPath: codingPath)
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let pairs: [(key: String, value: WireValue)]
        let codingPath: [any CodingKey]

        var allKeys: [Key] { pairs.compactMap { Key(stringValue: $0.key) } }

        func contains(_ key: Key) -> Bool { pairs.contains { $0.key == key.stringValue } }

        private func value(_ key: Key) throws -> WireValue {
            let name = key.stringValue
            guard let pair = pairs.first(where: { $0.key == name }) else {
                throw DecodingError.keyNotFound(
                    key,
                    .init(codingPath: codingPath, debugDescription: "no value for \(name)")
                )
            }
            return pair.value
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
            try WireDecoder.bool(value(key), codingPath + [key])
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            try WireDecoder.string(value(key), codingPath + [key])
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            try WireDecoder.double(value(key), codingPath + [key])
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
            Float(try WireDecoder.double(value(key), codingPath + [key]))
        }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
            try WireDecoder.integer(type, value(key), codingPath + [key])
        }

        func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
            try WireDecoder.decode(type, from: value(key), codingPath: codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type,
            forKey key: Key
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try Decoding(value: value(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try Decoding(value: value(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            Decoding(value: pairs.first { $0.key == "super" }?.value ?? .null, codingPath: codingPath)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            Decoding(value: try value(key), codingPath: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [WireValue]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        private mutating func next(_ type: Any.Type) throws -> WireValue {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    type,
                    .init(codingPath: codingPath, debugDescription: "the array has no more elements")
                )
            }
            defer { currentIndex += 1 }
            return elements[currentIndex]
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, elements[currentIndex] == .null else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try WireDecoder.bool(next(type), codingPath) }
        mutating func decode(_ type: String.Type) throws -> String { try WireDecoder.string(next(type), codingPath) }
        mutating func decode(_ type: Double.Type) throws -> Double { try WireDecoder.double(next(type), codingPath) }
        mutating func decode(_ type: Float.Type) throws -> Float {
            Float(try WireDecoder.double(next(type), codingPath))
        }
        mutating func decode(_ type: Int.Type) throws -> Int { try WireDecoder.integer(type, next(type), codingPath) }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { try WireDecoder.integer(type, next(type), codingPath) }
        mutating func decode(_ type: Int16.Type) throws -> Int16 {
            try WireDecoder.integer(type, next(type), codingPath)
        }
        mutating func decode(_ type: Int32.Type) throws -> Int32 {
            try WireDecoder.integer(type, next(type), codingPath)
        }
        mutating func decode(_ type: Int64.Type) throws -> Int64 {
            try WireDecoder.integer(type, next(type), codingPath)
        }
        mutating func decode(_ type: UInt.Type) throws -> UInt { try WireDecoder.integer(type, next(type), codingPath) }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
            try WireDecoder.integer(type, next(type), codingPath)
        }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
            try WireDecoder.integer(type, next(type), codingPath)
        }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
            try WireDecoder.integer(type, next(type), codingPath)
        }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
            try WireDecoder.integer(type, next(type), codingPath)
        }

        mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try WireDecoder.decode(type, from: next(type), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy type: NestedKey.Type
        ) throws -> KeyedDecodingContainer<NestedKey> {
            try Decoding(value: next([String: Any].self), codingPath: codingPath).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try Decoding(value: next([Any].self), codingPath: codingPath).unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder {
            Decoding(value: try next(Any.self), codingPath: codingPath)
        }
    }

    private struct Single: SingleValueDecodingContainer {
        let value: WireValue
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool { value == .null }
        func decode(_ type: Bool.Type) throws -> Bool { try WireDecoder.bool(value, codingPath) }
        func decode(_ type: String.Type) throws -> String { try WireDecoder.string(value, codingPath) }
        func decode(_ type: Double.Type) throws -> Double { try WireDecoder.double(value, codingPath) }
        func decode(_ type: Float.Type) throws -> Float { Float(try WireDecoder.double(value, codingPath)) }
        func decode(_ type: Int.Type) throws -> Int { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: Int8.Type) throws -> Int8 { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: Int16.Type) throws -> Int16 { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: Int32.Type) throws -> Int32 { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: Int64.Type) throws -> Int64 { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: UInt.Type) throws -> UInt { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try WireDecoder.integer(type, value, codingPath) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try WireDecoder.integer(type, value, codingPath) }

        func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try WireDecoder.decode(type, from: value, codingPath: codingPath)
        }
    }
}

extension WireValue {
    /// What kind of value this is, for error messages (never the value itself).
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a Boolean"
        case .int, .uint: "a number"
        case .double: "a floating-point number"
        case .string: "a string"
        case .bytes: "bytes"
        case .array: "an array"
        case .keyed: "a keyed container"
        }
    }
}
