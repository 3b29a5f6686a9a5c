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
package import KeychainCore
import _CryptoExtras

/// The memory-hard key derivation that turns a passcode into a key-encryption key.
///
/// scrypt's output is entangled with the device secret through HKDF, so a guess costs one scrypt
/// evaluation *and* needs the device secret: copying the database alone is not enough to try passcodes.
package struct PasscodeKDF: Hashable, Sendable {
    // MARK: Parameters

    /// scrypt's cost parameter N (a power of two).
    package var rounds: Int
    /// scrypt's block size r.
    package var blockSize: Int
    /// scrypt's parallelism p.
    package var parallelism: Int

    package init(rounds: Int, blockSize: Int, parallelism: Int) {
        self.rounds = rounds
        self.blockSize = blockSize
        self.parallelism = parallelism
    }

    /// The default: N = 2^16, r = 8, p = 1 — 64 MiB and about 150 ms per guess on a 2-core machine
    /// (BENCHMARKS.md): the unlock cost is the brute-force cost, so it is kept between 100 and 500 ms.
    package static let standard = PasscodeKDF(rounds: 1 << 16, blockSize: 8, parallelism: 1)

    /// Cheap parameters for tests only: never for a real keychain.
    package static let testing = PasscodeKDF(rounds: 1 << 10, blockSize: 8, parallelism: 1)

    /// Whether the parameters are ones the engine accepts from disk.
    package var isValid: Bool {
        rounds >= 2 && rounds <= (1 << 22) && rounds & (rounds - 1) == 0
            && (1...32).contains(blockSize) && (1...16).contains(parallelism)
    }

    /// The least cost the engine accepts from disk when it was built with `configured` for new
    /// passcodes: the standard cost, or the testing cost in an explicit test configuration.
    package static func minimumAccepted(configured: PasscodeKDF) -> PasscodeKDF {
        configured.rounds < standard.rounds || configured.blockSize < standard.blockSize ? testing : standard
    }

    /// Refuses parameters that are out of range or cheaper than `minimum`: a stored cost is only
    /// an input, and one lowered by someone who altered the files would make guesses cheap.
    package func requireAtLeast(_ minimum: PasscodeKDF, what: String) throws(KeychainError) {
        guard isValid, rounds >= minimum.rounds, blockSize >= minimum.blockSize, parallelism >= minimum.parallelism
        else {
            throw KeychainError(
                .decode,
                "\(what) (N = \(rounds), r = \(blockSize), p = \(parallelism)) is below the accepted cost or out of range"
            )
        }
    }

    // MARK: Stored form

    /// Bytes in a stored ``serialized`` form: N, r and p as 32-bit big-endian numbers.
    package static let serializedCount = 12

    /// N, r and p as 32-bit big-endian numbers, as the keybag and item envelopes store them.
    package var serialized: [UInt8] {
        [rounds, blockSize, parallelism].flatMap { value in
            withUnsafeBytes(of: UInt32(clamping: value).bigEndian) { Array($0) }
        }
    }

    /// Reads a ``serialized`` form; `nil` if `bytes` is not 12 bytes long.
    package init?(serialized bytes: some Collection<UInt8>) {
        guard bytes.count == Self.serializedCount else { return nil }
        let values = stride(from: 0, to: Self.serializedCount, by: 4).map { offset in
            bytes.dropFirst(offset).prefix(4).reduce(0) { $0 << 8 | Int($1) }
        }
        self.init(rounds: values[0], blockSize: values[1], parallelism: values[2])
    }

    // MARK: Derivation

    /// Derives the key-encryption key for a passcode.
    package func deriveKey(
        passcode: String,
        salt: Data,
        deviceSecret: SymmetricKey
    ) throws(KeychainError) -> SymmetricKey {
        try deriveKey(secret: Array(passcode.utf8), salt: salt, deviceSecret: deviceSecret, purpose: "keybag passcode")
    }

    /// Derives a key from a secret a person knows (passcode, application password), entangled with
    /// the device secret; `purpose` separates the keys of different uses of the same secret.
    package func deriveKey(
        secret: [UInt8],
        salt: Data,
        deviceSecret: SymmetricKey,
        purpose: String
    ) throws(KeychainError) -> SymmetricKey {
        guard isValid else {
            throw KeychainError(.decode, "stored passcode KDF parameters are out of range")
        }
        let stretched: SymmetricKey
        do {
            stretched = try KDF.Scrypt.deriveKey(
                from: secret,
                salt: salt,
                outputByteCount: 32,
                rounds: rounds,
                blockSize: blockSize,
                parallelism: parallelism,
                maxMemory: 128 * blockSize * (rounds + parallelism + 2) + (1 << 20)
            )
        } catch {
            throw KeychainError(.internalInconsistency, "scrypt failed", cause: error)
        }
        var material = Data()
        deviceSecret.withUnsafeBytes { material.append(contentsOf: $0) }
        stretched.withUnsafeBytes { material.append(contentsOf: $0) }
        defer { material.resetBytes(in: 0..<material.count) }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: material),
            salt: salt,
            info: Data("swift-keychain \(purpose) v1".utf8),
            outputByteCount: 32
        )
    }

    /// Derives the key-encryption key used when no passcode is set (and always for the `dk` classes).
    package static func deviceKey(deviceSecret: SymmetricKey, salt: Data) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: deviceSecret,
            salt: salt,
            info: Data("swift-keychain keybag device v1".utf8),
            outputByteCount: 32
        )
    }
}
