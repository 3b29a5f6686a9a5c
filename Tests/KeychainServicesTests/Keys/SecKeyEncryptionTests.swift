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
import Foundation
import KeychainServices
import Testing

/// ECIES through `SecKeyCreateEncryptedData` / `SecKeyCreateDecryptedData`: Apple's known
/// ciphertexts decrypt, and what the mirror encrypts decrypts with an independent implementation of
/// Apple's format built here from swift-crypto's ECDH, X9.63 derivation and AES-GCM.
@Suite struct SecKeyEncryptionTests {
    struct AppleVectors: Decodable {
        struct Vector: Decodable {
            var curve: String
            var algorithm: String
            var privateKey: String
            var ciphertext: String
        }
        var plaintext: String
        var vectors: [Vector]
    }

    static func appleVectors() throws -> AppleVectors {
        let url = try #require(
            Bundle.module.url(forResource: "seckey-ecies-apple", withExtension: "json", subdirectory: "Vectors")
        )
        return try JSONDecoder().decode(AppleVectors.self, from: Data(contentsOf: url))
    }

    static var privateClass: CFDictionary {
        [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary
    }

    @Test func applesKnownCiphertextsDecrypt() throws {
        let file = try Self.appleVectors()
        let plaintext = SecKeyTestSupport.data(hex: file.plaintext)
        var decrypted = 0
        for vector in file.vectors {
            let keyData = SecKeyTestSupport.data(hex: vector.privateKey)
            let key = SecKeyCreateWithData(keyData as CFData, Self.privateClass, nil)
            guard vector.curve != "P-192" else {
                // swift-crypto has no P-192: the key is refused, as the README states.
                #expect(key == nil)
                continue
            }
            let privateKey = try #require(key, "\(vector.curve) \(vector.algorithm)")
            let cofactor = SecKeyAlgorithm(rawValue: vector.algorithm as CFString)
            let standard = SecKeyAlgorithm(
                rawValue: vector.algorithm.replacingOccurrences(of: ":ECDHC:", with: ":ECDH:") as CFString
            )
            for algorithm in [cofactor, standard] {
                let ciphertext = SecKeyTestSupport.data(hex: vector.ciphertext) as CFData
                #expect(
                    SecKeyCreateDecryptedData(privateKey, algorithm, ciphertext, nil) as Data? == plaintext,
                    "\(vector.curve) \(vector.algorithm)"
                )
            }
            decrypted += 1
        }
        #expect(decrypted == 10)
    }

    static let algorithms: [(SecKeyAlgorithm, Bool)] = [
        (.eciesEncryptionStandardX963SHA1AESGCM, false),
        (.eciesEncryptionStandardX963SHA224AESGCM, false),
        (.eciesEncryptionCofactorX963SHA256AESGCM, false),
        (.eciesEncryptionStandardX963SHA384AESGCM, false),
        (.eciesEncryptionCofactorX963SHA512AESGCM, false),
        (.eciesEncryptionStandardVariableIVX963SHA256AESGCM, true),
        (.eciesEncryptionCofactorVariableIVX963SHA224AESGCM, true),
        (.eciesEncryptionCofactorVariableIVX963SHA256AESGCM, true),
        (.eciesEncryptionCofactorVariableIVX963SHA384AESGCM, true),
        (.eciesEncryptionStandardVariableIVX963SHA512AESGCM, true),
    ]

    @Test(arguments: algorithms)
    func ciphertextsAreApplesFormat(algorithm: SecKeyAlgorithm, derivesIV: Bool) throws {
        let plaintext = Data("a secret worth keeping, longer than one AES block".utf8)
        for bits in [256, 384, 521] {
            let privateKey = try SecKeyTestSupport.makePrivateKey(bits: bits)
            let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
            let ciphertext = try #require(
                SecKeyCreateEncryptedData(publicKey, algorithm, plaintext as CFData, nil) as Data?
            )
            let coordinate = SecKeyGetBlockSize(publicKey)
            #expect(ciphertext.count == 1 + 2 * coordinate + plaintext.count + 16)
            #expect(SecKeyCreateDecryptedData(privateKey, algorithm, ciphertext as CFData, nil) as Data? == plaintext)

            let scalar = try SecKeyTestSupport.externalRepresentation(privateKey).suffix(coordinate)
            // SHA-224 is not in swift-crypto; Apple's vectors cover it for P-256 and P-521.
            guard !(algorithm.rawValue as String).contains(":SHA224:") else { continue }
            let independent = try IndependentECIES.open(
                ciphertext,
                scalar: scalar,
                bits: bits,
                hash: algorithm.rawValue as String,
                derivesIV: derivesIV
            )
            #expect(independent == plaintext)
        }
    }

    @Test func everyCiphertextIsNew() throws {
        let publicKey = try #require(SecKeyCopyPublicKey(try SecKeyTestSupport.makePrivateKey()))
        let plaintext = Data("same message".utf8) as CFData
        let first =
            SecKeyCreateEncryptedData(publicKey, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, plaintext, nil)
            as Data?
        let second =
            SecKeyCreateEncryptedData(publicKey, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, plaintext, nil)
            as Data?
        #expect(first != nil && first != second)
        let empty =
            SecKeyCreateEncryptedData(
                publicKey,
                .eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
                Data() as CFData,
                nil
            ) as Data?
        #expect(empty?.count == 65 + 16)
    }

    @Test func aChangedOrForeignCiphertextIsRefusedWithErrSecParam() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let algorithm = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM
        let ciphertext = try #require(
            SecKeyCreateEncryptedData(publicKey, algorithm, Data("secret".utf8) as CFData, nil) as Data?
        )
        var flippedBody = ciphertext
        flippedBody[70] ^= 0x01
        var flippedKey = ciphertext
        flippedKey[10] ^= 0x01
        let otherKey = try SecKeyTestSupport.makePrivateKey()
        let cases: [(SecKey, SecKeyAlgorithm, Data)] = [
            (privateKey, algorithm, flippedBody),
            (privateKey, algorithm, flippedKey),
            (privateKey, algorithm, ciphertext.dropLast()),
            (privateKey, algorithm, ciphertext.prefix(65)),
            (privateKey, algorithm, Data()),
            (privateKey, .eciesEncryptionStandardVariableIVX963SHA512AESGCM, ciphertext),
            (privateKey, .eciesEncryptionCofactorX963SHA256AESGCM, ciphertext),
            (otherKey, algorithm, ciphertext),
            (publicKey, algorithm, ciphertext),
        ]
        for (key, algorithm, data) in cases {
            let outcome = SecKeyTestSupport.capture { SecKeyCreateDecryptedData(key, algorithm, data as CFData, $0) }
            #expect(outcome.result == nil)
            #expect(outcome.code == Int(errSecParam))
            #expect(outcome.description?.contains("secret") != true)
        }
        // Encryption needs a public key.
        let byPrivate = SecKeyTestSupport.capture {
            SecKeyCreateEncryptedData(privateKey, algorithm, Data() as CFData, $0)
        }
        #expect(byPrivate.result == nil)
        #expect(byPrivate.code == Int(errSecParam))
    }
}

