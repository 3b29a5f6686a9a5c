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
/// - Note: On Linux, keys are elliptic-curve keys on P-256, P-384 and P-521, held in the process
///   as software keys are on Apple platforms. Two keys are equal when their external
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
        material.publicKey.x963Representation.hashValue
    }

    public override var description: String {
        let curve = material.publicKey.curve
        let kind = material.isPrivate ? "ECPrivateKey" : "ECPublicKey"
        let token = if case .enclave = material { "('com.apple.setoken') " } else { "" }
        return "<SecKeyRef:\(token)curve type: \(curve.appleName), algorithm id: 3, key type: \(kind), block size: \(curve.bits) bits>"
    }
}

/// What a `SecKey` holds: one half of an elliptic-curve key pair, or a Secure Enclave private key
/// that stays in the engine.
enum KeyMaterial: Sendable, Equatable {
    case ecPrivate(ECPrivateKey)
    case ecPublic(ECPublicKey)
    case enclave(EnclaveKey)

    var isPrivate: Bool {
        if case .ecPublic = self { return false }
        return true
    }

    var publicKey: ECPublicKey {
        switch self {
        case .ecPrivate(let key): key.publicKey
        case .ecPublic(let key): key
        case .enclave(let key): key.publicKey
        }
    }

    /// Apple's external representation: X9.63, with the private scalar for a private key; `nil`
    /// for a Secure Enclave key, which cannot be exported.
    var externalRepresentation: Data? {
        switch self {
        case .ecPrivate(let key): key.x963Representation
        case .ecPublic(let key): key.x963Representation
        case .enclave: nil
        }
    }

    static func == (lhs: KeyMaterial, rhs: KeyMaterial) -> Bool {
        switch (lhs, rhs) {
        case (.ecPublic(let left), .ecPublic(let right)): left == right
        case (.ecPrivate(let left), .ecPrivate(let right)): left.x963Representation == right.x963Representation
        case (.enclave(let left), .enclave(let right)): left.reference == right.reference && left.publicKey == right.publicKey
        default: false
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
