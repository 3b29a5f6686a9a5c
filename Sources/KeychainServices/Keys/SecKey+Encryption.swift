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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import Security
#else
public import Foundation
import KeychainCore
import KeychainCrypto

/// Encrypts a block of data using a public key and specified algorithm.
///
/// - Parameters:
///   - key: The recipient's public key.
///   - algorithm: An ECIES algorithm (`eciesEncryption…X963SHA…AESGCM`). Apple recommends
///     `eciesEncryptionCofactorVariableIVX963SHA256AESGCM`.
///   - plaintext: The data to encrypt.
///   - error: On failure, an error in `NSOSStatusErrorDomain`: `errSecParam` when the key cannot
///     use the algorithm.
/// - Returns: The ciphertext: an ephemeral public key, the AES-GCM ciphertext and its tag, byte for
///   byte as Apple's Security framework makes it.
@discardableResult
public func SecKeyCreateEncryptedData(
    _ key: SecKey,
    _ algorithm: SecKeyAlgorithm,
    _ plaintext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    reportingKeyErrors(error) { () throws(SecKeyError) in
        let operation = "SecKeyCreateEncryptedData"
        do {
            switch (key.material, KeyAlgorithmSpec(algorithm)) {
            case (.ecPublic(let publicKey), .ecies(let scheme)?):
                return try scheme.seal(plaintext as Data, to: publicKey) as NSData
            case (.rsaPublic(let publicKey), .rsa(let padding)?):
                return try publicKey.encrypt(plaintext as Data, padding: padding) as NSData
            default:
                throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
            }
        } catch let error as SecKeyError {
            throw error
        } catch let error as KeyMaterialError {
            throw SecKeyError(error, operation: operation)
        } catch {
            throw SecKeyError(errSecParam, operation)
        }
    }
}

/// Decrypts a block of data using a private key and specified algorithm.
///
/// - Parameters:
///   - key: The private key the data was encrypted for.
///   - algorithm: The algorithm it was encrypted with.
///   - ciphertext: The data to decrypt.
///   - error: On failure, an error in `NSOSStatusErrorDomain` with code `errSecParam`: the key
///     cannot use the algorithm, or the ciphertext was changed or made for another key.
/// - Returns: The plaintext, or `nil` on failure.
@discardableResult
public func SecKeyCreateDecryptedData(
    _ key: SecKey,
    _ algorithm: SecKeyAlgorithm,
    _ ciphertext: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    reportingKeyErrors(error) { () throws(SecKeyError) in
        let operation = "SecKeyCreateDecryptedData"
        guard key.material.isPrivate, let spec = KeyAlgorithmSpec(algorithm) else {
            throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
        }
        if case .rsa(let padding) = spec, case .rsaPrivate(let rsaKey) = key.material {
            do throws(KeyMaterialError) {
                return try rsaKey.decrypt(ciphertext as Data, padding: padding) as NSData
            } catch {
                throw SecKeyError(error, operation: operation)
            }
        }
        guard case .ecies(let scheme) = spec else {
            throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
        }
        guard let curve = key.material.ecPublicKey?.curve else {
            throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
        }
        do throws(KeyMaterialError) {
            return try scheme.open(ciphertext as Data, curve: curve) { ephemeral throws(KeyMaterialError) in
                switch key.material {
                case .ecPrivate(let privateKey):
                    return try privateKey.sharedSecret(with: ephemeral)
                case .enclave(let enclaveKey):
                    // The agreement runs in the engine, after the key's access control; the
                    // derivation and AES-GCM here, as Apple's client does them.
                    do throws(SecKeyError) {
                        return try enclaveKey.perform(
                            .keyExchange(publicKey: ephemeral.x963Representation),
                            name: operation
                        )
                    } catch {
                        throw .delegated(status: error.status, message: error.message)
                    }
                case .ecPublic, .rsaPrivate, .rsaPublic:
                    throw .invalidKeyData
                }
            } as NSData
        } catch {
            throw SecKeyError(error, operation: operation)
        }
    }
}
#endif
