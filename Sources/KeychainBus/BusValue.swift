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

/// One value of a D-Bus message, with enough type to write it back (an empty array keeps the
/// signature of its elements).
package indirect enum BusValue: Sendable, Hashable {
    case byte(UInt8)
    case boolean(Bool)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// A file descriptor, valid while the message that carried it is alive (``BusCall`` keeps it).
    case unixFD(Int32)
    /// An array of `element`-typed values; an array of bytes is ``bytes(_:)``.
    case array(element: String, [BusValue])
    /// An array of bytes (`ay`), read and written in one piece.
    case bytes([UInt8])
    /// A dictionary entry, the element of an `a{..}` array.
    case entry(BusValue, BusValue)
    case structure([BusValue])
    case variant(BusValue)

    /// The value's D-Bus signature.
    package var signature: String {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .bytes: "ay"
        case .entry(let key, let value): "{" + key.signature + value.signature + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }
}

extension BusValue {
    /// A dictionary (`a{kv}`) of string keys.
    package static func dictionary(_ values: [String: BusValue], valueSignature: String) -> BusValue {
        .array(
            element: "{s\(valueSignature)}",
            values.sorted { $0.key < $1.key }.map { .entry(.string($0.key), $0.value) }
        )
    }

    /// A string-to-variant dictionary (`a{sv}`), as properties travel.
    package static func properties(_ values: [String: BusValue]) -> BusValue {
        dictionary(values.mapValues { .variant($0) }, valueSignature: "v")
    }

    /// An array of object paths (`ao`).
    package static func paths(_ paths: [String]) -> BusValue {
        .array(element: "o", paths.map { .objectPath($0) })
    }

    /// The string of a `s`, `o` or `g` value.
    package var string: String? {
        switch self {
        case .string(let value), .objectPath(let value), .signature(let value): value
        default: nil
        }
    }

    /// The object path of an `o` value.
    package var objectPath: String? {
        if case .objectPath(let value) = self { return value }
        return nil
    }

    /// The value of a `b` value.
    package var boolean: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    /// The value inside a variant.
    package var unwrapped: BusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The entries of a dictionary whose keys are strings, or `nil` for anything else (a repeated
    /// key keeps its last value, as the D-Bus libraries do).
    package var stringDictionary: [String: BusValue]? {
        guard case .array(_, let elements) = self else { return nil }
        var result: [String: BusValue] = [:]
        for element in elements {
            guard case .entry(.string(let key), let value) = element else { return nil }
            result[key] = value
        }
        return result
    }

    /// The elements of an array.
    package var elements: [BusValue]? {
        if case .array(_, let elements) = self { return elements }
        return nil
    }
}
