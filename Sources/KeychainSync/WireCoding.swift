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

/// Writes a circle message: fixed-width big-endian integers and length-prefixed byte strings.
package struct WireWriter: Sendable {
    package private(set) var bytes = Data()

    package init() {}

    package mutating func append(_ value: UInt8) { bytes.append(value) }

    package mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    package mutating func append(_ value: UInt64) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    /// Appends `data` as is: for fields of a fixed length.
    package mutating func appendFixed(_ data: Data) { bytes.append(data) }

    /// Appends `data` with its length (4 bytes) in front.
    package mutating func appendField(_ data: Data) {
        append(UInt32(data.count))
        bytes.append(data)
    }
}

/// Reads what ``WireWriter`` wrote, never trapping: every read past the end is `malformed`.
package struct WireReader {
    private let bytes: [UInt8]
    private var offset = 0
    /// The longest field a message may hold: an item's record with the largest secret (16 MiB),
    /// padded and sealed.
    package static let longestField = 17 << 20

    package init(_ data: Data) { bytes = Array(data) }

    package var isAtEnd: Bool { offset == bytes.count }

    package mutating func byte() throws(SyncError) -> UInt8 {
        try fixed(1).first ?? 0
    }

    package mutating func uint32() throws(SyncError) -> UInt32 {
        try fixed(4).reduce(0) { $0 << 8 | UInt32($1) }
    }

    package mutating func uint64() throws(SyncError) -> UInt64 {
        try fixed(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The next `count` bytes.
    package mutating func fixed(_ count: Int) throws(SyncError) -> Data {
        guard count >= 0, bytes.count - offset >= count else { throw SyncError(.malformed, "a message is truncated") }
        defer { offset += count }
        return Data(bytes[offset..<offset + count])
    }

    /// The next length-prefixed field.
    package mutating func field() throws(SyncError) -> Data {
        let count = Int(try uint32())
        guard count <= Self.longestField else { throw SyncError(.malformed, "a field is too long") }
        return try fixed(count)
    }

    /// Refuses bytes left after a message.
    package func finish() throws(SyncError) {
        guard isAtEnd else { throw SyncError(.malformed, "bytes follow a message") }
    }
}
