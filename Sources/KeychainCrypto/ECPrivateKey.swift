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
package import Foundation

/// A private key on a NIST prime curve, held by swift-crypto (BoringSSL zeroes it when freed).
///
/// Its description names the curve only; nothing prints the scalar.
package struct ECPrivateKey: Sendable {
    private enum Backing: Sendable {
        case p256(P256.Signing.PrivateKey)
        case p384(P384.Signing.PrivateKey)
        case p521(P521.Signing.PrivateKey)
    }

    private let backing: Backing
    /// The matching public key.
    package let publicKey: ECPublicKey

    // MARK: - Initialization

    /// A new random key on `curve`; `compactRepresentable` picks one whose public key has a compact
    /// (X coordinate only) form, as CryptoKit's keys do by default.
    package init(generatingOn curve: ECCurve, compactRepresentable: Bool = false) {
        switch curve {
        case .p256: self.init(.p256(P256.Signing.PrivateKey(compactRepresentable: compactRepresentable)))
        case .p384: self.init(.p384(P384.Signing.PrivateKey(compactRepresentable: compactRepresentable)))
        case .p521: self.init(.p521(P521.Signing.PrivateKey(compactRepresentable: compactRepresentable)))
        }
    }

    /// The key whose Apple X9.63 form is `data`: `04 ‖ X ‖ Y ‖ K`.
    ///
    /// The public point must be the one the scalar makes.
    package init(x963Representation data: Data) throws(KeyMaterialError) {
        guard let curve = ECCurve(privateKeyByteCount: data.count), data.first == 0x04 else {
            throw .invalidKeyData
        }
        let start = data.startIndex
        let scalar = data[(start + curve.publicKeyByteCount)...]
        let key = try Self(scalar: Data(scalar), curve: curve)
        guard key.publicKey.x963Representation == data[start..<(start + curve.publicKeyByteCount)] else {
            throw .invalidKeyData
        }
        self = key
    }

    /// The key in PKCS #8 or SEC 1 DER (as a PKCS #12 file or OpenSSL holds it), on whichever of
    /// the curves it names.
    package init(derRepresentation data: Data) throws(KeyMaterialError) {
        if let key = try? P256.Signing.PrivateKey(derRepresentation: data) {
            self.init(.p256(key))
        } else if let key = try? P384.Signing.PrivateKey(derRepresentation: data) {
            self.init(.p384(key))
        } else if let key = try? P521.Signing.PrivateKey(derRepresentation: data) {
            self.init(.p521(key))
        } else {
            throw .invalidKeyData
        }
    }

    /// The key with the private scalar `scalar` (big-endian, the curve's size).
    package init(scalar: Data, curve: ECCurve) throws(KeyMaterialError) {
        guard scalar.count == curve.coordinateByteCount else { throw .invalidKeyData }
        do {
            switch curve {
            case .p256: self.init(.p256(try P256.Signing.PrivateKey(rawRepresentation: scalar)))
            case .p384: self.init(.p384(try P384.Signing.PrivateKey(rawRepresentation: scalar)))
            case .p521: self.init(.p521(try P521.Signing.PrivateKey(rawRepresentation: scalar)))
            }
        } catch {
            throw .invalidKeyData
        }
    }

    private init(_ backing: Backing) {
        self.backing = backing
        switch backing {
        case .p256(let key): publicKey = ECPublicKey(.p256(key.publicKey))
        case .p384(let key): publicKey = ECPublicKey(.p384(key.publicKey))
        case .p521(let key): publicKey = ECPublicKey(.p521(key.publicKey))
        }
    }

    // MARK: - Properties

    /// The key's curve.
    package var curve: ECCurve {
        publicKey.curve
    }

    /// Apple's export form: `04 ‖ X ‖ Y ‖ K`.
    package var x963Representation: Data {
        publicKey.x963Representation + scalar
    }

    /// The key in PKCS #8 DER (for a PKCS #12 file).
    package var pkcs8Representation: Data {
        switch backing {
        case .p256(let key): key.derRepresentation
        case .p384(let key): key.derRepresentation
        case .p521(let key): key.derRepresentation
        }
    }

    /// The private scalar, big-endian.
    private var scalar: Data {
        switch backing {
        case .p256(let key): key.rawRepresentation
        case .p384(let key): key.rawRepresentation
        case .p521(let key): key.rawRepresentation
        }
    }

    // MARK: - Operations

    /// An ECDSA signature of `digest` in X9.62's DER form.
    package func derSignature(forDigest digest: Data) throws(KeyMaterialError) -> Data {
        guard !digest.isEmpty else { throw .invalidInput("the digest is empty") }
        let digest = RawDigest(digest)
        do {
            switch backing {
            case .p256(let key): return try key.signature(for: digest).derRepresentation
            case .p384(let key): return try key.signature(for: digest).derRepresentation
            case .p521(let key): return try key.signature(for: digest).derRepresentation
            }
        } catch {
            throw .invalidInput("the digest cannot be signed")
        }
    }

    /// The ECDH shared secret with `peer`: the X coordinate of the shared point, the curve's size.
    ///
    /// On these curves the cofactor is 1, so standard and cofactor Diffie-Hellman agree.
    package func sharedSecret(with peer: ECPublicKey) throws(KeyMaterialError) -> Data {
        guard peer.curve == curve else { throw .curveMismatch }
        do {
            let secret: SharedSecret
            switch backing {
            case .p256(let key):
                secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: key.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: .init(x963Representation: peer.x963Representation))
            case .p384(let key):
                secret = try P384.KeyAgreement.PrivateKey(rawRepresentation: key.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: .init(x963Representation: peer.x963Representation))
            case .p521(let key):
                secret = try P521.KeyAgreement.PrivateKey(rawRepresentation: key.rawRepresentation)
                    .sharedSecretFromKeyAgreement(with: .init(x963Representation: peer.x963Representation))
            }
            return secret.withUnsafeBytes { Data($0) }
        } catch {
            throw .invalidKeyData
        }
    }
}

extension ECPrivateKey: CustomStringConvertible {
    package var description: String {
        "ECPrivateKey(\(curve))"
    }
}
