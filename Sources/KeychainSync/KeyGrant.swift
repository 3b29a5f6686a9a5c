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

/// One generation of a circle's keys, wrapped to one device's agreement key and signed by the
/// device that granted them.
///
/// The wrapping is ECIES-like: an ephemeral P-256 key, HKDF-SHA256 of the shared secret (salted
/// with the circle, bound to the recipient and the generation), AES-GCM. Only the recipient opens
/// it; only a trusted granter's signature makes a device use it.
package struct KeyGrant: Sendable {
    private static let magic = Data("SWKC-GRANT-1".utf8)

    package let circle: CircleID
    package let recipient: DeviceID
    package let generation: UInt32
    package let granter: DeviceID
    private let ephemeralKey: Data
    private let sealed: Data
    private var signature: Data

    /// The grant as stored on the server.
    package var encoded: Data {
        var writer = WireWriter()
        writer.appendFixed(body)
        writer.appendField(signature)
        return writer.bytes
    }

    /// Wraps `keys` to `recipient`, signed by `granter`.
    package init(
        _ keys: CircleKeys,
        circle: CircleID,
        to recipient: DeviceRecord,
        by granter: DeviceIdentity
    ) throws(SyncError) {
        guard keys.hasWhenUnlocked else {
            throw SyncError(.undecryptable, "the circle's whenUnlocked key is not available while locked")
        }
        guard let agreement = try? P256.KeyAgreement.PublicKey(x963Representation: recipient.agreementKey) else {
            throw SyncError(.malformed, "a device's agreement key is not a P-256 key")
        }
        let ephemeral = P256.KeyAgreement.PrivateKey()
        guard let agreed = try? ephemeral.sharedSecretFromKeyAgreement(with: agreement) else {
            throw SyncError(.malformed, "no key agreement with a device's key")
        }
        let shared = agreed.withUnsafeBytes { SymmetricKey(data: $0) }
        self.circle = circle
        self.recipient = recipient.id
        self.generation = keys.generation
        self.granter = granter.id
        self.ephemeralKey = ephemeral.publicKey.x963Representation
        var plaintext = WireWriter()
        plaintext.appendField(keys.rawRepresentation(of: .afterFirstUnlock))
        plaintext.appendField(keys.rawRepresentation(of: .whenUnlocked))
        let key = Self.wrappingKey(shared, circle: circle, recipient: recipient.id, generation: keys.generation)
        guard
            let box = try? AES.GCM.seal(
                plaintext.bytes,
                using: key,
                authenticating: Self.aad(
                    circle: circle,
                    recipient: recipient.id,
                    generation: keys.generation,
                    granter: granter.id,
                    ephemeralKey: ephemeralKey
                )
            ), let combined = box.combined
        else { throw SyncError(.malformed, "a grant could not be sealed") }
        self.sealed = combined
        self.signature = Data()
        self.signature = try granter.signature(for: body)
    }

    /// Reads a grant for `identity` and opens it, if a device of `trusted` signed it.
    ///
    /// - Returns: The keys, with both parts.
    package static func open(
        _ data: Data,
        circle: CircleID,
        for identity: DeviceIdentity,
        trusted: DeviceList
    ) throws(SyncError) -> CircleKeys {
        let grant = try KeyGrant(decoding: data)
        guard grant.circle == circle, grant.recipient == identity.id else {
            throw SyncError(.misplaced, "a grant for another circle or device")
        }
        guard let granter = trusted.record(of: grant.granter), granter.hasSigned(grant.body, signature: grant.signature)
        else { throw SyncError(.untrusted, "a grant not signed by a trusted device") }
        let shared = try identity.sharedSecret(with: grant.ephemeralKey)
        let key = wrappingKey(shared, circle: circle, recipient: identity.id, generation: grant.generation)
        guard let box = try? AES.GCM.SealedBox(combined: grant.sealed),
            let plaintext = try? AES.GCM.open(box, using: key, authenticating: grant.aad)
        else { throw SyncError(.undecryptable, "a grant does not open") }
        var reader = WireReader(plaintext)
        let afu = try reader.field()
        let wu = try reader.field()
        try reader.finish()
        let keys = try CircleKeys(afterFirstUnlock: afu, whenUnlocked: wu)
        guard keys.generation == grant.generation else { throw SyncError(.misplaced, "a grant's generation") }
        return keys
    }

    /// The generation and recipient a grant claims, unchecked: to pick which grants to open.
    package static func peek(_ data: Data) throws(SyncError) -> (recipient: DeviceID, generation: UInt32) {
        let grant = try KeyGrant(decoding: data)
        return (grant.recipient, grant.generation)
    }

    private init(decoding data: Data) throws(SyncError) {
        var reader = WireReader(data)
        guard try reader.fixed(Self.magic.count) == Self.magic else { throw SyncError(.malformed, "not a grant") }
        circle = try CircleID(rawValue: try reader.fixed(CircleID.length))
        recipient = try DeviceID(rawValue: try reader.fixed(DeviceID.length))
        generation = try reader.uint32()
        granter = try DeviceID(rawValue: try reader.fixed(DeviceID.length))
        ephemeralKey = try reader.field()
        sealed = try reader.field()
        signature = try reader.field()
        try reader.finish()
    }

    private var aad: Data {
        Self.aad(
            circle: circle,
            recipient: recipient,
            generation: generation,
            granter: granter,
            ephemeralKey: ephemeralKey
        )
    }

    private var body: Data {
        var writer = WireWriter()
        writer.appendFixed(Self.magic)
        writer.appendFixed(circle.rawValue)
        writer.appendFixed(recipient.rawValue)
        writer.append(generation)
        writer.appendFixed(granter.rawValue)
        writer.appendField(ephemeralKey)
        writer.appendField(sealed)
        return writer.bytes
    }

    private static func aad(
        circle: CircleID,
        recipient: DeviceID,
        generation: UInt32,
        granter: DeviceID,
        ephemeralKey: Data
    ) -> Data {
        var writer = WireWriter()
        writer.appendFixed(magic)
        writer.appendFixed(circle.rawValue)
        writer.appendFixed(recipient.rawValue)
        writer.append(generation)
        writer.appendFixed(granter.rawValue)
        writer.appendField(ephemeralKey)
        return writer.bytes
    }

    private static func wrappingKey(
        _ shared: SymmetricKey,
        circle: CircleID,
        recipient: DeviceID,
        generation: UInt32
    ) -> SymmetricKey {
        var info = WireWriter()
        info.appendFixed(Data("swift-keychain sync grant".utf8))
        info.appendFixed(recipient.rawValue)
        info.append(generation)
        // As SharedSecret's hkdfDerivedSymmetricKey does: the secret is HKDF's input key material.
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: shared,
            salt: circle.rawValue,
            info: info.bytes,
            outputByteCount: 32
        )
    }
}
