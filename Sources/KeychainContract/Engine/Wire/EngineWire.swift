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
/// A message is one version byte, one byte naming its form, then the ``EngineRequest`` or
/// ``EngineResponse``: the item requests, the lock state and their replies in the hand-written
/// ``CompactForm``, every other message in the engine's general format (``WireValue``: tagged
/// values, variable-length integers, through `Codable`). Version 1 was a binary property list, which
/// cost more than half a millisecond a round trip; version 2 had the general format only, which cost
/// more than the engine's own work for a look-up; version 3 had the lock state (which every process
/// asks for first) in the general format; version 4 had no key operations in item queries (token
/// keys); version 5 had none on keys sealed into blobs (CryptoKit's Secure Enclave keys); version 6 had no backup;
/// version 7 did not name the store of the device secret (file or TPM) in the lock state; version 8
/// had no login events (the PAM module writes those in the compact form itself); version 9 had no
/// sync commands. A peer that
/// reads another version, more than ``maximumMessageSize`` bytes, or bytes that do not decode to a message refuses it; nothing in a
/// message is trusted before it decodes. The daemon's socket adds a length prefix per message.
package enum EngineWire {
    /// The version of the format this build speaks.
    package static let version: UInt8 = 10
    /// The largest message accepted: a full page of results of the largest items.
    package static let maximumMessageSize = 64 << 20

    /// Encodes a request.
    package static func encode(_ request: EngineRequest) throws(KeychainError) -> [UInt8] {
        try message(compact: CompactForm.encode(request), kind: .request, general: request)
    }

    /// Encodes a reply.
    package static func encode(_ response: EngineResponse) throws(KeychainError) -> [UInt8] {
        try message(compact: CompactForm.encode(response), kind: .response, general: response)
    }

    /// Decodes a request; malformed, oversized or foreign-version bytes are ``KeychainError/Code/invalidParameter``.
    package static func decode(_ type: EngineRequest.Type, from bytes: [UInt8]) throws(KeychainError) -> EngineRequest {
        try decode(bytes, kind: .request, compact: CompactForm.request(in:from:))
    }

    /// Decodes a reply; malformed, oversized or foreign-version bytes are ``KeychainError/Code/invalidParameter``.
    package static func decode(_ type: EngineResponse.Type, from bytes: [UInt8]) throws(KeychainError) -> EngineResponse
    {
        try decode(bytes, kind: .response, compact: CompactForm.response(in:from:))
    }

    // MARK: Private

    private static func message(
        compact: [UInt8]?,
        kind: CompactForm.Kind,
        general message: some Encodable
    ) throws(KeychainError) -> [UInt8] {
        var bytes: [UInt8]
        if let compact {
            bytes = [version, kind.rawValue]
            bytes += compact
        } else {
            do {
                bytes = [version, CompactForm.Kind.general.rawValue]
                bytes += try WireEncoder().encode(message)
            } catch {
                throw KeychainError(.internalInconsistency, "cannot encode an engine message: \(error)")
            }
        }
        guard bytes.count <= maximumMessageSize else {
            throw KeychainError(.dataTooLarge, "the engine message is larger than \(maximumMessageSize) bytes")
        }
        return bytes
    }

    private static func decode<Message: Decodable>(
        _ bytes: [UInt8],
        kind: CompactForm.Kind,
        compact: ([UInt8], Int) throws(WireValue.Malformed) -> Message
    ) throws(KeychainError) -> Message {
        guard bytes.count <= maximumMessageSize else {
            throw KeychainError(.invalidParameter, "an engine message is larger than \(maximumMessageSize) bytes")
        }
        guard let first = bytes.first else {
            throw KeychainError(.invalidParameter, "an engine message is empty")
        }
        guard first == version else {
            throw KeychainError(
                .invalidParameter,
                "an engine message has version \(first); this build speaks \(version)"
            )
        }
        do {
            switch bytes.count > 1 ? CompactForm.Kind(rawValue: bytes[1]) : nil {
            case .general?: return try WireDecoder().decode(Message.self, from: bytes.dropFirst(2))
            case kind?: return try compact(bytes, 2)
            default: throw WireValue.Malformed()
            }
        } catch {
            throw KeychainError(.invalidParameter, "an engine message does not decode")
        }
    }
}
