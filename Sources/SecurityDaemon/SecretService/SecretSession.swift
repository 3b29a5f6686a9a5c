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
import _CryptoExtras

/// A session a client opened (`Service.OpenSession`): how secrets travel between it and the
/// provider.
///
/// `plain` sends them as they are (the bus is the user's own); `dh-ietf1024-sha256_128` agrees an
/// AES-128 key by Diffie-Hellman in the 1024-bit MODP group of RFC 2409 (generator 2), derived
/// with HKDF-SHA256 (no salt, no info) from the shared secret padded to 128 bytes, and sends each
/// secret AES-CBC encrypted with PKCS#7 padding under a fresh IV (the secret's `parameters`).
struct SecretSession: Sendable {
    /// The session's object path.
    let path: String
    /// The connection that opened it: only that connection may use it.
    let owner: String
    /// The AES key, or `nil` for a plain session.
    let key: SymmetricKey?

    static let plain = "plain"
    static let diffieHellman = "dh-ietf1024-sha256_128"

    /// The group's prime, big-endian (RFC 2409 §6.2).
    private static let primeBytes: [UInt8] = {
        let hex =
            "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
            + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
            + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE65381FFFFFFFFFFFFFFFF"
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return bytes
    }()
    private static let group = MontgomeryModulus(bigEndian: primeBytes)

    /// Agrees a key with a client whose public value is `clientPublic` (big-endian): the
    /// provider's public value to send back, and the session key.
    ///
    /// A value outside `2 … p−2` (which would force the shared secret) is refused.
    static func agree(clientPublic: [UInt8]) -> (publicValue: [UInt8], key: SymmetricKey)? {
        let size = primeBytes.count
        let significant = Array(clientPublic.drop { $0 == 0 })
        guard significant.count <= size else { return nil }
        let peer = MontgomeryModulus.limbs(bigEndian: significant, count: group.count)
        var two = [UInt64](repeating: 0, count: group.count)
        two[0] = 2
        let pMinusOne = MontgomeryModulus.subtracting(
            [1] + [UInt64](repeating: 0, count: group.count - 1),
            from: group.modulus
        )
        guard !MontgomeryModulus.isLess(peer, two), MontgomeryModulus.isLess(peer, pMinusOne) else { return nil }
        var privateBytes = [UInt8](repeating: 0, count: size)
        var generator = SystemRandomNumberGenerator()
        for index in privateBytes.indices { privateBytes[index] = generator.next() }
        let exponent = MontgomeryModulus.limbs(bigEndian: privateBytes, count: group.count)
        for index in privateBytes.indices { privateBytes[index] = 0 }
        let own = group.power(two, exponent)
        let shared = MontgomeryModulus.bigEndian(group.power(peer, exponent), size: size)
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: shared),
            salt: [UInt8](),
            info: [UInt8](),
            outputByteCount: 16
        )
        return (MontgomeryModulus.bigEndian(own, size: size), key)
    }

    /// The secret as the client sends it (`parameters`, `value`), opened; `nil` when it does not
    /// decrypt (wrong key, bad padding, an IV of the wrong size).
    func open(parameters: [UInt8], value: [UInt8]) -> [UInt8]? {
        guard let key else { return parameters.isEmpty ? value : nil }
        guard parameters.count == 16, !value.isEmpty, value.count % 16 == 0,
            let iv = try? AES._CBC.IV(ivBytes: parameters),
            let plain = try? AES._CBC.decrypt(value, using: key, iv: iv)
        else { return nil }
        return Array(plain)
    }

    /// A secret sealed for the client: (`parameters`, `value`).
    func seal(_ secret: [UInt8]) -> (parameters: [UInt8], value: [UInt8])? {
        guard let key else { return ([], secret) }
        var ivBytes = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in ivBytes.indices { ivBytes[index] = generator.next() }
        guard let iv = try? AES._CBC.IV(ivBytes: ivBytes),
            let sealed = try? AES._CBC.encrypt(secret, using: key, iv: iv)
        else { return nil }
        return (ivBytes, Array(sealed))
    }
}
