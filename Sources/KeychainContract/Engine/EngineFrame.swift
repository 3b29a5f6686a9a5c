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

/// How the daemon's socket carries engine messages: each one as a 4-byte big-endian length
/// followed by that many bytes (an ``EngineWire`` message).
///
/// A length of zero or above ``maximumLength`` is a protocol violation: the daemon closes that
/// connection, and only that one.
package enum EngineFrame {
    /// The bytes of a frame's length prefix.
    package static let headerLength = 4
    /// The longest message a frame may carry.
    package static let maximumLength = EngineWire.maximumMessageSize

    /// The length prefix of a message of `count` bytes.
    package static func header(forLength count: Int) -> [UInt8] {
        let length = UInt32(truncatingIfNeeded: count)
        return [UInt8(length >> 24), UInt8((length >> 16) & 0xFF), UInt8((length >> 8) & 0xFF), UInt8(length & 0xFF)]
    }

    /// The message length a prefix announces; `nil` when it is zero or too long.
    package static func length(ofHeader header: some Collection<UInt8>) -> Int? {
        guard header.count == headerLength else { return nil }
        let length = header.reduce(0) { ($0 << 8) | Int($1) }
        return length > 0 && length <= maximumLength ? length : nil
    }
}
