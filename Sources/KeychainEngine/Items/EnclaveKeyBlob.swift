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
import Foundation
import KeychainCore

/// A private key sealed for its owner to keep: what CryptoKit's `SecureEnclave.P256` keys hand out
/// as their `dataRepresentation`.
///
/// The owner holds the bytes; the keys that open them never leave the engine. The blob names its
/// class, the generation of the class's blob key that sealed it, and a random identifier in the
/// clear; everything else is sealed under that blob key (see ``KeybagService/currentBlobKey(for:)``): the access control, the access group it was made in, the
/// public key, and the private key — itself sealed again, to the keybag's constraint keys, when the
/// access control has constraints, exactly as an item's secret key is (``ConstraintEnvelope``).
///
/// ```
/// 1 ‖ class name length ‖ class name ‖ generation (4, big-endian) ‖ identifier (16) ‖ AES-GCM(blob key, fields)
/// ```
struct EnclaveKeyBlob {
    // MARK: Properties

    let protection: ProtectionClass
    /// The generation of the class's blob key that sealed it.
    let generation: Int
    let identifier: Data
    /// What the blob key seals.
    private let sealed: Data

    private static let version: UInt8 = 1
    private static let identifierLength = 16
    /// The most bytes a blob may have (a sealed envelope is a few hundred bytes).
    static let maximumSize = 16 << 10

    // MARK: Sealing

    /// What a blob holds once opened.
    struct Contents {
        let accessControl: AccessControl
        let accessGroup: String
        /// The public key, X9.63.
        let publicKey: Data
        /// The private key (Apple's X9.63: public point ‖ scalar), or its sealed form.
        fileprivate let material: Material
    }

    fileprivate enum Material {
        case open(Data)
        case constrained(envelope: Data, sealedKey: Data)
    }

    /// Seals `privateKey` (X9.63) into a new blob under `blobKey`.
    ///
    /// With constraints, the private key is sealed to `sealToConstraints`'s envelope first.
    static func seal(
        privateKey: Data,
        publicKey: Data,
        accessControl: AccessControl,
        accessGroup: String,
        blobKey: (generation: Int, key: SymmetricKey),
        sealToConstraints: (SymmetricKey, AssociatedData) throws(KeychainError) -> ConstraintEnvelope
    ) throws(KeychainError) -> Data {
        let protection = accessControl.protection
        let identifier = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        var fields = TaggedFields(format: nil)
        fields.append(Field.accessControl.rawValue, Array(accessControl.storedRepresentation.utf8))
        fields.append(Field.accessGroup.rawValue, Array(accessGroup.utf8))
        fields.append(Field.publicKey.rawValue, publicKey)
        let bindings = Bindings(
            protection: protection,
            generation: blobKey.generation,
            identifier: identifier,
            accessControl: accessControl,
            accessGroup: accessGroup,
            publicKey: publicKey
        )
        if accessControl.hasConstraints {
            let secretKey = SymmetricKey(size: .bits256)
            let envelope = try sealToConstraints(secretKey, bindings.constraints)
            fields.append(Field.envelope.rawValue, envelope.serialized)
            fields.append(
                Field.sealedKey.rawValue,
                try AtRestCipher.seal(privateKey, using: secretKey, binding: bindings.privateKey)
            )
        } else {
            fields.append(Field.privateKey.rawValue, privateKey)
        }
        let name = Array(protection.rawValue.utf8)
        let generation = UInt32(blobKey.generation)
        var blob = Data([version, UInt8(name.count)] + name)
        blob += [
            UInt8(generation >> 24), UInt8(truncatingIfNeeded: generation >> 16),
            UInt8(truncatingIfNeeded: generation >> 8), UInt8(truncatingIfNeeded: generation),
        ]
        blob += identifier
        blob += try AtRestCipher.seal(Data(fields.bytes), using: blobKey.key, binding: bindings.outer)
        return blob
    }

    // MARK: Opening

