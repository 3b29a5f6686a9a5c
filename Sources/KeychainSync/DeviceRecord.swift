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

import Crypto
package import Foundation

/// A device as the circle's list names it: its id, its public keys and the name its user gave it.
///
/// The id is a hash of the three public keys: a list entry names its keys.
package struct DeviceRecord: Hashable, Sendable {
    /// The longest name, in UTF-8 bytes.
    package static let longestName = 64

    package let id: DeviceID
    /// Verifies what the device signs of the circle's membership (P-256, X9.63).
    package let signingKey: Data
    /// Receives the circle's keys (P-256 key agreement, X9.63).
    package let agreementKey: Data
    /// Verifies the item records the device writes (P-256, X9.63).
    package let recordKey: Data
    package let name: String

    /// A record for these keys, with the id they determine.
    package init(signingKey: Data, agreementKey: Data, recordKey: Data, name: String) throws(SyncError) {
        guard (try? P256.Signing.PublicKey(x963Representation: signingKey)) != nil,
            (try? P256.KeyAgreement.PublicKey(x963Representation: agreementKey)) != nil,
            let verifier = try? P256.Signing.PublicKey(x963Representation: recordKey)
        else { throw SyncError(.malformed, "a device's keys are not P-256 public keys") }
        // No control or format characters: a name is printed to a terminal (bidi overrides, escapes).
        guard name.utf8.count <= Self.longestName,
            !name.unicodeScalars.contains(where: {
                [.control, .format, .lineSeparator, .paragraphSeparator].contains($0.properties.generalCategory)
            })
        else { throw SyncError(.malformed, "a device's name is too long or holds control characters") }
        self.signingKey = signingKey
        self.agreementKey = agreementKey
        self.recordKey = recordKey
        self.recordVerifier = verifier
        self.name = name
        self.id = try Self.id(signingKey: signingKey, agreementKey: agreementKey, recordKey: recordKey)
    }

    /// The record key, parsed once: every record a device receives is checked with it.
    private let recordVerifier: P256.Signing.PublicKey

    /// The id of a device with these public keys.
    static func id(signingKey: Data, agreementKey: Data, recordKey: Data) throws(SyncError) -> DeviceID {
        var hash = SHA256()
        hash.update(data: Data("swift-keychain sync device 2".utf8))
        hash.update(data: signingKey)
        hash.update(data: agreementKey)
        hash.update(data: recordKey)
        return try DeviceID(rawValue: Data(hash.finalize().prefix(DeviceID.length)))
    }

    /// Whether `signature` over `message` is this device's, made with its membership key.
    package func hasSigned(_ message: Data, signature: Data) -> Bool {
        guard let key = try? P256.Signing.PublicKey(x963Representation: signingKey),
            let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature)
        else { return false }
        return key.isValidSignature(parsed, for: message)
    }

    /// Whether `signature` over an item record is this device's, made with its record key.
    package func hasSignedRecord(_ message: Data, signature: Data) -> Bool {
        guard let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return recordVerifier.isValidSignature(parsed, for: message)
    }

    func write(to writer: inout WireWriter) {
        writer.appendField(signingKey)
        writer.appendField(agreementKey)
        writer.appendField(recordKey)
        writer.appendField(Data(name.utf8))
    }

    static func read(from reader: inout WireReader) throws(SyncError) -> DeviceRecord {
        let signing = try reader.field()
        let agreement = try reader.field()
        let record = try reader.field()
        guard let name = String(data: try reader.field(), encoding: .utf8) else {
            throw SyncError(.malformed, "a device's name is not UTF-8")
        }
        return try DeviceRecord(signingKey: signing, agreementKey: agreement, recordKey: record, name: name)
    }

    package static func == (lhs: DeviceRecord, rhs: DeviceRecord) -> Bool {
        lhs.id == rhs.id && lhs.signingKey == rhs.signingKey && lhs.agreementKey == rhs.agreementKey
            && lhs.recordKey == rhs.recordKey && lhs.name == rhs.name
    }

    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
