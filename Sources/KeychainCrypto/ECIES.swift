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

/// Apple's elliptic-curve integrated encryption scheme (`eciesEncryption…X963SHA…AESGCM`).
///
/// A message for a public key is `E ‖ C ‖ T`: `E` a fresh ephemeral public key in X9.63 form,
/// `C` the plaintext under AES-GCM, `T` its 16-byte tag. The AES key (and, in the variable-IV
/// variants, a 16-byte IV after it) comes from the X9.63 derivation of the ECDH secret between
/// the ephemeral key and the recipient's, with `E` as shared information; without a variable IV
/// the IV is 16 zero bytes, safe only because every message has a key of its own. The key is 128
/// bits on curves up to 256 bits and 256 above. The GCM IV is 16 bytes, as Apple's is (GCM then
/// hashes it into its counter block: cutting it to 12 bytes would give other ciphertexts).
package struct ECIES: Sendable, Hashable {
    /// The hash of the X9.63 derivation.
    package var digest: DigestKind
    /// Whether the IV is derived with the key (`…AESGCMKDFIV`) rather than all zeros.
    package var derivesIV: Bool

    private static let ivByteCount = 16
    private static let tagByteCount = 16

    package init(digest: DigestKind, derivesIV: Bool) {
        self.digest = digest
        self.derivesIV = derivesIV
    }

    // MARK: - Sealing and opening

    /// `plaintext` encrypted for `recipient`.
    package func seal(
        _ plaintext: Data,
        to recipient: ECPublicKey
    ) throws(KeyMaterialError) -> Data {
        let ephemeral = ECPrivateKey(generatingOn: recipient.curve)
        let ephemeralPublic = ephemeral.publicKey.x963Representation
        let secret = try ephemeral.sharedSecret(with: recipient)
        let (key, nonce) = try keyAndNonce(secret: secret, ephemeralPublic: ephemeralPublic, curve: recipient.curve)
        do {
            let box = try AES.GCM.seal(plaintext, using: key, nonce: nonce)
            return ephemeralPublic + box.ciphertext + box.tag
        } catch {
            throw .invalidInput("the plaintext cannot be encrypted")
        }
    }

    /// The plaintext of `message`, made for `key`'s public key.
    package func open(_ message: Data, with key: ECPrivateKey) throws(KeyMaterialError) -> Data {
        try open(message, curve: key.curve) { ephemeral throws(KeyMaterialError) in
            try key.sharedSecret(with: ephemeral)
        }
    }

    /// The plaintext of `message`, made for a private key on `curve` that `agree` holds: it
    /// returns the ECDH secret with the message's ephemeral public key.
    package func open(
        _ message: Data,
        curve: ECCurve,
        agree: (ECPublicKey) throws(KeyMaterialError) -> Data
    ) throws(KeyMaterialError) -> Data {
        guard message.count >= curve.publicKeyByteCount + Self.tagByteCount else {
            throw .decryptionFailed
        }
        let start = message.startIndex
        let ephemeralEnd = start + curve.publicKeyByteCount
        let tagStart = message.endIndex - Self.tagByteCount
        guard let ephemeral = try? ECPublicKey(x963Representation: Data(message[start..<ephemeralEnd])) else {
            throw .decryptionFailed
        }
        let secret = try agree(ephemeral)
        let (symmetricKey, nonce) = try keyAndNonce(
            secret: secret,
            ephemeralPublic: ephemeral.x963Representation,
            curve: curve
        )
        do {
            let box = try AES.GCM.SealedBox(
                nonce: nonce,
                ciphertext: message[ephemeralEnd..<tagStart],
                tag: message[tagStart...]
            )
            return try AES.GCM.open(box, using: symmetricKey)
        } catch {
            throw .decryptionFailed
        }
    }

    // MARK: - Key derivation

    private func keyAndNonce(
        secret: Data,
        ephemeralPublic: Data,
        curve: ECCurve
    ) throws(KeyMaterialError) -> (SymmetricKey, AES.GCM.Nonce) {
        let keyByteCount = curve.bits > 256 ? 32 : 16
        let derived = try X963KDF.derive(
            secret: secret,
            sharedInfo: ephemeralPublic,
            byteCount: keyByteCount + (derivesIV ? Self.ivByteCount : 0),
            digest: digest
        )
        let iv = derivesIV ? derived.suffix(Self.ivByteCount) : Data(count: Self.ivByteCount)
        do {
            return (SymmetricKey(data: derived.prefix(keyByteCount)), try AES.GCM.Nonce(data: iv))
        } catch {
            throw .invalidInput("no AES-GCM nonce")
        }
    }
}
