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

/// A public key on a NIST prime curve, checked to be a point of the curve once, when it is made.
package struct ECPublicKey: Sendable, Hashable {
    /// swift-crypto's key, parsed once (verifying used to parse and check the point again each time).
    enum Backing: Sendable {
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case p521(P521.Signing.PublicKey)
    }

    private let backing: Backing
    /// The key's curve.
    package let curve: ECCurve
    /// The uncompressed point in ANSI X9.63 form: `04 ‖ X ‖ Y`.
    package let x963Representation: Data

    /// The key whose X9.63 form is `data` (uncompressed, as Apple exports it).
    package init(x963Representation data: Data) throws(KeyMaterialError) {
        guard let curve = ECCurve(publicKeyByteCount: data.count), data.first == 0x04 else {
            throw .invalidKeyData
        }
        do {
            switch curve {
            case .p256: self.init(.p256(try P256.Signing.PublicKey(x963Representation: data)))
            case .p384: self.init(.p384(try P384.Signing.PublicKey(x963Representation: data)))
            case .p521: self.init(.p521(try P521.Signing.PublicKey(x963Representation: data)))
            }
        } catch {
            throw .invalidKeyData
        }
    }

    init(_ backing: Backing) {
        self.backing = backing
        switch backing {
        case .p256(let key): (curve, x963Representation) = (.p256, key.x963Representation)
        case .p384(let key): (curve, x963Representation) = (.p384, key.x963Representation)
        case .p521(let key): (curve, x963Representation) = (.p521, key.x963Representation)
        }
    }

    package static func == (lhs: ECPublicKey, rhs: ECPublicKey) -> Bool {
        lhs.x963Representation == rhs.x963Representation
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(x963Representation)
    }

    /// Whether `signature` (DER, as X9.62 specifies) signs `digest` with this key's private key.
    package func isValidSignature(der signature: Data, forDigest digest: Data) -> Bool {
        let digest = RawDigest(digest)
        switch backing {
        case .p256(let key):
            guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: digest)
        case .p384(let key):
            guard let signature = try? P384.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: digest)
        case .p521(let key):
            guard let signature = try? P521.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: digest)
        }
    }

    /// Whether `signature` (`r ‖ s`, each the curve's size, as RFC 4754 specifies) signs `digest`.
    package func isValidSignature(raw signature: Data, forDigest digest: Data) -> Bool {
        guard let der = ECSignatureFormat.der(fromRaw: signature, curve: curve) else { return false }
        return isValidSignature(der: der, forDigest: digest)
    }
}
