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

/// A device's own keys in a circle.
///
/// Three P-256 keys: one signs what concerns the circle's membership (its lists, join requests,
/// key grants), one receives the circle's keys, one signs the item records the device writes.
/// The first two are made in the keychain's TPM when it has one — a copy of the keychain cannot
/// approve a device or receive the circle's next keys without that machine. The record key stays
/// in the process: a TPM takes tens of milliseconds per signature, and a device writes a record
/// for every change. All three are kept in the device's keychain (`…ThisDeviceOnly`, the TPM's
/// two as the TPM wrapped them), never synchronised.
package struct DeviceIdentity: Sendable {
    private static let magic = Data("SWKC-IDENTITY-2".utf8)

    private let membership: any DevicePrivateKey
    private let agreement: any DevicePrivateKey
    private let recordKey: SoftwareDeviceKey
    package let record: DeviceRecord

    package var id: DeviceID { record.id }

    /// Whether the membership and agreement keys are in a TPM.
    package var isHardwareBound: Bool { membership.isHardware && agreement.isHardware }

    /// New keys for a device named `name`, in `store` when given (the keychain's TPM).
    package init(name: String, store: (any DeviceKeyStore)? = nil) throws(SyncError) {
        let membership: any DevicePrivateKey
        let agreement: any DevicePrivateKey
        if let store {
            membership = try store.makeKey()
            agreement = try store.makeKey()
        } else {
            membership = try SoftwareDeviceKey()
            agreement = try SoftwareDeviceKey()
        }
        try self.init(membership: membership, agreement: agreement, recordKey: try SoftwareDeviceKey(), name: name)
    }

    private init(
        membership: any DevicePrivateKey,
        agreement: any DevicePrivateKey,
        recordKey: SoftwareDeviceKey,
        name: String
    ) throws(SyncError) {
        self.membership = membership
        self.agreement = agreement
        self.recordKey = recordKey
        record = try DeviceRecord(
            signingKey: membership.publicKey,
            agreementKey: agreement.publicKey,
            recordKey: recordKey.publicKey,
            name: name
        )
    }

    /// The keys as the identity item keeps them (a TPM's as it wrapped them), and the name.
    package var rawRepresentation: Data {
        var writer = WireWriter()
        writer.appendFixed(Self.magic)
        for key in [membership, agreement] as [any DevicePrivateKey] {
            writer.append(UInt8(key.isHardware ? 1 : 0))
            writer.appendField(key.stored)
            writer.appendField(key.publicKey)
        }
        writer.appendField(recordKey.stored)
        writer.appendField(Data(record.name.utf8))
        return writer.bytes
    }

    /// Reads the identity back; keys in a TPM are used through `store`.
    ///
    /// - Throws: ``SyncError/Reason/unavailable`` for keys in a TPM when `store` is `nil` or
    ///   another TPM's; ``SyncError/Reason/malformed`` for damaged bytes.
    package init(rawRepresentation: Data, store: (any DeviceKeyStore)?) throws(SyncError) {
        var reader = WireReader(rawRepresentation)
        guard try reader.fixed(Self.magic.count) == Self.magic else {
            throw SyncError(.malformed, "a device identity of an unknown version")
        }
        var keys: [any DevicePrivateKey] = []
        for _ in 0..<2 {
            let kind = try reader.byte()
            let stored = try reader.field()
            let publicKey = try reader.field()
            switch kind {
            case 0:
                let key = try SoftwareDeviceKey(stored: stored)
                guard key.publicKey == publicKey else { throw SyncError(.malformed, "a device identity is damaged") }
                keys.append(key)
            case 1:
                guard let store else {
                    throw SyncError(.unavailable, "the device's keys are in a TPM this keychain no longer uses")
                }
                keys.append(try store.key(stored: stored, publicKey: publicKey))
            default:
                throw SyncError(.malformed, "a device identity is damaged")
            }
        }
        let recordKey = try SoftwareDeviceKey(stored: try reader.field())
        guard let name = String(data: try reader.field(), encoding: .utf8) else {
            throw SyncError(.malformed, "a device identity is damaged")
        }
        try reader.finish()
        try self.init(membership: keys[0], agreement: keys[1], recordKey: recordKey, name: name)
    }

    /// This device's signature (raw r‖s) of `message`, as the circle's membership checks it.
    package func signature(for message: Data) throws(SyncError) -> Data {
        try membership.signature(for: message)
    }

    /// This device's signature (raw r‖s) of an item record.
    package func recordSignature(for message: Data) -> Data {
        // Signing with a valid key in the process over bytes in memory does not fail.
        (try? recordKey.signature(for: message)) ?? Data()
    }

    /// The secret this device shares with the holder of `ephemeralKey` (X9.63).
    func sharedSecret(with ephemeralKey: Data) throws(SyncError) -> SymmetricKey {
        try agreement.sharedSecret(with: ephemeralKey)
    }
}
