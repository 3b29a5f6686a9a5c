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
import _CryptoExtras

/// The keys of a backup file: the file key (from a password or a key agreement) and the key its
/// chunks are sealed with.
package enum BackupKeys {
    /// The parameters a new password-protected file is written with: scrypt with N = 2^15, r = 8,
    /// p = 4 (32 MiB, about a second on one core) — memory-hard, and within the reader's bounds.
    package static let defaultLogN: UInt8 = 15
    package static let defaultR: UInt8 = 8
    package static let defaultP: UInt8 = 4

    /// The file key of a password: scrypt of its UTF-8 bytes.
    package static func fileKey(password: String, logN: UInt8, r: UInt8, p: UInt8, salt: Data) throws -> SymmetricKey {
        let rounds = 1 << Int(logN)
        do {
            return try KDF.Scrypt.deriveKey(
                from: Array(password.utf8),
                salt: salt,
                outputByteCount: 32,
                rounds: rounds,
                blockSize: Int(r),
                parallelism: Int(p),
                maxMemory: 128 * Int(r) * (rounds + Int(p) + 2) + (1 << 20)
            )
        } catch {
            throw BackupError.unsupportedParameters
        }
    }

    /// The file key of a key agreement between an ephemeral key and a recipient's key.
    package static func fileKey(sharedSecret: Data, ephemeralPublicKey: Data, recipientPublicKey: Data) -> SymmetricKey
    {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: sharedSecret),
            salt: ephemeralPublicKey + recipientPublicKey,
            info: Data("swift-keychain backup v1 recipient".utf8),
            outputByteCount: 32
        )
    }

    /// The identifier of a recipient's public key (X9.63): its SHA-256.
    package static func keyID(of publicKey: Data) -> Data {
        Data(SHA256.hash(data: publicKey))
    }

    /// The key the chunks are sealed with, bound to the whole header.
    package static func chunkKey(fileKey: SymmetricKey, header: [UInt8]) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: fileKey,
            salt: Data(SHA256.hash(data: header)),
            info: Data("swift-keychain backup v1 chunks".utf8),
            outputByteCount: 32
        )
    }

    /// The nonce of chunk `index`: its number in 11 bytes, then 1 for the last chunk and 0 for the others.
    package static func nonce(index: UInt64, isLast: Bool) throws -> AES.GCM.Nonce {
        var bytes = [UInt8](repeating: 0, count: 3)
        bytes += withUnsafeBytes(of: index.bigEndian) { Array($0) }
        bytes.append(isLast ? 1 : 0)
        return try AES.GCM.Nonce(data: bytes)
    }
}
