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
package import KeychainCore

/// The engine's wire format: what a request or a reply is as bytes.
///
/// A message is one version byte followed by the ``EngineRequest`` or ``EngineResponse`` in the
/// engine's binary format (``WireValue``: tagged values, variable-length integers; version 1 was a
/// binary property list, which cost more than half a millisecond a round trip). A peer that reads
/// another version, more than ``maximumMessageSize`` bytes, or bytes that do not decode to a message
/// refuses it; nothing in a message is trusted before it decodes. The daemon's socket adds a
/// length prefix per message.
package enum EngineWire {
    /// The version of the format this build speaks.
    package static let version: UInt8 = 2
    /// The largest message accepted: a full page of results of the largest items.
    package static let maximumMessageSize = 64 << 20

    /// Encodes a message.
    package static func encode(_ message: some Encodable) throws(KeychainCoreError) -> [UInt8] {
        let body: [UInt8]
        do {
            body = try WireEncoder().encode(message)
        } catch {
            throw KeychainCoreError(.internalInconsistency, "cannot encode an engine message: \(error)")
        }
        guard body.count < maximumMessageSize else {
            throw KeychainCoreError(.dataTooLarge, "the engine message is larger than \(maximumMessageSize) bytes")
        }
        return [version] + body
    }

    /// Decodes a message; malformed, oversized or foreign-version bytes are ``KeychainCoreError/Code/invalidParameter``.
    package static func decode<Message: Decodable>(_ type: Message.Type, from bytes: [UInt8]) throws(KeychainCoreError) -> Message {
        guard bytes.count <= maximumMessageSize else {
            throw KeychainCoreError(.invalidParameter, "an engine message is larger than \(maximumMessageSize) bytes")
        }
        guard let first = bytes.first else {
            throw KeychainCoreError(.invalidParameter, "an engine message is empty")
        }
        guard first == version else {
            throw KeychainCoreError(.invalidParameter, "an engine message has version \(first); this build speaks \(version)")
        }
        do {
            return try WireDecoder().decode(Message.self, from: bytes.dropFirst())
        } catch {
            throw KeychainCoreError(.invalidParameter, "an engine message does not decode")
        }
    }
}
