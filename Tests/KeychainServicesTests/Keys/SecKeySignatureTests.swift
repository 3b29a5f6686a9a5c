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

/// ECDSA through `SecKeyCreateSignature` / `SecKeyVerifySignature`: signatures interoperate with
/// swift-crypto both ways, Apple's fixed vector verifies, and the refusals carry Apple's codes.
@Suite struct SecKeySignatureTests {
    static let message = Data("The quick brown fox jumps over the lazy dog".utf8)

    @Test func aMessageSignatureVerifiesWithSwiftCryptoAndBack() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let signature = try #require(
            SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, nil) as Data?
        )
        let cryptoPublic = try P256.Signing.PublicKey(
            x963Representation: SecKeyTestSupport.externalRepresentation(publicKey)
        )
        #expect(
            cryptoPublic.isValidSignature(
                try P256.Signing.ECDSASignature(derRepresentation: signature),
                for: Self.message
            )
        )
        #expect(
            SecKeyVerifySignature(
                publicKey,
                .ecdsaSignatureMessageX962SHA256,
                Self.message as CFData,
                signature as CFData,
                nil
            )
        )

        // The other way: swift-crypto signs with the exported scalar, the mirror verifies.
        let scalar = try SecKeyTestSupport.externalRepresentation(privateKey).suffix(32)
        let cryptoSignature = try P256.Signing.PrivateKey(rawRepresentation: scalar).signature(for: Self.message)
        #expect(
            SecKeyVerifySignature(
                publicKey,
                .ecdsaSignatureMessageX962SHA256,
                Self.message as CFData,
                cryptoSignature.derRepresentation as CFData,
                nil
            )
        )
        #expect(
            SecKeyVerifySignature(
                publicKey,
                .ecdsaSignatureMessageRFC4754SHA256,
                Self.message as CFData,
                cryptoSignature.rawRepresentation as CFData,
                nil
            )
        )
    }

    @Test(arguments: [
        (
            SecKeyAlgorithm.ecdsaSignatureMessageX962SHA1, SecKeyAlgorithm.ecdsaSignatureDigestX962SHA1,
            Data(Insecure.SHA1.hash(data: message))
        ),
        (.ecdsaSignatureMessageX962SHA224, .ecdsaSignatureDigestX962SHA224, SecKeySignatureTests.sha224OfMessage),
        (.ecdsaSignatureMessageX962SHA256, .ecdsaSignatureDigestX962SHA256, Data(SHA256.hash(data: message))),
        (.ecdsaSignatureMessageX962SHA384, .ecdsaSignatureDigestX962SHA384, Data(SHA384.hash(data: message))),
        (.ecdsaSignatureMessageX962SHA512, .ecdsaSignatureDigestX962SHA512, Data(SHA512.hash(data: message))),
    ])
    func aMessageAlgorithmSignsTheDigestOfItsHash(
        messageAlgorithm: SecKeyAlgorithm,
        digestAlgorithm: SecKeyAlgorithm,
        digest: Data
    ) throws {
        for bits in [256, 384, 521] {
            let privateKey = try SecKeyTestSupport.makePrivateKey(bits: bits)
            let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
            let signature = try #require(
                SecKeyCreateSignature(privateKey, messageAlgorithm, Self.message as CFData, nil)
            )
            #expect(SecKeyVerifySignature(publicKey, digestAlgorithm, digest as CFData, signature, nil))
            #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962, digest as CFData, signature, nil))
            #expect(SecKeyVerifySignature(publicKey, messageAlgorithm, Self.message as CFData, signature, nil))
        }
    }

    /// SHA-224 of `message`, which swift-crypto cannot compute (Python's hashlib gave it).
    static let sha224OfMessage = SecKeyTestSupport.data(hex: "730e109bd7a8a32b1cb9d9a09aa2325d2430587ddbc0c38bad911525")

    @Test func sha224MatchesFIPS180sExamples() throws {
        // FIPS 180-2's "abc" and empty-message values, through a digest algorithm that checks the length.
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let examples: [(Data, String)] = [
            (Data("abc".utf8), "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"),
            (Data(), "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"),
            (Data((0..<1024).map { UInt8($0 % 256) }), "6290817f6001432cd441058d2bb82d88b3f32425ade4c93d56207838"),
        ]
        for (message, hex) in examples {
            let signature = try #require(
                SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA224, message as CFData, nil)
            )
            let digest = SecKeyTestSupport.data(hex: hex)
            #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962SHA224, digest as CFData, signature, nil))
        }
    }

    /// Apple's fixed P-256 vector (si-41-sececkey.c, `testsignformat`): a 24-byte "digest" signed
    /// with the digest algorithms that take any length.
    @Test func applesFixedSignatureVerifies() throws {
        let publicData = SecKeyTestSupport.data(
            hex:
                "048cfad78af1b9add73a33b59aad520d14d66b355679d6742a377e2f33a6abee35007082899cfc97c4895c1650ad6055a670ee071bfee4f0a063c07324979204c7"
        )
        let scalar = SecKeyTestSupport.data(hex: "86877959d1c63c502430a4af891dd194235679469372313924e60196c8ebf388")
        let digest = Data("012345678912345678901234".utf8)
        let der = SecKeyTestSupport.data(
            hex:
                "304502204b377f45d05da653b3626f32dbfcf63b84fa5ad917670373480cad89136961b3022100d623afd97d72ba3b90c1237ddb2cd10dbbb40f6726ff3fa647a4130de045d56b"
        )
        let raw = SecKeyTestSupport.data(
            hex:
                "4b377f45d05da653b3626f32dbfcf63b84fa5ad917670373480cad89136961b3d623afd97d72ba3b90c1237ddb2cd10dbbb40f6726ff3fa647a4130de045d56b"
        )
        let publicKey = try #require(
            SecKeyCreateWithData(
                publicData as CFData,
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPublic]
                    as CFDictionary,
                nil
            )
        )
        #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962, digest as CFData, der as CFData, nil))
        #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestRFC4754, digest as CFData, raw as CFData, nil))
        #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureRFC4754, digest as CFData, raw as CFData, nil))

        // The private key made from the same numbers signs in both forms, and its signatures verify.
        let privateKey = try #require(
            SecKeyCreateWithData(
                (publicData + scalar) as CFData,
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
                    as CFDictionary,
                nil
            )
        )
        let rawSignature = try #require(
            SecKeyCreateSignature(privateKey, .ecdsaSignatureDigestRFC4754, digest as CFData, nil) as Data?
        )
        #expect(rawSignature.count == 64)
        #expect(
            SecKeyVerifySignature(
                publicKey,
                .ecdsaSignatureDigestRFC4754,
                digest as CFData,
                rawSignature as CFData,
                nil
            )
        )
    }

    @Test func aChangedMessageOrSignatureFailsWithErrSecVerifyFailed() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        var signature = try #require(
            SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, nil) as Data?
        )
        let otherMessage = Data("The quick brown fox jumps over the lazy cat".utf8)
        let changedMessage = SecKeyTestSupport.capture {
            SecKeyVerifySignature(
                publicKey,
                .ecdsaSignatureMessageX962SHA256,
                otherMessage as CFData,
                signature as CFData,
                $0
            )
        }
        #expect(changedMessage.result == false)
        #expect(changedMessage.code == Int(errSecVerifyFailed))

        signature[signature.count - 1] ^= 0x01
        for bad in [signature, Data(), Data([0x30, 0x00]), Data(repeating: 0xff, count: 200)] {
            let outcome = SecKeyTestSupport.capture {
                SecKeyVerifySignature(
                    publicKey,
                    .ecdsaSignatureMessageX962SHA256,
                    Self.message as CFData,
                    bad as CFData,
                    $0
                )
            }
            #expect(outcome.result == false)
            #expect(outcome.code == Int(errSecVerifyFailed))
        }
        let otherKey = try #require(SecKeyCopyPublicKey(try SecKeyTestSupport.makePrivateKey()))
        let good = try #require(
            SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, nil)
        )
        #expect(!SecKeyVerifySignature(otherKey, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, good, nil))
    }

    @Test func aKeyRefusesWhatItCannotDoWithErrSecParam() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let signature = try #require(
            SecKeyCreateSignature(privateKey, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, nil)
        )

        // Public keys do not sign, private keys do not verify (si-41-sececkey's testsupportedalgos).
        let signedByPublic = SecKeyTestSupport.capture {
            SecKeyCreateSignature(publicKey, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, $0)
        }
        #expect(signedByPublic.result == nil)
        #expect(signedByPublic.code == Int(errSecParam))
        #expect(signedByPublic.description?.contains("algorithm not supported by the key") == true)
        let verifiedByPrivate = SecKeyTestSupport.capture {
            SecKeyVerifySignature(privateKey, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, signature, $0)
        }
        #expect(verifiedByPrivate.result == false)
        #expect(verifiedByPrivate.code == Int(errSecParam))

        for algorithm in [
            SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, .eciesEncryptionStandardX963SHA256AESGCM,
            SecKeyAlgorithm(rawValue: "algid:sign:ECDSA:message-X962:MD5" as CFString),
        ] {
            let outcome = SecKeyTestSupport.capture {
                SecKeyCreateSignature(privateKey, algorithm, Self.message as CFData, $0)
            }
            #expect(outcome.result == nil)
            #expect(outcome.code == Int(errSecParam))
        }

        // A digest of the wrong length for the algorithm's hash, in both directions.
        let digest = Data(SHA256.hash(data: Self.message))
        for wrong in [digest.dropLast(), digest + Data([0])] {
            let signing = SecKeyTestSupport.capture {
                SecKeyCreateSignature(privateKey, .ecdsaSignatureDigestX962SHA256, wrong as CFData, $0)
            }
            #expect(signing.result == nil)
            #expect(signing.code == Int(errSecParam))
            #expect(signing.description?.contains("bad digest size") == true)
            let verifying = SecKeyTestSupport.capture {
                SecKeyVerifySignature(publicKey, .ecdsaSignatureDigestX962SHA256, wrong as CFData, signature, $0)
            }
            #expect(verifying.code == Int(errSecParam))
        }
    }

    @Test func supportedAlgorithmsFollowTheKeysHalf() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        #expect(SecKeyIsAlgorithmSupported(privateKey, .sign, .ecdsaSignatureMessageX962SHA256))
        #expect(!SecKeyIsAlgorithmSupported(privateKey, .verify, .ecdsaSignatureMessageX962SHA256))
        #expect(SecKeyIsAlgorithmSupported(publicKey, .verify, .ecdsaSignatureDigestRFC4754SHA512))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .sign, .ecdsaSignatureMessageX962SHA256))
        #expect(SecKeyIsAlgorithmSupported(publicKey, .encrypt, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM))
        #expect(SecKeyIsAlgorithmSupported(privateKey, .decrypt, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM))
        #expect(!SecKeyIsAlgorithmSupported(privateKey, .encrypt, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM))
        #expect(SecKeyIsAlgorithmSupported(privateKey, .keyExchange, .ecdhKeyExchangeStandardX963SHA256))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .keyExchange, .ecdhKeyExchangeStandard))
        #expect(!SecKeyIsAlgorithmSupported(privateKey, .sign, .rsaSignatureMessagePSSSHA256))
        #expect(!SecKeyIsAlgorithmSupported(privateKey, .decrypt, .ecdsaSignatureMessageX962SHA256))
        #expect(
            SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256.rawValue as String == "algid:sign:ECDSA:message-X962:SHA256"
        )
        #expect(
            SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM.rawValue as String
                == "algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV"
        )
    }
}
