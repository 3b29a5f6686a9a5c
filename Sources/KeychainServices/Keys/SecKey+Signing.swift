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
@discardableResult
public func SecKeyCreateSignature(
    _ key: SecKey,
    _ algorithm: SecKeyAlgorithm,
    _ dataToSign: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    reportingKeyErrors(error) { () throws(SecKeyError) in
        let operation = "SecKeyCreateSignature"
        let spec = KeyAlgorithmSpec(algorithm)
        switch (key.material, spec) {
        case (.rsaPrivate(let rsaKey), .rsaSignature(let padding, let input)?):
            let (digest, kind) = try input.digest(of: dataToSign as Data, algorithm: algorithm, operation: operation)
            guard let kind else { throw SecKeyError.unsupported(algorithm, by: key, operation: operation) }
            do throws(KeyMaterialError) {
                return try rsaKey.signature(digest: digest, kind: kind, padding: padding) as NSData
            } catch {
                throw SecKeyError(error, operation: operation)
            }
        case (.ecPrivate, .ecdsa(let format, let input)?), (.enclave, .ecdsa(let format, let input)?):
            let (digest, _) = try input.digest(of: dataToSign as Data, algorithm: algorithm, operation: operation)
            let der: Data
            if case .enclave(let enclaveKey) = key.material {
                der = try enclaveKey.perform(.sign(digest: digest), name: operation)
            } else if case .ecPrivate(let privateKey) = key.material {
                do throws(KeyMaterialError) {
                    der = try privateKey.derSignature(forDigest: digest)
                } catch {
                    throw SecKeyError(error, operation: operation)
                }
            } else {
                throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
            }
            switch format {
            case .x962: return der as NSData
            case .rfc4754:
                guard let curve = key.material.ecPublicKey?.curve,
                    let raw = ECSignatureFormat.raw(fromDER: der, curve: curve)
                else {
                    throw SecKeyError(errSecInternal, "\(operation): the signature cannot be put in RFC 4754 form")
                }
                return raw as NSData
            }
        default:
            throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
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
@discardableResult
public func SecKeyVerifySignature(
    _ key: SecKey,
    _ algorithm: SecKeyAlgorithm,
    _ signedData: CFData,
    _ signature: CFData,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> Bool {
    let verified = reportingKeyErrors(error) { () throws(SecKeyError) -> Bool in
        let operation = "SecKeyVerifySignature"
        switch (key.material, KeyAlgorithmSpec(algorithm)) {
        case (.ecPublic(let publicKey), .ecdsa(let format, let input)?):
            let (digest, _) = try input.digest(of: signedData as Data, algorithm: algorithm, operation: operation)
            let isValid =
                switch format {
                case .x962: publicKey.isValidSignature(der: signature as Data, forDigest: digest)
                case .rfc4754: publicKey.isValidSignature(raw: signature as Data, forDigest: digest)
                }
            guard isValid else {
                throw SecKeyError(errSecVerifyFailed, "EC signature verification failed, no match")
            }
            return true
        case (.rsaPublic, .rsaSignature(let padding, let input)?),
            (.rsaPrivate, .rsaSignature(let padding, let input)?):
            let rsaKey: RSAPublicKey
            switch key.material {
            case .rsaPublic(let value): rsaKey = value
            case .rsaPrivate(let value): rsaKey = value.publicKey
            default: throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
            }
            let (digest, kind) = try input.digest(of: signedData as Data, algorithm: algorithm, operation: operation)
            guard let kind else { throw SecKeyError.unsupported(algorithm, by: key, operation: operation) }
            guard rsaKey.isValidSignature(signature as Data, digest: digest, kind: kind, padding: padding) else {
                throw SecKeyError(errSecVerifyFailed, "RSA signature verification failed, no match")
            }
            return true
        default:
            throw SecKeyError.unsupported(algorithm, by: key, operation: operation)
        }
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
@discardableResult
public func SecKeyIsAlgorithmSupported(
    _ key: SecKey,
    _ operation: SecKeyOperationType,
    _ algorithm: SecKeyAlgorithm
) -> Bool {
    guard let spec = KeyAlgorithmSpec(algorithm) else { return false }
    let isPrivate = key.material.isPrivate
    let isRSA = key.material.keyType == 42
    switch (operation, spec) {
    case (.sign, .ecdsa), (.decrypt, .ecies), (.keyExchange, .ecdh): return isPrivate && !isRSA
    case (.verify, .ecdsa), (.encrypt, .ecies): return !isPrivate && !isRSA
    case (.sign, .rsaSignature(_, let input)), (.verify, .rsaSignature(_, let input)):
        // An RSA private key also verifies (Apple adapts verify onto its raw decryption).
        return isRSA && (operation == .verify || isPrivate) && input.digestKind != nil
    case (.encrypt, .rsa): return isRSA && !isPrivate
    case (.decrypt, .rsa): return isRSA && isPrivate
    default: return false
    }
}
#endif
