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

/// The number of bytes an `…X963SHA…` key exchange returns (`kSecKeyKeyExchangeParameterRequestedSize`).
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterRequestedSize: CFString = SecConstantString("requestedSize")
/// The shared information of the X9.63 derivation of a key exchange, or of ECIES.
nonisolated(unsafe) public let kSecKeyKeyExchangeParameterSharedInfo: CFString = SecConstantString("sharedInfo")

/// Performs a Diffie-Hellman style key exchange operation.
///
/// - Parameters:
///   - privateKey: Your private key.
///   - algorithm: `ecdhKeyExchangeStandard` or `…Cofactor` for the raw shared secret (the X
///     coordinate of the shared point), or an `…X963SHA…` variant to derive
///     `kSecKeyKeyExchangeParameterRequestedSize` bytes from it.
///   - publicKey: The other party's public key, on the same curve.
///   - parameters: For the derived variants, `kSecKeyKeyExchangeParameterRequestedSize` and
///     optionally `kSecKeyKeyExchangeParameterSharedInfo`.
///   - error: On failure, an error in `NSOSStatusErrorDomain`.
/// - Returns: The shared secret, or `nil` on failure.
@discardableResult
public func SecKeyCopyKeyExchangeResult(
    _ privateKey: SecKey,
    _ algorithm: SecKeyAlgorithm,
    _ publicKey: SecKey,
    _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    reportingKeyErrors(error) { () throws(SecKeyError) in
        let operation = "SecKeyCopyKeyExchangeResult"
        guard privateKey.material.isPrivate, case .ecdh(let kdf) = KeyAlgorithmSpec(algorithm) else {
            throw SecKeyError.unsupported(algorithm, by: privateKey, operation: operation)
        }
        guard case .ecPublic(let peer) = publicKey.material else {
            throw SecKeyError(errSecParam, "ECpriv sharedsecret: bad public key")
        }
        let secret: Data
        switch privateKey.material {
        case .ecPrivate(let key):
            do throws(KeyMaterialError) {
                secret = try key.sharedSecret(with: peer)
            } catch {
                throw SecKeyError(error, operation: operation)
            }
        case .enclave(let key):
            guard peer.curve == key.publicKey.curve else {
                throw SecKeyError(.curveMismatch, operation: operation)
            }
            secret = try key.perform(.keyExchange(publicKey: peer.x963Representation), name: operation)
        case .ecPublic, .rsaPrivate, .rsaPublic:
            throw SecKeyError.unsupported(algorithm, by: privateKey, operation: operation)
        }
        guard let kdf else { return secret as NSData }
        let values = (parameters as? [String: Any]) ?? [:]
        guard let size = (values[kSecKeyKeyExchangeParameterRequestedSize as String] as? NSNumber)?.intValue, size > 0
        else {
            throw SecKeyError(errSecParam, "kSecKeyKeyExchangeParameterRequestedSize is missing")
        }
        guard size <= X963KDF.maximumByteCount else {
            throw SecKeyError(
                errSecParam,
                "kSecKeyKeyExchangeParameterRequestedSize is larger than \(X963KDF.maximumByteCount) bytes"
            )
        }
        let sharedInfo: Data
        switch values[kSecKeyKeyExchangeParameterSharedInfo as String] {
        case nil: sharedInfo = Data()
        case let data as Data: sharedInfo = data
        default: throw SecKeyError(errSecParam, "ECDHKeyExchange wrong sharedInfo type (must be CFData/NSData)")
        }
        do throws(KeyMaterialError) {
            return try X963KDF.derive(secret: secret, sharedInfo: sharedInfo, byteCount: size, digest: kdf) as NSData
        } catch {
            throw SecKeyError(error, operation: operation)
        }
    }
}
#endif
