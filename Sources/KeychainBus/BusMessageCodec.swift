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

import CSDBus
import Foundation

/// Reads and writes ``BusValue``s in sd-bus messages, one value at a time.
struct BusMessageCodec {
    let api: c_sd_bus_api

    /// The most values one message may hold: a message of many small values would take many
    /// times its size once read (the bus daemon lets a message be 128 MiB).
    static let valueLimit = 65_536

    /// Every value of `message` from its current position.
    func readAll(_ message: OpaquePointer) throws(BusError) -> [BusValue] {
        var budget = Self.valueLimit
        return try readLevel(message, budget: &budget)
    }

    private func readLevel(_ message: OpaquePointer, budget: inout Int) throws(BusError) -> [BusValue] {
        var values: [BusValue] = []
        while let value = try read(message, budget: &budget) { values.append(value) }
        return values
    }

    /// The next value, or `nil` at the end of the current level.
    private func read(_ message: OpaquePointer, budget: inout Int) throws(BusError) -> BusValue? {
        budget -= 1
        guard budget >= 0 else {
            throw BusError.limitsExceeded("a message holds at most \(Self.valueLimit) values")
        }
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = api.message_peek_type(message, &type, &contents)
        guard peeked > 0 else {
            if peeked < 0 { throw Self.malformed }
            return nil
        }
        let code = UInt8(bitPattern: type)
        switch code {
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "e"), UInt8(ascii: "v"):
            let inner = contents.map { String(cString: $0) } ?? ""
            if code == UInt8(ascii: "a"), inner == "y" {
                var pointer: UnsafeRawPointer?
                var size = 0
                guard api.message_read_array(message, CChar(bitPattern: UInt8(ascii: "y")), &pointer, &size) >= 0
                else { throw Self.malformed }
                guard let pointer, size > 0 else { return .bytes([]) }
                return .bytes(Array(UnsafeRawBufferPointer(start: pointer, count: size)))
            }
            guard api.message_enter_container(message, type, inner) > 0 else { throw Self.malformed }
            let children = try readLevel(message, budget: &budget)
            guard api.message_exit_container(message) >= 0 else { throw Self.malformed }
            switch code {
            case UInt8(ascii: "a"): return .array(element: inner, children)
            case UInt8(ascii: "r"): return .structure(children)
            case UInt8(ascii: "e"):
                guard children.count == 2 else { throw Self.malformed }
                return .entry(children[0], children[1])
            default:
                guard children.count == 1 else { throw Self.malformed }
                return .variant(children[0])
            }
        default:
            return try readBasic(message, type)
        }
    }

    private func readBasic(_ message: OpaquePointer, _ type: CChar) throws(BusError) -> BusValue {
        func basic<T>(_ initial: T) throws(BusError) -> T {
            var value = initial
            guard withUnsafeMutablePointer(to: &value, { api.message_read_basic(message, type, $0) }) > 0 else {
                throw Self.malformed
            }
            return value
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "y"): return .byte(try basic(UInt8(0)))
        case UInt8(ascii: "b"): return .boolean(try basic(Int32(0)) != 0)
        case UInt8(ascii: "n"): return .int32(Int32(try basic(Int16(0))))
        case UInt8(ascii: "q"): return .uint32(UInt32(try basic(UInt16(0))))
        case UInt8(ascii: "i"): return .int32(try basic(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try basic(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try basic(Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try basic(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try basic(Double(0)))
        case UInt8(ascii: "h"): return .unixFD(try basic(Int32(-1)))
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            let pointer = try basic(UnsafePointer<CChar>?.none)
            let text = pointer.map { String(cString: $0) } ?? ""
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "s"): return .string(text)
            case UInt8(ascii: "o"): return .objectPath(text)
            default: return .signature(text)
            }
        default:
            throw Self.malformed
        }
    }

    /// Appends `values` to `message`; false when sd-bus refuses one (an invalid object path, a
    /// string with a NUL).
    func append(_ values: [BusValue], to message: OpaquePointer) -> Bool {
        values.allSatisfy { append($0, to: message) }
    }

    private func append(_ value: BusValue, to message: OpaquePointer) -> Bool {
        func basic<T>(_ type: Unicode.Scalar, _ value: T) -> Bool {
            var copy = value
            return withUnsafePointer(to: &copy) { api.message_append_basic(message, CChar(type.value), $0) } >= 0
        }
        func container(_ type: Unicode.Scalar, _ contents: String, _ children: [BusValue]) -> Bool {
            guard api.message_open_container(message, CChar(type.value), contents) >= 0 else { return false }
            guard append(children, to: message) else { return false }
            return api.message_close_container(message) >= 0
        }
        switch value {
        case .byte(let byte): return basic("y", byte)
        case .boolean(let flag): return basic("b", Int32(flag ? 1 : 0))
        case .int32(let number): return basic("i", number)
        case .uint32(let number): return basic("u", number)
        case .int64(let number): return basic("x", number)
        case .uint64(let number): return basic("t", number)
        case .double(let number): return basic("d", number)
        case .unixFD(let descriptor): return basic("h", descriptor)
        case .string(let text), .objectPath(let text), .signature(let text):
            guard !text.utf8.contains(0) else { return false }
            let type = CChar(value.signature.utf8.first ?? UInt8(ascii: "s"))
            return text.withCString { api.message_append_basic(message, type, $0) } >= 0
        case .bytes(let bytes):
            return bytes.withUnsafeBytes {
                api.message_append_array(message, CChar(UInt8(ascii: "y")), $0.baseAddress, bytes.count)
            } >= 0
        case .array(let element, let children):
            return container("a", element, children)
        case .entry(let key, let child):
            return container("e", key.signature + child.signature, [key, child])
        case .structure(let fields):
            return container("r", fields.map(\.signature).joined(), fields)
        case .variant(let inner):
            return container("v", inner.signature, [inner])
        }
    }

    static let malformed = BusError.invalidArguments("the message's arguments cannot be read")
}
