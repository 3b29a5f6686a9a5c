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

/// Creates the cryptographic signature for a block of data using a private key and specified algorithm.
///
/// - Parameters:
///   - key: The private key to sign with.
///   - algorithm: An ECDSA algorithm: `…SignatureMessageX962SHA…` hashes `dataToSign` first,
///     `…SignatureDigestX962…` signs a digest the caller made; the `RFC4754` variants give `r ‖ s`
///     instead of X9.62's DER.
///   - dataToSign: The message, or its digest.
///   - error: On failure, an error in `NSOSStatusErrorDomain`: `errSecParam` when the key cannot
///     use the algorithm or the digest has the wrong length.
/// - Returns: The signature, or `nil` on failure.
public func SecKeyCreateSignature(
    _ key: SecKey,
    _ algorithm: SecKeyAlgorithm,
    _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    reportingKeyErrors(error) { () throws(SecKeyError) in
        let operation = "SecKeyCreateSignature"
        guard key.material.isPrivate, case .ecdsa(let format, let input) = KeyAlgorithmSpec(algorithm) else {
            throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
        }
        let digest = try input.digest(of: dataToSign as Data, algorithm: algorithm, operation: operation)
        let der: Data
        switch key.material {
        case .ecPrivate(let privateKey):
            do throws(KeyMaterialError) {
                der = try privateKey.derSignature(forDigest: digest)
            } catch {
                throw SecKeyError(error, operation: operation)
            }
        case .enclave(let enclaveKey):
            der = try enclaveKey.perform(.sign(digest: digest), name: operation)
        case .ecPublic:
            throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
        }
        switch format {
        case .x962: return der as NSData
        case .rfc4754: return (ECSignatureFormat.raw(fromDER: der, curve: key.material.publicKey.curve) ?? Data()) as NSData
        }
    }
}

/// Verifies the cryptographic signature of a block of data using a public key and specified algorithm.
///
/// - Parameters:
///   - key: The public key.
///   - algorithm: The algorithm the signature was made with.
///   - signedData: The message, or its digest, as it was signed.
///   - signature: The signature.
///   - error: On failure, an error in `NSOSStatusErrorDomain`: `errSecVerifyFailed` when the
///     signature does not match, `errSecParam` when the key cannot use the algorithm.
/// - Returns: `true` when the signature is valid.
public func SecKeyVerifySignature(
    _ key: SecKey,
    _ algorithm: SecKeyAlgorithm,
    _ signedData: CFData,
    _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    let verified = reportingKeyErrors(error) { () throws(SecKeyError) -> Bool in
        let operation = "SecKeyVerifySignature"
        guard case .ecPublic(let publicKey) = key.material,
            case .ecdsa(let format, let input) = KeyAlgorithmSpec(algorithm)
        else {
            throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
        }
        let digest = try input.digest(of: signedData as Data, algorithm: algorithm, operation: operation)
        let isValid =
            switch format {
            case .x962: publicKey.isValidSignature(der: signature as Data, forDigest: digest)
            case .rfc4754: publicKey.isValidSignature(raw: signature as Data, forDigest: digest)
            }
        guard isValid else {
            throw SecKeyError(errSecVerifyFailed, "EC signature verification failed, no match")
        }
        return true
    }
    return verified ?? false
}

/// Returns whether a key supports an algorithm for an operation.
///
/// - Parameters:
///   - key: The key.
///   - operation: What the key would do: signing, decryption and key exchange need a private
///     key, verifying and encryption a public key.
///   - algorithm: The algorithm.
/// - Returns: `true` when `key` can do `operation` with `algorithm`.
public func SecKeyIsAlgorithmSupported(
    _ key: SecKey,
    _ operation: SecKeyOperationType,
    _ algorithm: SecKeyAlgorithm
) -> Bool {
    guard let spec = KeyAlgorithmSpec(algorithm) else { return false }
    let isPrivate = key.material.isPrivate
    switch (operation, spec) {
    case (.sign, .ecdsa), (.decrypt, .ecies), (.keyExchange, .ecdh): return isPrivate
    case (.verify, .ecdsa), (.encrypt, .ecies): return !isPrivate
    default: return false
    }
}
#endif
