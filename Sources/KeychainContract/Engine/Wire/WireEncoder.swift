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

/// Encodes `Encodable` values to the engine's binary format (``WireValue``).
///
/// `Data` and `[UInt8]` become byte strings rather than arrays of numbers; everything else takes
/// the shape its `encode(to:)` gives it.
struct WireEncoder {
    /// The bytes of `value`.
    func encode(_ value: some Encodable) throws -> [UInt8] {
        let root = Node()
        try Self.encode(value, into: root, codingPath: [])
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        root.value.write(to: &bytes)
        return bytes
    }

    fileprivate static func encode<Value: Encodable>(
        _ value: Value,
        into node: Node,
        codingPath: [any CodingKey]
    ) throws {
        // Exact types only: `as?` would also take an empty array of anything for `[UInt8]`.
        if Value.self == Data.self, let data = value as? Data {
            node.content = .value(.bytes(Array(data)))
        } else if Value.self == [UInt8].self, let bytes = value as? [UInt8] {
            node.content = .value(.bytes(bytes))
        } else {
            try value.encode(to: Encoding(node: node, codingPath: codingPath))
        }
    }

    /// A value being built: containers are filled after they are handed out, so they share it.
    fileprivate final class Node {
        enum Content {
            case empty
            case value(WireValue)
            case array([Node])
            case keyed([(String, Node)])
        }

        var content = Content.empty

        var value: WireValue {
            switch content {
            case .empty: .keyed([])
            case .value(let value): value
            case .array(let nodes): .array(nodes.map(\.value))
            case .keyed(let pairs): .keyed(pairs.map { ($0.0, $0.1.value) })
            }
        }

        func append(_ key: String) -> Node {
            let child = Node()
            if case .keyed(var pairs) = content {
                content = .empty
                pairs.append((key, child))
                content = .keyed(pairs)
            } else {
                content = .keyed([(key, child)])
            }
            return child
        }

        func append() -> Node {
            let child = Node()
            if case .array(var nodes) = content {
                content = .empty
                nodes.append(child)
                content = .array(nodes)
            } else {
                content = .array([child])
            }
            return child
        }

        var count: Int {
            if case .array(let nodes) = content { return nodes.count }
            return 0
        }
    }

    private struct Encoding: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .keyed = node.content {} else { node.content = .keyed([]) }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .array = node.content {} else { node.content = .array([]) }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node, codingPath: codingPath)
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func put(_ value: WireValue, _ key: Key) { node.append(key.stringValue).content = .value(value) }

        mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { put(.double(value), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { put(.double(Double(value)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { put(.int(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { put(.int(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.uint(UInt64(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.uint(value), key) }

        mutating func encode(_ value: some Encodable, forKey key: Key) throws {
            try WireEncoder.encode(value, into: node.append(key.stringValue), codingPath: codingPath + [key])
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = node.append(key.stringValue)
            child.content = .keyed([])
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = node.append(key.stringValue)
            child.content = .array([])
            return Unkeyed(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder {
            Encoding(node: node.append("super"), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            Encoding(node: node.append(key.stringValue), codingPath: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int { node.count }

        private func put(_ value: WireValue) { node.append().content = .value(value) }

        mutating func encodeNil() throws { put(.null) }
        mutating func encode(_ value: Bool) throws { put(.bool(value)) }
        mutating func encode(_ value: String) throws { put(.string(value)) }
        mutating func encode(_ value: Double) throws { put(.double(value)) }
        mutating func encode(_ value: Float) throws { put(.double(Double(value))) }
        mutating func encode(_ value: Int) throws { put(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { put(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { put(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { put(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { put(.int(value)) }
        mutating func encode(_ value: UInt) throws { put(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { put(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { put(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { put(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { put(.uint(value)) }

        mutating func encode(_ value: some Encodable) throws {
            try WireEncoder.encode(value, into: node.append(), codingPath: codingPath)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            let child = node.append()
            child.content = .keyed([])
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = node.append()
            child.content = .array([])
            return Unkeyed(node: child, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            Encoding(node: node.append(), codingPath: codingPath)
        }
    }

    private struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.content = .value(.null) }
        mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
        mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
        mutating func encode(_ value: Double) throws { node.content = .value(.double(value)) }
        mutating func encode(_ value: Float) throws { node.content = .value(.double(Double(value))) }
        mutating func encode(_ value: Int) throws { node.content = .value(.int(Int64(value))) }
        mutating func encode(_ value: Int8) throws { node.content = .value(.int(Int64(value))) }
        mutating func encode(_ value: Int16) throws { node.content = .value(.int(Int64(value))) }
        mutating func encode(_ value: Int32) throws { node.content = .value(.int(Int64(value))) }
        mutating func encode(_ value: Int64) throws { node.content = .value(.int(value)) }
        mutating func encode(_ value: UInt) throws { node.content = .value(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt8) throws { node.content = .value(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt16) throws { node.content = .value(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt32) throws { node.content = .value(.uint(UInt64(value))) }
        mutating func encode(_ value: UInt64) throws { node.content = .value(.uint(value)) }

        mutating func encode(_ value: some Encodable) throws {
            try WireEncoder.encode(value, into: node, codingPath: codingPath)
        }
    }
}
