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

/// An asymmetric cryptographic key (Apple's `SecKeyRef`).
///
/// Make one with ``SecKeyCreateRandomKey(_:_:)`` or ``SecKeyCreateWithData(_:_:_:)``, take its
/// public half with ``SecKeyCopyPublicKey(_:)``, and use it with ``SecKeyCreateSignature(_:_:_:_:)``,
/// ``SecKeyVerifySignature(_:_:_:_:_:)``, ``SecKeyCreateEncryptedData(_:_:_:_:)``,
/// ``SecKeyCreateDecryptedData(_:_:_:_:)`` and ``SecKeyCopyKeyExchangeResult(_:_:_:_:_:)``.
///
/// - Note: On Linux, keys are elliptic-curve keys on P-256, P-384 and P-521 and RSA keys of 1,024
///   bits or more, held in the process as software keys are on Apple platforms, and Secure
///   Enclave keys, held by the keychain's engine. Two keys are equal when their external
///   representations are; a key's description never shows its private part.
public final class SecKey: NSObject, @unchecked Sendable {
    // Immutable after initialization.
    let material: KeyMaterial

    init(_ material: KeyMaterial) {
        self.material = material
        super.init()
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? SecKey else { return false }
        return other.material == material
    }

    public override var hash: Int {
        material.publicKeyData.hashValue
    }

    public override var description: String {
        guard let curve = material.ecPublicKey?.curve else {
            let kind = material.isPrivate ? "RSAPrivateKey" : "RSAPublicKey"
            return "<SecKeyRef algorithm id: 1, key type: \(kind), block size: \(material.bits) bits>"
        }
        let kind = material.isPrivate ? "ECPrivateKey" : "ECPublicKey"
        let token = if case .enclave = material { "('com.apple.setoken') " } else { "" }
        return
            "<SecKeyRef:\(token)curve type: \(curve.appleName), algorithm id: 3, key type: \(kind), block size: \(curve.bits) bits>"
    }
}

extension SecKey {
    /// The private key in PKCS #8 DER, for the `security` tool's PKCS #12 export; `nil` for a public
    /// key or a Secure Enclave key, which never leaves the engine.
    package var pkcs8Representation: Data? {
        switch material {
        case .ecPrivate(let key): key.pkcs8Representation
        case .rsaPrivate(let key): key.pkcs8Representation
        case .ecPublic, .rsaPublic, .enclave: nil
        }
    }
}

/// What a `SecKey` holds: one half of an elliptic-curve or RSA key pair, or a Secure Enclave
/// private key that stays in the engine.
enum KeyMaterial: Sendable, Equatable {
    case ecPrivate(ECPrivateKey)
    case ecPublic(ECPublicKey)
    case enclave(StoredEnclaveKey)
    case rsaPrivate(RSAPrivateKey)
    case rsaPublic(RSAPublicKey)

    var isPrivate: Bool {
        switch self {
        case .ecPublic, .rsaPublic: false
        case .ecPrivate, .enclave, .rsaPrivate: true
        }
    }

    /// The public half.
    var publicHalf: KeyMaterial {
        switch self {
        case .ecPrivate(let key): .ecPublic(key.publicKey)
        case .enclave(let key): .ecPublic(key.publicKey)
        case .rsaPrivate(let key): .rsaPublic(key.publicKey)
        case .ecPublic, .rsaPublic: self
        }
    }

    /// The elliptic-curve public key, for an EC key.
    var ecPublicKey: ECPublicKey? {
        switch publicHalf {
        case .ecPublic(let key): key
        default: nil
        }
    }

    /// The public key's external representation: X9.63, or PKCS #1 `RSAPublicKey` DER.
    var publicKeyData: Data {
        switch publicHalf {
        case .ecPublic(let key): key.x963Representation
        case .rsaPublic(let key): key.pkcs1Representation
        default: Data()
        }
    }

    /// `kSecAttrKeyType`'s number: 73 for EC, 42 for RSA.
    var keyType: Int {
        switch self {
        case .rsaPrivate, .rsaPublic: 42
        default: 73
        }
    }

    /// The key size in bits (`kSecAttrKeySizeInBits`).
    var bits: Int {
        switch publicHalf {
        case .ecPublic(let key): key.curve.bits
        case .rsaPublic(let key): key.bits
        default: 0
        }
    }

    /// `SecKeyGetBlockSize`: a coordinate's bytes for EC keys, the modulus's for RSA keys.
    var blockSize: Int {
        (bits + 7) / 8
    }

    /// Apple's external representation: X9.63 (with the private scalar for a private key), or
    /// PKCS #1 DER; `nil` for a Secure Enclave key, which cannot be exported.
    var externalRepresentation: Data? {
        switch self {
        case .ecPrivate(let key): key.x963Representation
        case .ecPublic(let key): key.x963Representation
        case .rsaPrivate(let key): key.pkcs1Representation
        case .rsaPublic(let key): key.pkcs1Representation
        case .enclave: nil
        }
    }

    static func == (lhs: KeyMaterial, rhs: KeyMaterial) -> Bool {
        switch (lhs, rhs) {
        case (.enclave(let left), .enclave(let right)):
            left.location == right.location && left.publicKey == right.publicKey
        case (.enclave, _), (_, .enclave): false
        default: lhs.isPrivate == rhs.isPrivate && lhs.externalRepresentation == rhs.externalRepresentation
        }
    }
}

extension ECCurve {
    /// The name Apple's key descriptions give the curve.
    var appleName: String {
        switch self {
        case .p256: "kSecECCurveSecp256r1"
        case .p384: "kSecECCurveSecp384r1"
        case .p521: "kSecECCurveSecp521r1"
        }
    }
}
#endif
