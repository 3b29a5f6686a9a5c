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
import KeychainTPM

/// What binds a keychain to its TPM, kept in `device.tpm` in the home.
///
/// The device key as the TPM wrapped it (useless without that TPM) and the NV indices that hold
/// the keybag secrets and the wrong-passcode count. Nothing in it is secret.
struct TPMBinding: Sendable, Hashable {
    /// The device key: an HMAC key made in the TPM under its storage root.
    var deviceKey: TPMObjectBlob
    /// The two NV indices that hold the current keybag secret and, during a keybag write, the next.
    var keybagSlots: [UInt32]
    /// The NV index that counts wrong passcodes.
    var attemptIndex: UInt32
    /// For a keychain that moved in from the files, its device secret sealed under the device key's answer.
    ///
    /// Sealed with AES-GCM, so that the keychain keeps the value every key derives from. Empty
    /// otherwise: the answer is the device secret.
    var sealedSecret: [UInt8] = []

    private static let magic = Array("SWKCTPM1".utf8)

    /// Bytes of one keybag secret slot: the secret's serialized form (all zeros: empty).
    static let slotSize = 49
    /// Bytes of the attempt index: the count, then room for later use.
    static let attemptIndexSize = 8

    /// Every NV index of the binding.
    var indices: [UInt32] { keybagSlots + [attemptIndex] }

    // MARK: Serialization

    var serialized: [UInt8] {
        var out = TPMWriter()
        out.append(raw: Self.magic)
        for index in indices { out.append(index) }
        out.appendSized(deviceKey.serialized)
        out.appendSized(sealedSecret)
        return out.bytes
    }

    /// Reads `device.tpm`; `nil` for bytes that are not one.
    init?(serialized bytes: [UInt8]) {
        var reader = TPMReader(bytes)
        guard (try? reader.take(Self.magic.count)) == Self.magic,
            let first = try? reader.readUInt32(), let second = try? reader.readUInt32(),
            let attempts = try? reader.readUInt32(),
            let key = try? reader.readSized(), let sealed = try? reader.readSized(), reader.isAtEnd,
            let blob = TPMObjectBlob(serialized: key),
            Set([first, second, attempts]).count == 3,
            [first, second, attempts].allSatisfy(TPMBinding.isKeychainIndex)
        else { return nil }
        deviceKey = blob
        keybagSlots = [first, second]
        attemptIndex = attempts
        sealedSecret = sealed
    }

    init(deviceKey: TPMObjectBlob, keybagSlots: [UInt32], attemptIndex: UInt32) {
        self.deviceKey = deviceKey
        self.keybagSlots = keybagSlots
        self.attemptIndex = attemptIndex
    }

    // MARK: NV handles

    /// The owner's NV index range (TCG's registry of reserved handles: 0x01000000–0x013FFFFF).
    static let indexRange: ClosedRange<UInt32> = 0x0100_0000...0x013F_FFFF

    static func isKeychainIndex(_ index: UInt32) -> Bool { indexRange.contains(index) }

    /// Three consecutive indices at a random place of the owner's range.
    static func randomIndices() -> [UInt32] {
        let base = indexRange.lowerBound + UInt32.random(in: 0..<0x10_0000) * 4
        return [base, base + 1, base + 2]
    }
}
