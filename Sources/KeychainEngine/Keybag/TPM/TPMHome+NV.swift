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
import KeychainTPM

extension TPMHome {
    // MARK: Keybag secret slots

    /// The secrets in `bound`'s two keybag slots (`nil`: an empty slot).
    func slots(of bound: Bound) throws(KeychainError) -> [KeybagSecret?] {
        let authorization = Self.indexAuthorization(bound.secret)
        return try withTPM("reading the keybag secret") { tpm throws(TPMError) in
            var secrets: [KeybagSecret?] = []
            for index in bound.binding.keybagSlots {
                var bytes = try tpm.read(index: index, size: TPMBinding.slotSize, authorization: authorization)
                defer { PrivateFile.zero(&bytes) }
                secrets.append(bytes.allSatisfy { $0 == 0 } ? nil : KeybagSecret(serialized: bytes))
            }
            return secrets
        }
    }

    /// Writes `secret` (`nil`: zeros, erasing what the slot held) into slot `slot` of `bound`.
    func write(_ secret: KeybagSecret?, slot: Int, of bound: Bound) throws(KeychainError) {
        let authorization = Self.indexAuthorization(bound.secret)
        var bytes = secret?.serialized ?? [UInt8](repeating: 0, count: TPMBinding.slotSize)
        defer { PrivateFile.zero(&bytes) }
        let index = bound.binding.keybagSlots[slot]
        try withTPM("writing the keybag secret") { tpm throws(TPMError) in
            try tpm.write(bytes, index: index, authorization: authorization)
        }
    }

    // MARK: Wrong passcodes

    /// The wrong-passcode count in the installed binding's attempt index.
    package func passcodeFailures() throws(KeychainError) -> Int {
        let bound = try installed()
        let authorization = Self.indexAuthorization(bound.secret)
        let bytes = try withTPM("reading the wrong-passcode count") { tpm throws(TPMError) in
            try tpm.read(
                index: bound.binding.attemptIndex,
                size: TPMBinding.attemptIndexSize,
                authorization: authorization
            )
        }
        return Int(bytes.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// Writes the wrong-passcode count into the installed binding's attempt index.
    package func setPasscodeFailures(_ count: Int) throws(KeychainError) {
        let bound = try installed()
        let authorization = Self.indexAuthorization(bound.secret)
        let value = UInt32(clamping: count)
        var bytes = [UInt8](repeating: 0, count: TPMBinding.attemptIndexSize)
        for position in 0..<4 { bytes[position] = UInt8((value >> UInt32(24 - 8 * position)) & 0xFF) }
        try withTPM("counting a wrong passcode") { tpm throws(TPMError) in
            try tpm.write(bytes, index: bound.binding.attemptIndex, authorization: authorization)
        }
    }
}
