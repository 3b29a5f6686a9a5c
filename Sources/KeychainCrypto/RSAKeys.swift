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
import _CryptoExtras

/// How an RSA signature pads: PKCS #1 v1.5, or PSS with MGF1 and a salt as long as the digest
/// (Apple's `rsaSignature…PSS…`).
package enum RSASignaturePadding: Sendable, Hashable {
    case pkcs1v15
    case pss
}

/// How RSA encryption pads: PKCS #1 v1.5, or OAEP with MGF1 over the same hash and no label.
package enum RSAEncryptionPadding: Sendable, Hashable {
    case pkcs1
    case oaep(DigestKind)
}

/// An RSA public key (swift-crypto's `_CryptoExtras`), 1,024 bits or more.
package struct RSAPublicKey: Sendable, Hashable {
    /// The PKCS #1 `RSAPublicKey` DER: Apple's external representation.
    package let pkcs1Representation: Data
    /// The modulus length in bits.
    package let bits: Int

    /// The key in `data`: PKCS #1 `RSAPublicKey` or X.509 `SubjectPublicKeyInfo` DER.
    package init(derRepresentation data: Data) throws(KeyMaterialError) {
        guard let key = try? _RSA.Signing.PublicKey(unsafeDERRepresentation: data) else { throw .invalidKeyData }
        self.init(key)
    }

    init(_ key: _RSA.Signing.PublicKey) {
        pkcs1Representation = key.pkcs1DERRepresentation
        bits = key.keySizeInBits
    }

    private var signingKey: _RSA.Signing.PublicKey? {
        try? _RSA.Signing.PublicKey(unsafeDERRepresentation: pkcs1Representation)
    }

    /// Whether `signature` signs `digest` (made with `kind`).
    package func isValidSignature(
        _ signature: Data,
        digest: Data,
        kind: DigestKind,
        padding: RSASignaturePadding
    ) -> Bool {
        guard let key = signingKey else { return false }
        let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
        let swiftPadding: _RSA.Signing.Padding = padding == .pss ? .PSS : .insecurePKCS1v1_5
        return
            (try? RSADigest.with(digest, kind: kind) {
                key.isValidSignature(rsaSignature, for: $0, padding: swiftPadding)
            }) ?? false
    }

    /// `plaintext` encrypted to this key.
    package func encrypt(_ plaintext: Data, padding: RSAEncryptionPadding) throws(KeyMaterialError) -> Data {
        guard let key = try? _RSA.Encryption.PublicKey(unsafeDERRepresentation: pkcs1Representation) else {
            throw .invalidKeyData
        }
        do {
            return try key.encrypt(plaintext, padding: try RSADigest.encryptionPadding(padding))
        } catch let error as KeyMaterialError {
            throw error
        } catch {
            throw .invalidInput("RSAencrypt wrong input size")
        }
    }
}

