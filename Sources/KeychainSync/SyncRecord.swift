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

package import Crypto
package import Foundation

/// One item's latest state as the server keeps it: sealed under the circle's key of its class and
/// signed by the device that wrote it.
///
/// The server sees the circle, a keyed hash naming the item, the version (a time and a device),
/// the key generation and class, and a ciphertext whose length is a bucket: never an attribute,
/// a label or a secret. Everything it sees is bound into the ciphertext and the signature, so a
/// row moved to another circle or item, or given another version, does not open.
package struct SyncRecord: Sendable {
    private static let magic = Data("SWKC-ITEM-1".utf8)
    package static let itemIDLength = 32

    package let circle: CircleID
    /// The keyed hash of the item's class and primary key (``itemID(of:naming:)``).
    package let itemID: Data
    package let version: SyncVersion
    package let generation: UInt32
    package let syncClass: SyncClass
    private let sealed: Data
    private var signature: Data

    /// The record as the server stores it.
    package var encoded: Data {
        var writer = WireWriter()
        writer.appendFixed(body)
        writer.appendField(signature)
        return writer.bytes
    }

    /// The name of an item in a circle: HMAC-SHA256 under the naming key of the bytes that identify it
    /// (its class and primary key, encoded by the caller).
    package static func itemID(of identity: Data, naming: SymmetricKey) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: identity, using: naming))
    }

    /// Seals `payload` (already padded to its bucket) and signs the record as `identity`.
    package init(
        payload: Data,
        itemID: Data,
        version: SyncVersion,
        syncClass: SyncClass,
        keys: CircleKeys,
        circle: CircleID,
        signedBy identity: DeviceIdentity
    ) throws(SyncError) {
        guard itemID.count == Self.itemIDLength, version.device == identity.id else {
            throw SyncError(.misplaced, "a record is signed by the device that made its version")
        }
        guard syncClass != .whenUnlocked || keys.hasWhenUnlocked else {
            throw SyncError(.undecryptable, "the circle's whenUnlocked key is not available while locked")
        }
        self.circle = circle
        self.itemID = itemID
        self.version = version
        self.generation = keys.generation
        self.syncClass = syncClass
        let aad = Self.header(
            circle: circle,
            itemID: itemID,
            version: version,
            generation: keys.generation,
            syncClass: syncClass
        )
        guard let box = try? AES.GCM.seal(payload, using: keys.key(for: syncClass), authenticating: aad),
            let combined = box.combined
        else { throw SyncError(.malformed, "a record could not be sealed") }
        self.sealed = combined
        self.signature = Data()
        self.signature = identity.recordSignature(for: body)
    }

    /// The device a record says made its version, read without checking anything.
    ///
    /// For passing over a device's own records when they come back: one that lies about it is
    /// passed over too, as the server could withhold it anyway. `nil` when the bytes are no record.
    package static func claimedDevice(of data: Data) -> DeviceID? {
        var reader = WireReader(data)
        guard (try? reader.fixed(magic.count)) == magic, (try? reader.fixed(CircleID.length + itemIDLength)) != nil,
            let encoded = try? reader.fixed(SyncVersion.encodedLength)
        else { return nil }
        return (try? SyncVersion(encoded: encoded))?.device
    }

    /// Reads a record's public part (what the server also sees) and checks it names `circle` and
    /// is signed by a device of `trusted`.
    package init(decoding data: Data, circle: CircleID, trusted: DeviceList) throws(SyncError) {
        var reader = WireReader(data)
        guard try reader.fixed(Self.magic.count) == Self.magic else { throw SyncError(.malformed, "not a record") }
        self.circle = try CircleID(rawValue: try reader.fixed(CircleID.length))
        itemID = try reader.fixed(Self.itemIDLength)
        version = try SyncVersion(encoded: try reader.fixed(SyncVersion.encodedLength))
        generation = try reader.uint32()
        guard let syncClass = SyncClass(rawValue: try reader.byte()) else {
            throw SyncError(.malformed, "a record's class")
        }
        self.syncClass = syncClass
        sealed = try reader.field()
        signature = try reader.field()
        try reader.finish()
        guard self.circle == circle else { throw SyncError(.misplaced, "a record of another circle") }
        guard let signer = trusted.record(of: version.device), signer.hasSignedRecord(body, signature: signature) else {
            throw SyncError(.untrusted, "a record not signed by a trusted device")
        }
    }

    /// The payload, opened with the circle's keys of the record's generation.
    package func payload(with keys: CircleKeys) throws(SyncError) -> Data {
        guard keys.generation == generation else { throw SyncError(.misplaced, "a record of another generation") }
        guard syncClass != .whenUnlocked || keys.hasWhenUnlocked else {
            throw SyncError(.undecryptable, "the circle's whenUnlocked key is not available while locked")
        }
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let plaintext = try? AES.GCM.open(box, using: keys.key(for: syncClass), authenticating: header)
        else { throw SyncError(.undecryptable, "a record does not open with the circle's keys") }
        return plaintext
    }

    /// The ciphertext's length: what the server learns of the payload's size.
    package var sealedCount: Int { sealed.count }

    private var header: Data {
        Self.header(circle: circle, itemID: itemID, version: version, generation: generation, syncClass: syncClass)
    }

    private var body: Data {
        var writer = WireWriter()
        writer.appendFixed(header)
        writer.appendField(sealed)
        return writer.bytes
    }

    private static func header(
        circle: CircleID,
        itemID: Data,
        version: SyncVersion,
        generation: UInt32,
        syncClass: SyncClass
    ) -> Data {
        var writer = WireWriter()
        writer.appendFixed(magic)
        writer.appendFixed(circle.rawValue)
        writer.appendFixed(itemID)
        writer.appendFixed(version.encoded)
        writer.append(generation)
        writer.append(syncClass.rawValue)
        return writer.bytes
    }
}