/// Apple's ECIES, written again from its description (`SecKeyAdaptors.m`) with swift-crypto's
/// primitives, to check the mirror against something it does not share code with.
enum IndependentECIES {
    static func open(_ message: Data, scalar: Data, bits: Int, hash: String, derivesIV: Bool) throws -> Data {
        let pointLength = 1 + 2 * ((bits + 7) / 8)
        let ephemeral = message.prefix(pointLength)
        let body = message.dropFirst(pointLength).dropLast(16)
        let tag = message.suffix(16)
        let secret: SharedSecret
        switch bits {
        case 256:
            secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
                .sharedSecretFromKeyAgreement(with: .init(x963Representation: ephemeral))
        case 384:
            secret = try P384.KeyAgreement.PrivateKey(rawRepresentation: scalar)
                .sharedSecretFromKeyAgreement(with: .init(x963Representation: ephemeral))
        default:
            secret = try P521.KeyAgreement.PrivateKey(rawRepresentation: scalar)
                .sharedSecretFromKeyAgreement(with: .init(x963Representation: ephemeral))
        }
        let keyLength = bits > 256 ? 32 : 16
        let outputLength = keyLength + (derivesIV ? 16 : 0)
        let derived: SymmetricKey
        if hash.contains(":SHA256:") {
            derived = secret.x963DerivedSymmetricKey(
                using: SHA256.self,
                sharedInfo: ephemeral,
                outputByteCount: outputLength
            )
        } else if hash.contains(":SHA384:") {
            derived = secret.x963DerivedSymmetricKey(
                using: SHA384.self,
                sharedInfo: ephemeral,
                outputByteCount: outputLength
            )
        } else if hash.contains(":SHA512:") {
            derived = secret.x963DerivedSymmetricKey(
                using: SHA512.self,
                sharedInfo: ephemeral,
                outputByteCount: outputLength
            )
        } else {
            derived = secret.x963DerivedSymmetricKey(
                using: Insecure.SHA1.self,
                sharedInfo: ephemeral,
                outputByteCount: outputLength
            )
        }
        let bytes = derived.withUnsafeBytes { Data($0) }
        let iv = derivesIV ? bytes.suffix(16) : Data(count: 16)
        let box = try AES.GCM.SealedBox(nonce: AES.GCM.Nonce(data: iv), ciphertext: body, tag: tag)
        return try AES.GCM.open(box, using: SymmetricKey(data: bytes.prefix(keyLength)))
    }
}
