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
import KeychainCrypto

/// Generates a new private key.
///
/// - Parameters:
///   - parameters: `kSecAttrKeyType` (`kSecAttrKeyTypeECSECPrimeRandom`), `kSecAttrKeySizeInBits`
///     (256, 384 or 521), and optionally `kSecPrivateKeyAttrs` / `kSecPublicKeyAttrs`. With
///     `kSecAttrIsPermanent` (at the top level, or in one of those dictionaries for that half),
///     the key is also added to the keychain with the other attributes given (`kSecAttrApplicationTag`,
///     `kSecAttrLabel`, `kSecAttrAccessible` or `kSecAttrAccessControl`, `kSecAttrAccessGroup`, …).
///   - error: On failure, an error in `NSOSStatusErrorDomain` with code `errSecParam` when the type
///     or size is missing or invalid, or the `SecItemAdd` status (`errSecDuplicateItem`, …) when
///     the key cannot be stored.
/// - Returns: The private key, or `nil` on failure.
/// - Note: On Linux, only elliptic-curve keys on P-256, P-384 and P-521 can be made so far: RSA
///   keys, P-192 and P-224 keys and Secure Enclave keys (`kSecAttrTokenID`) fail with
///   `errSecUnimplemented`.
public func SecKeyCreateRandomKey(
    _ parameters: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    reportingKeyErrors(error) { () throws(SecKeyError) in
        let parameters = KeyParameters(parameters)
        let type = parameters.string(kSecAttrKeyType)
        if type == kSecAttrKeyTypeRSA as String {
            throw SecKeyError(errSecUnimplemented, "SecKeyCreateRandomKey: RSA keys are not available on Linux yet")
        }
        guard type == kSecAttrKeyTypeECSECPrimeRandom as String else {
            throw SecKeyError(errSecParam, "incorrect or missing kSecAttrKeyType in key generation request")
        }
        let bits = parameters.integer(kSecAttrKeySizeInBits)
        if bits == 192 || bits == 224 {
            throw SecKeyError(errSecUnimplemented, "SecKeyCreateRandomKey: P-192 and P-224 keys are not available on Linux")
        }
        guard let curve = bits.flatMap(ECCurve.init(bits:)) else {
            throw SecKeyError(errSecParam, "failed to generate key")
        }
        if parameters.string(kSecAttrTokenID) != nil {
            throw SecKeyError(errSecUnimplemented, "SecKeyCreateRandomKey: token keys (kSecAttrTokenID) are not available on Linux yet")
        }
        let privateKey = ECPrivateKey(generatingOn: curve)
        let key = SecKey(.ecPrivate(privateKey))
        try KeyPairStorage(parameters).store(privateKey: key, publicKey: SecKey(.ecPublic(privateKey.publicKey)))
        return key
    }
}

/// Restores a key from an external representation.
///
/// - Parameters:
///   - keyData: The key's external representation: for elliptic-curve keys ANSI X9.63, `04 ‖ X ‖ Y`
///     for a public key and `04 ‖ X ‖ Y ‖ K` for a private key.
///   - attributes: `kSecAttrKeyType` and `kSecAttrKeyClass` (`kSecAttrKeyClassPublic` or
///     `kSecAttrKeyClassPrivate`), as strings or numbers. The size comes from the data.
///   - error: On failure, an error in `NSOSStatusErrorDomain` with code `errSecParam`.
/// - Returns: The key, or `nil` if the data is not a key of that kind.
/// - Note: On Linux, a private key whose public point is not the one its scalar makes is refused.
public func SecKeyCreateWithData(
    _ keyData: CFData,
    _ attributes: CFDictionary,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecKey? {
    reportingKeyErrors(error) { () throws(SecKeyError) in
        let parameters = KeyParameters(attributes)
        guard let type = parameters.integer(kSecAttrKeyType) else {
            throw SecKeyError(errSecParam, "Unsupported key type: \(parameters.string(kSecAttrKeyType) ?? "(null)")")
        }
        guard let keyClass = parameters.integer(kSecAttrKeyClass) else {
            throw SecKeyError(errSecParam, "Unsupported key class: \(parameters.string(kSecAttrKeyClass) ?? "(null)")")
        }
        switch (keyClass, type) {
        case (0, 73), (1, 73):
            break
        case (0, 42), (1, 42):
            throw SecKeyError(errSecUnimplemented, "SecKeyCreateWithData: RSA keys are not available on Linux yet")
        case (2, _):
            throw SecKeyError(errSecUnimplemented, "Unsupported symmetric key type: \(type)")
        case (0, _):
            throw SecKeyError(errSecParam, "Unsupported public key type: \(type)")
        case (1, _):
            throw SecKeyError(errSecParam, "Unsupported private key type: \(type)")
        default:
            throw SecKeyError(errSecParam, "Unsupported key class: \(keyClass)")
        }
        let data = keyData as Data
        if keyClass == 0 {
            guard let key = try? ECPublicKey(x963Representation: data) else {
                throw SecKeyError(errSecParam, "EC public key creation from data failed")
            }
            return SecKey(.ecPublic(key))
        }
        guard let key = try? ECPrivateKey(x963Representation: data) else {
            throw SecKeyError(errSecParam, "EC private key creation from data failed")
        }
        return SecKey(.ecPrivate(key))
    }
}

/// Returns the public key of a key pair.
///
/// - Parameter key: A private or public key.
/// - Returns: The public key (`key` itself when it is one).
public func SecKeyCopyPublicKey(_ key: SecKey) -> SecKey? {
    switch key.material {
    case .ecPrivate(let privateKey): SecKey(.ecPublic(privateKey.publicKey))
    case .ecPublic: key
    }
}

/// Returns an external representation of a key that can be stored or sent.
///
/// - Parameters:
///   - key: The key.
///   - error: On failure, an error in `NSOSStatusErrorDomain`.
/// - Returns: ANSI X9.63 for elliptic-curve keys: `04 ‖ X ‖ Y`, followed by the private scalar `K`
///   for a private key.
public func SecKeyCopyExternalRepresentation(
    _ key: SecKey,
    _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> CFData? {
    key.material.externalRepresentation as NSData
}

/// Returns the block size of a key, in bytes: the size of the key's coordinates for
/// elliptic-curve keys.
public func SecKeyGetBlockSize(_ key: SecKey) -> Int {
    key.material.publicKey.curve.coordinateByteCount
}

/// The Core Foundation type identifier of keys.
public func SecKeyGetTypeID() -> CFTypeID {
    CFTypeIdentifier.secKey.rawValue
}
#endif