    /// Reads a blob's clear part.
    /// - Throws: ``KeychainError/Code/invalidParameter`` for bytes that are not a key blob.
    init(_ bytes: Data) throws(KeychainError) {
        var reader = ByteReader(Array(bytes.prefix(Self.maximumSize + 1)))
        guard bytes.count <= Self.maximumSize, reader.byte() == Self.version,
            let length = reader.byte(), let name = reader.bytes(Int(length)),
            let protection = ProtectionClass(rawValue: String(decoding: name, as: UTF8.self)),
            let generation = reader.bytes(4),
            let identifier = reader.bytes(Self.identifierLength), !reader.isAtEnd
        else { throw Self.notABlob }
        self.protection = protection
        self.generation = generation.reduce(0) { $0 << 8 | Int($1) }
        self.identifier = Data(identifier)
        sealed = Data(reader.remaining)
    }

    /// Opens the blob's fields with its class's blob key.
    /// - Throws: ``KeychainError/Code/invalidParameter`` when they do not open (another keychain's
    ///   blob, or altered bytes).
    func open(with blobKey: SymmetricKey) throws(KeychainError) -> Contents {
        let outer = Bindings(protection: protection, generation: generation, identifier: identifier).outer
        guard let plaintext = try? AtRestCipher.open(sealed, using: blobKey, binding: outer) else {
            throw Self.notABlob
        }
        var reader = ByteReader(Array(plaintext))
        var fields: [Field: [UInt8]] = [:]
        while !reader.isAtEnd {
            guard let (tag, value) = TaggedFields.next(&reader), let field = Field(rawValue: tag), fields[field] == nil
            else { throw KeychainError(.decode, "a key blob's fields are damaged") }
            fields[field] = value
        }
        guard let control = fields[.accessControl],
            let accessControl = AccessControl(storedRepresentation: String(decoding: control, as: UTF8.self)),
            accessControl.protection == protection,
            let group = fields[.accessGroup], let publicKey = fields[.publicKey]
        else { throw KeychainError(.decode, "a key blob's fields are damaged") }
        let material: Material
        switch (fields[.privateKey], fields[.envelope], fields[.sealedKey]) {
        case (let key?, nil, nil) where !accessControl.hasConstraints:
            material = .open(Data(key))
        case (nil, let envelope?, let sealedKey?) where accessControl.hasConstraints:
            material = .constrained(envelope: Data(envelope), sealedKey: Data(sealedKey))
        default:
            throw KeychainError(.decode, "a key blob's private key does not match its access control")
        }
        return Contents(
            accessControl: accessControl,
            accessGroup: String(decoding: group, as: UTF8.self),
            publicKey: Data(publicKey),
            material: material
        )
    }

    /// The private key (X9.63) of opened `contents`, once `unlock` opens its envelope.
    func privateKey(
        of contents: Contents,
        openConstraints: (ConstraintEnvelope, AssociatedData) throws(KeychainError) -> SymmetricKey
    ) throws(KeychainError) -> Data {
        switch contents.material {
        case .open(let key):
            return key
        case .constrained(let envelopeBytes, let sealedKey):
            let bindings = Bindings(
                protection: protection,
                generation: generation,
                identifier: identifier,
                accessControl: contents.accessControl,
                accessGroup: contents.accessGroup,
                publicKey: contents.publicKey
            )
            let envelope = try ConstraintEnvelope(serialized: envelopeBytes)
            let secretKey = try openConstraints(envelope, bindings.constraints)
            return try AtRestCipher.open(sealedKey, using: secretKey, binding: bindings.privateKey)
        }
    }

    // MARK: Private

    private enum Field: UInt8 {
        case accessControl = 1
        case accessGroup, publicKey, privateKey, envelope, sealedKey
    }

    /// The associated data of a blob's layers: the outer layer names the blob; the inner ones also
    /// everything the outer layer holds, so that no layer can be moved to another blob.
    private struct Bindings {
        let outer: [UInt8]
        let constraints: AssociatedData
        let privateKey: [UInt8]

        init(
            protection: ProtectionClass,
            generation: Int,
            identifier: Data,
            accessControl: AccessControl? = nil,
            accessGroup: String = "",
            publicKey: Data = Data()
        ) {
            let base = AssociatedData("swift-keychain/v1/key-blob")
                .appending(protection.rawValue)
                .appending(String(generation))
                .appending(Array(identifier))
            outer = base.bytes
            let inner =
                base
                .appending(accessControl?.storedRepresentation ?? "")
                .appending(accessGroup)
                .appending(Array(publicKey))
            constraints = inner.appending("lock")
            privateKey = inner.appending("private-key").bytes
        }
    }

    private static let notABlob = KeychainError(.invalidParameter, "the data is not a key of this keychain")
}
