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

/// Writes TPM structures: big-endian integers and sized buffers (TPM 2.0 Part 2's `TPM2B_` types).
package struct TPMWriter: Sendable {
    package private(set) var bytes: [UInt8] = []

    package init() {}

    package mutating func append(_ value: UInt8) { bytes.append(value) }

    package mutating func append(_ value: UInt16) {
        bytes.append(UInt8(value >> 8))
        bytes.append(UInt8(value & 0xFF))
    }

    package mutating func append(_ value: UInt32) {
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8((value >> UInt32(shift)) & 0xFF)) }
    }

    /// Raw bytes, with no size in front.
    package mutating func append(raw: some Sequence<UInt8>) { bytes.append(contentsOf: raw) }

    /// A `TPM2B_`: a 16-bit size, then the bytes (never more than 65,535: a longer buffer is cut,
    /// and the TPM refuses the command rather than this process trapping).
    package mutating func appendSized(_ data: some Collection<UInt8>) {
        let count = min(data.count, Int(UInt16.max))
        append(UInt16(count))
        bytes.append(contentsOf: data.prefix(count))
    }

    /// A `TPM2B_` around a structure written by `body`.
    package mutating func appendSized(_ body: (inout TPMWriter) -> Void) {
        var inner = TPMWriter()
        body(&inner)
        appendSized(inner.bytes)
    }
}

/// Reads TPM structures from a response; every read checks the length, so a short or hostile
/// response is an error, never a crash.
package struct TPMReader: Sendable {
    private let bytes: [UInt8]
    private(set) var offset: Int

    package init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    /// Whether every byte was read.
    package var isAtEnd: Bool { offset == bytes.count }

    package mutating func readUInt8() throws(TPMError) -> UInt8 {
        try take(1)[0]
    }

    package mutating func readUInt16() throws(TPMError) -> UInt16 {
        let part = try take(2)
        return UInt16(part[0]) << 8 | UInt16(part[1])
    }

    package mutating func readUInt32() throws(TPMError) -> UInt32 {
        let part = try take(4)
        return part.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A `TPM2B_`'s bytes.
    package mutating func readSized() throws(TPMError) -> [UInt8] {
        let count = Int(try readUInt16())
        return try take(count)
    }

    /// A `TPM2B_` with its size in front, as it is sent back to the TPM.
    package mutating func readSizedWhole() throws(TPMError) -> [UInt8] {
        let start = offset
        _ = try readSized()
        return Array(bytes[start..<offset])
    }

    package mutating func take(_ count: Int) throws(TPMError) -> [UInt8] {
        guard count >= 0, bytes.count - offset >= count else {
            throw TPMError(.failed, context: "a TPM response is shorter than its structure")
        }
        defer { offset += count }
        return Array(bytes[offset..<(offset + count)])
    }
}