/// An RSA private key (swift-crypto's `_CryptoExtras`; BoringSSL zeroes it when freed).
package struct RSAPrivateKey: Sendable {
    private let key: _RSA.Signing.PrivateKey
    /// The matching public key.
    package let publicKey: RSAPublicKey

    /// A new key of `bits` bits (1,024 or more).
    package init(generatingBits bits: Int) throws(KeyMaterialError) {
        guard let key = try? _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: bits)) else {
            throw .invalidKeyData
        }
        self.init(key)
    }

    /// The key in `data`: PKCS #1 `RSAPrivateKey` (Apple's external representation) or PKCS #8 DER.
    package init(derRepresentation data: Data) throws(KeyMaterialError) {
        guard let key = try? _RSA.Signing.PrivateKey(unsafeDERRepresentation: data) else { throw .invalidKeyData }
        self.init(key)
    }

    private init(_ key: _RSA.Signing.PrivateKey) {
        self.key = key
        publicKey = RSAPublicKey(key.publicKey)
    }

    /// The PKCS #1 `RSAPrivateKey` DER.
    package var pkcs1Representation: Data {
        key.derRepresentation
    }

    /// The key in PKCS #8 DER (for a PKCS #12 file).
    package var pkcs8Representation: Data {
        key.pkcs8DERRepresentation
    }

    /// A signature of `digest` (made with `kind`), the modulus's length.
    package func signature(
        digest: Data,
        kind: DigestKind,
        padding: RSASignaturePadding
    ) throws(KeyMaterialError) -> Data {
        let swiftPadding: _RSA.Signing.Padding = padding == .pss ? .PSS : .insecurePKCS1v1_5
        do {
            return try RSADigest.with(digest, kind: kind) {
                try key.signature(for: $0, padding: swiftPadding).rawRepresentation
            }
        } catch let error as KeyMaterialError {
            throw error
        } catch {
            throw .invalidInput("RSAsign wrong input data length")
        }
    }

    /// The plaintext of `ciphertext`.
    package func decrypt(_ ciphertext: Data, padding: RSAEncryptionPadding) throws(KeyMaterialError) -> Data {
        guard let decrypting = try? _RSA.Encryption.PrivateKey(unsafeDERRepresentation: key.derRepresentation) else {
            throw .invalidKeyData
        }
        do {
            return try decrypting.decrypt(ciphertext, padding: try RSADigest.encryptionPadding(padding))
        } catch let error as KeyMaterialError {
            throw error
        } catch {
            throw .invalidInput("RSAdecrypt wrong input")
        }
    }
}

/// swift-crypto's RSA takes a digest as one of its own digest types; a digest the caller made is
/// turned into one here.
enum RSADigest {
    /// Runs `body` with `bytes` as a swift-crypto digest of `kind`.
    ///
    /// swift-crypto's digest types have no public initializer from bytes; each is a fixed-size
    /// plain value holding its bytes, so the bytes are loaded as one, and the result is checked to
    /// give the same bytes back (if swift-crypto ever lays them out otherwise, the algorithm is
    /// refused instead of signing something else).
    static func with<R>(_ bytes: Data, kind: DigestKind, _ body: (any Digest) throws -> R) throws -> R {
        guard bytes.count == kind.byteCount else { throw KeyMaterialError.invalidInput("bad digest size") }
        let digest: (any Digest)?
        switch kind {
        case .sha1: digest = load(Insecure.SHA1Digest.self, from: bytes)
        case .sha256: digest = load(SHA256Digest.self, from: bytes)
        case .sha384: digest = load(SHA384Digest.self, from: bytes)
        case .sha512: digest = load(SHA512Digest.self, from: bytes)
        case .sha224: digest = nil
        }
        guard let digest else { throw KeyMaterialError.invalidInput("RSA with this hash is not available") }
        return try body(digest)
    }

    private static func load<D: Digest>(_ type: D.Type, from bytes: Data) -> D? {
        let size = MemoryLayout<D>.size
        guard _isPOD(D.self), size >= D.byteCount, bytes.count == D.byteCount else { return nil }
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<D>.alignment)
        defer { buffer.deallocate() }
        buffer.initializeMemory(as: UInt8.self, repeating: 0, count: size)
        bytes.copyBytes(to: buffer.assumingMemoryBound(to: UInt8.self), count: D.byteCount)
        let digest = buffer.load(as: D.self)
        return digest.withUnsafeBytes({ Data($0) }) == bytes ? digest : nil
    }

    static func encryptionPadding(_ padding: RSAEncryptionPadding) throws(KeyMaterialError) -> _RSA.Encryption.Padding {
        switch padding {
        case .pkcs1: return ._WEAK_AND_INSECURE_PKCS_V1_5
        case .oaep(.sha1): return .PKCS1_OAEP
        case .oaep(.sha256): return .PKCS1_OAEP_SHA256
        case .oaep: throw .invalidInput("RSA-OAEP with this hash is not available")
        }
    }
}
