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
package import KeychainCore

/// The keybag's serialized form: a format byte, then tagged, length-prefixed fields. Readers
/// refuse unknown formats and unknown tags, so a keybag written by a newer version is never
/// half-understood and written back.
extension KeybagRecord {
    package static let format: UInt8 = 2

    private enum Tag: UInt8 {
        case deviceSalt = 1
        case passcodeSalt, kdf, hasPasscode, lookupKey, protectedLookupKey, classKey, epoch, constraintKey,
            legacyApplicationPassword, needsClassKeyRotation, blobKey, hardwarePasscodeKey, staysInFiles
    }

    private enum ConstraintKeyTag: UInt8 {
        case kind = 1
        case identifier, publicKey, wrappedPrivateKey, domainHash, mac, damaged
    }

    // MARK: Writing

    package var serialized: [UInt8] {
        var out = TaggedFields(format: Self.format)
        out.append(Tag.deviceSalt.rawValue, deviceSalt)
        if let passcodeSalt { out.append(Tag.passcodeSalt.rawValue, passcodeSalt) }
        out.append(Tag.kdf.rawValue, kdf.serialized)
        out.append(Tag.hasPasscode.rawValue, [hasPasscode ? 1 : 0])
        out.append(Tag.lookupKey.rawValue, sealedLookupKey)
        if let sealedProtectedLookupKey { out.append(Tag.protectedLookupKey.rawValue, sealedProtectedLookupKey) }
        for (protection, wrapped) in wrappedClassKeys.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let name = Array(protection.rawValue.utf8)
            out.append(Tag.classKey.rawValue, [UInt8(name.count)] + name + Array(wrapped))
        }
        for (protection, generations) in wrappedBlobKeys.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let name = Array(protection.rawValue.utf8)
            for wrapped in generations {
                out.append(Tag.blobKey.rawValue, [UInt8(name.count)] + name + Array(wrapped))
            }
        }
        out.append(Tag.epoch.rawValue, classKeyEpoch)
        for (_, key) in constraints.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            var fields = TaggedFields(format: nil)
            fields.append(ConstraintKeyTag.kind.rawValue, [key.constraint.rawValue])
            fields.append(ConstraintKeyTag.identifier.rawValue, key.identifier)
            fields.append(ConstraintKeyTag.publicKey.rawValue, key.publicKey.rawRepresentation)
            fields.append(ConstraintKeyTag.wrappedPrivateKey.rawValue, key.wrappedPrivateKey)
            if let hash = key.domainHash { fields.append(ConstraintKeyTag.domainHash.rawValue, hash) }
            if let mac = key.mac { fields.append(ConstraintKeyTag.mac.rawValue, mac) }
            if key.isDamaged { fields.append(ConstraintKeyTag.damaged.rawValue, [1]) }
            out.append(Tag.constraintKey.rawValue, fields.bytes)
        }
        if let legacy = legacyApplicationPassword {
            out.append(Tag.legacyApplicationPassword.rawValue, legacy.kdf.serialized + Array(legacy.salt))
        }
        if needsClassKeyRotation { out.append(Tag.needsClassKeyRotation.rawValue, [1]) }
        if let hardwarePasscodeKey { out.append(Tag.hardwarePasscodeKey.rawValue, hardwarePasscodeKey) }
        if staysInFiles { out.append(Tag.staysInFiles.rawValue, [1]) }
        return out.bytes
    }

    // MARK: Reading

    /// Reads a serialized keybag.
    /// - Throws: ``KeychainError/Code/decode`` for damaged bytes, ``KeychainError/Code/invalidKeychain``
    ///   for a format this version does not know.
    package init(serialized bytes: [UInt8]) throws(KeychainError) {
        var reader = ByteReader(bytes)
        guard let format = reader.byte() else { throw KeychainError(.decode, "the keybag is empty") }
        guard format == Self.format else {
            throw KeychainError(
                .invalidKeychain,
                "the keybag has format \(format); this version reads format \(Self.format)"
            )
        }
        var deviceSalt: Data?
        var kdf: PasscodeKDF?
        var hasPasscode: Bool?
        var lookupKey: Data?
        var epoch: Data?
        var record = KeybagRecord(deviceSalt: Data(), kdf: .standard, sealedLookupKey: Data(), wrappedClassKeys: [:])
        while !reader.isAtEnd {
            let (tag, value) = try Self.field(&reader)
            switch Tag(rawValue: tag) {
            case .deviceSalt: deviceSalt = Data(value)
            case .passcodeSalt: record.passcodeSalt = Data(value)
            case .kdf: kdf = try Self.decodeKDF(value)
            case .hasPasscode: hasPasscode = try Self.flag(value)
            case .lookupKey: lookupKey = Data(value)
            case .protectedLookupKey: record.sealedProtectedLookupKey = Data(value)
            case .classKey:
                let (protection, wrapped) = try Self.perClass(value, what: "class key")
                guard record.wrappedClassKeys[protection] == nil else {
                    throw KeychainError(.decode, "the keybag holds a class key twice")
                }
                record.wrappedClassKeys[protection] = wrapped
            case .blobKey:
                // One field per generation, in order.
                let (protection, wrapped) = try Self.perClass(value, what: "blob key")
                record.wrappedBlobKeys[protection, default: []].append(wrapped)
            case .epoch: epoch = Data(value)
            case .constraintKey:
                let key = try Self.decodeConstraintKey(value)
                guard record.constraints[key.constraint] == nil else {
                    throw KeychainError(.decode, "the keybag holds a constraint key twice")
                }
                record.constraints[key.constraint] = key
            case .legacyApplicationPassword:
                guard value.count > PasscodeKDF.serializedCount else {
                    throw KeychainError(.decode, "the keybag's legacy parameters are damaged")
                }
                record.legacyApplicationPassword = LegacyApplicationPassword(
                    kdf: try Self.decodeKDF(Array(value.prefix(PasscodeKDF.serializedCount))),
                    salt: Data(value.dropFirst(PasscodeKDF.serializedCount))
                )
            case .needsClassKeyRotation: record.needsClassKeyRotation = try Self.flag(value)
            case .hardwarePasscodeKey: record.hardwarePasscodeKey = Data(value)
            case .staysInFiles: record.staysInFiles = try Self.flag(value)
            case nil:
                throw KeychainError(.invalidKeychain, "the keybag has a field (\(tag)) this version does not know")
            }
        }
        guard let deviceSalt, let kdf, let hasPasscode, let lookupKey, let epoch else {
            throw KeychainError(.decode, "the keybag lacks a required field")
        }
        record.deviceSalt = deviceSalt
        record.kdf = kdf
        record.hasPasscode = hasPasscode
        record.sealedLookupKey = lookupKey
        record.classKeyEpoch = epoch
        self = record
    }

    private static func field(_ reader: inout ByteReader) throws(KeychainError) -> (UInt8, [UInt8]) {
        guard let field = TaggedFields.next(&reader) else { throw KeychainError(.decode, "the keybag is truncated") }
        return field
    }

    /// A field naming a class and holding its wrapped key: a length-prefixed class name, then the key.
    private static func perClass(_ value: [UInt8], what: String) throws(KeychainError) -> (ProtectionClass, Data) {
        guard let length = value.first.map(Int.init), value.count > 1 + length,
            let protection = ProtectionClass(
                rawValue: String(decoding: value.dropFirst().prefix(length), as: UTF8.self)
            )
        else { throw KeychainError(.decode, "the keybag holds a damaged \(what)") }
        return (protection, Data(value.dropFirst(1 + length)))
    }

    private static func flag(_ value: [UInt8]) throws(KeychainError) -> Bool {
        guard value.count == 1, value[0] <= 1 else { throw KeychainError(.decode, "the keybag holds a damaged flag") }
        return value[0] == 1
    }

    private static func decodeKDF(_ value: [UInt8]) throws(KeychainError) -> PasscodeKDF {
        guard let kdf = PasscodeKDF(serialized: value) else {
            throw KeychainError(.decode, "the keybag's KDF parameters are damaged")
        }
        return kdf
    }

    private static func decodeConstraintKey(_ value: [UInt8]) throws(KeychainError) -> ConstraintKeyRecord {
        var reader = ByteReader(value)
        var fields: [ConstraintKeyTag: [UInt8]] = [:]
        while !reader.isAtEnd {
            let (tag, field) = try Self.field(&reader)
            guard let known = ConstraintKeyTag(rawValue: tag), fields[known] == nil else {
                throw KeychainError(.decode, "the keybag holds a damaged constraint key")
            }
            fields[known] = field
        }
        guard let kind = fields[.kind], kind.count == 1, let constraint = AccessPolicy.Constraint(rawValue: kind[0]),
            let identifier = fields[.identifier], let publicBytes = fields[.publicKey],
            let publicKey = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: publicBytes),
            let wrapped = fields[.wrappedPrivateKey]
        else { throw KeychainError(.decode, "the keybag holds a damaged constraint key") }
        var record = ConstraintKeyRecord(
            constraint: constraint,
            identifier: Data(identifier),
            publicKey: publicKey,
            wrappedPrivateKey: Data(wrapped),
            domainHash: fields[.domainHash].map { Data($0) }
        )
        record.mac = fields[.mac].map { Data($0) }
        record.isDamaged = try fields[.damaged].map(Self.flag) ?? false
        return record
    }
}

/// Tagged, length-prefixed fields (tag byte, 32-bit big-endian length, value).
struct TaggedFields {
    private(set) var bytes: [UInt8]

    init(format: UInt8?) {
        bytes = format.map { [$0] } ?? []
    }

    /// The next field of `reader` (a tag, a 4-byte big-endian length, the value); `nil` when truncated.
    static func next(_ reader: inout ByteReader) -> (tag: UInt8, value: [UInt8])? {
        guard let tag = reader.byte(), let length = reader.bytes(4),
            let value = reader.bytes(length.reduce(0) { $0 << 8 | Int($1) })
        else { return nil }
        return (tag, Array(value))
    }

    mutating func append(_ tag: UInt8, _ value: some Collection<UInt8>) {
        let count = UInt32(value.count)
        bytes.append(tag)
        bytes.append(contentsOf: [
            UInt8(count >> 24), UInt8(truncatingIfNeeded: count >> 16), UInt8(truncatingIfNeeded: count >> 8),
            UInt8(truncatingIfNeeded: count),
        ])
        bytes.append(contentsOf: value)
    }
}
