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
import KeychainTestSupport
import Testing
import _CryptoExtras

/// RSA through `SecKey`: PKCS #1 in and out, Apple's attributes, PKCS #1 v1.5 and PSS signatures and
/// OAEP and PKCS #1 encryption — checked against swift-crypto and against OpenSSL's command line on
/// the same key.
@Suite struct SecKeyRSATests {
    static let message = Data("an RSA message".utf8)

    static func makeKey(bits: Int = 2048) throws -> SecKey {
        var error: Unmanaged<CFError>?
        let key = SecKeyCreateRandomKey(
            [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits] as CFDictionary,
            &error
        )
        #expect(error == nil)
        return try #require(key)
    }

    @Test func aKeyExportsAsPKCS1AndComesBackWithApplesAttributes() throws {
        let privateKey = try Self.makeKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let privateData = try SecKeyTestSupport.externalRepresentation(privateKey)
        let publicData = try SecKeyTestSupport.externalRepresentation(publicKey)
        #expect(SecKeyGetBlockSize(privateKey) == 256)
        let swiftKey = try _RSA.Signing.PrivateKey(derRepresentation: privateData)
        #expect(swiftKey.publicKey.pkcs1DERRepresentation == publicData)

        let rsa = kSecAttrKeyTypeRSA
        #expect(
            SecKeyCreateWithData(
                privateData as CFData,
                [kSecAttrKeyType: rsa, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary,
                nil
            ) == privateKey
        )
        #expect(
            SecKeyCreateWithData(
                publicData as CFData,
                [kSecAttrKeyType: rsa, kSecAttrKeyClass: kSecAttrKeyClassPublic] as CFDictionary,
                nil
            ) == publicKey
        )
        // A SubjectPublicKeyInfo is read as its key too.
        let info = swiftKey.publicKey.derRepresentation
        #expect(
            SecKeyCreateWithData(
                info as CFData,
                [kSecAttrKeyType: rsa, kSecAttrKeyClass: kSecAttrKeyClassPublic] as CFDictionary,
                nil
            ) == publicKey
        )
        let damaged = SecKeyTestSupport.capture {
            SecKeyCreateWithData(
                privateData.dropLast(3) as CFData,
                [kSecAttrKeyType: rsa, kSecAttrKeyClass: kSecAttrKeyClassPrivate] as CFDictionary,
                $0
            )
        }
        #expect(damaged.result == nil && damaged.code == Int(errSecParam))

        let attributes = try #require(SecKeyCopyAttributes(publicKey) as? [String: Any])
        #expect(attributes[kSecAttrKeyType as String] as? String == "42")
        #expect(attributes[kSecAttrKeySizeInBits as String] as? Int == 2048)
        #expect(attributes[kSecAttrApplicationLabel as String] as? Data == Data(Insecure.SHA1.hash(data: publicData)))
        #expect(attributes[kSecAttrCanDecrypt as String] as? Bool == true)  // Apple's override for RSA public keys
        #expect(attributes[kSecAttrCanDerive as String] as? Bool == false)
        #expect(!privateKey.description.contains(privateData.base64EncodedString().prefix(40)))
    }

    @Test(arguments: [
        (SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA256, _RSA.Signing.Padding.insecurePKCS1v1_5),
        (.rsaSignatureMessagePSSSHA256, .PSS),
    ])
    func signaturesInteroperateWithSwiftCrypto(algorithm: SecKeyAlgorithm, padding: _RSA.Signing.Padding) throws {
        let privateKey = try Self.makeKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let swiftKey = try _RSA.Signing.PrivateKey(
            derRepresentation: try SecKeyTestSupport.externalRepresentation(privateKey)
        )
        let signature = try #require(SecKeyCreateSignature(privateKey, algorithm, Self.message as CFData, nil) as Data?)
        #expect(signature.count == 256)
        #expect(
            swiftKey.publicKey.isValidSignature(
                .init(rawRepresentation: signature),
                for: Self.message,
                padding: padding
            )
        )
        let theirs = try swiftKey.signature(for: Self.message, padding: padding).rawRepresentation
        #expect(SecKeyVerifySignature(publicKey, algorithm, Self.message as CFData, theirs as CFData, nil))
        // An RSA private key verifies too, as Apple's does.
        #expect(SecKeyVerifySignature(privateKey, algorithm, Self.message as CFData, theirs as CFData, nil))
        var changed = signature
        changed[10] ^= 1
        let refused = SecKeyTestSupport.capture {
            SecKeyVerifySignature(publicKey, algorithm, Self.message as CFData, changed as CFData, $0)
        }
        #expect(refused.result == false && refused.code == Int(errSecVerifyFailed))
    }

    @Test(arguments: [
        (
            SecKeyAlgorithm.rsaSignatureDigestPKCS1v15SHA1, SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA1,
            Data(Insecure.SHA1.hash(data: message))
        ),
        (.rsaSignatureDigestPKCS1v15SHA256, .rsaSignatureMessagePKCS1v15SHA256, Data(SHA256.hash(data: message))),
        (.rsaSignatureDigestPKCS1v15SHA384, .rsaSignatureMessagePKCS1v15SHA384, Data(SHA384.hash(data: message))),
        (.rsaSignatureDigestPSSSHA512, .rsaSignatureMessagePSSSHA512, Data(SHA512.hash(data: message))),
    ])
    func aDigestSignatureIsTheMessageSignature(
        digestAlgorithm: SecKeyAlgorithm,
        messageAlgorithm: SecKeyAlgorithm,
        digest: Data
    ) throws {
        let privateKey = try Self.makeKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let signature = try #require(SecKeyCreateSignature(privateKey, digestAlgorithm, digest as CFData, nil))
        #expect(SecKeyVerifySignature(publicKey, messageAlgorithm, Self.message as CFData, signature, nil))
        #expect(SecKeyVerifySignature(publicKey, digestAlgorithm, digest as CFData, signature, nil))
        let wrongLength = SecKeyTestSupport.capture {
            SecKeyCreateSignature(privateKey, digestAlgorithm, digest.dropLast() as CFData, $0)
        }
        #expect(wrongLength.result == nil && wrongLength.code == Int(errSecParam))
    }

    @Test(arguments: [SecKeyAlgorithm.rsaEncryptionOAEPSHA1, .rsaEncryptionOAEPSHA256, .rsaEncryptionPKCS1])
    func encryptionRoundTripsAndInteroperates(algorithm: SecKeyAlgorithm) throws {
        let privateKey = try Self.makeKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let ciphertext = try #require(
            SecKeyCreateEncryptedData(publicKey, algorithm, Self.message as CFData, nil) as Data?
        )
        #expect(ciphertext.count == 256)
        #expect(SecKeyCreateDecryptedData(privateKey, algorithm, ciphertext as CFData, nil) as Data? == Self.message)
        let swiftKey = try _RSA.Encryption.PrivateKey(
            derRepresentation: try SecKeyTestSupport.externalRepresentation(privateKey)
        )
        let padding: _RSA.Encryption.Padding =
            algorithm == .rsaEncryptionOAEPSHA1
            ? .PKCS1_OAEP : algorithm == .rsaEncryptionOAEPSHA256 ? .PKCS1_OAEP_SHA256 : ._WEAK_AND_INSECURE_PKCS_V1_5
        #expect(try swiftKey.decrypt(ciphertext, padding: padding) == Self.message)
        // Too long for the padding: errSecParam.
        let tooLong = SecKeyTestSupport.capture {
            SecKeyCreateEncryptedData(publicKey, algorithm, Data(count: 300) as CFData, $0)
        }
        #expect(tooLong.result == nil && tooLong.code == Int(errSecParam))
    }

    @Test func whatThisPlatformCannotDoIsRefused() throws {
        let privateKey = try Self.makeKey(bits: 1024)
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        for algorithm in [
            SecKeyAlgorithm.rsaSignatureMessagePKCS1v15SHA224, .rsaSignatureRaw, .rsaSignatureDigestPKCS1v15Raw,
            .ecdsaSignatureMessageX962SHA256,
        ] {
            let outcome = SecKeyTestSupport.capture {
                SecKeyCreateSignature(privateKey, algorithm, Self.message as CFData, $0)
            }
            #expect(outcome.result == nil && outcome.code == Int(errSecParam), "\(algorithm.rawValue)")
            #expect(!SecKeyIsAlgorithmSupported(privateKey, .sign, algorithm))
        }
        #expect(SecKeyIsAlgorithmSupported(privateKey, .sign, .rsaSignatureMessagePSSSHA256))
        #expect(SecKeyIsAlgorithmSupported(privateKey, .verify, .rsaSignatureMessagePSSSHA256))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .sign, .rsaSignatureMessagePSSSHA256))
        #expect(SecKeyIsAlgorithmSupported(publicKey, .encrypt, .rsaEncryptionOAEPSHA256))
        #expect(!SecKeyIsAlgorithmSupported(publicKey, .encrypt, .rsaEncryptionOAEPSHA512))
        for (bits, code) in [(512, errSecUnimplemented), (511, errSecParam), (9000, errSecParam)] {
            let outcome = SecKeyTestSupport.capture {
                SecKeyCreateRandomKey(
                    [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: bits]
                        as CFDictionary,
                    $0
                )
            }
            #expect(outcome.result == nil && outcome.code == Int(code), "\(bits)")
        }
    }

    @Test func theLegacyRawCallsSignDigestsWithPKCS1() throws {
        var publicKey: SecKey?
        var privateKey: SecKey?
        let parameters =
            [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048] as CFDictionary
        #expect(SecKeyGeneratePair(parameters, &publicKey, &privateKey) == errSecSuccess)
        let digest = [UInt8](SHA256.hash(data: Self.message))
        var signature = [UInt8](repeating: 0, count: 256)
        var length = signature.count
        #expect(
            SecKeyRawSign(try #require(privateKey), .PKCS1SHA256, digest, digest.count, &signature, &length)
                == errSecSuccess
        )
        #expect(length == 256)
        let key = try #require(publicKey)
        #expect(SecKeyRawVerify(key, .PKCS1SHA256, digest, digest.count, signature, length) == errSecSuccess)
        #expect(
            SecKeyVerifySignature(
                key,
                .rsaSignatureMessagePKCS1v15SHA256,
                Self.message as CFData,
                Data(signature) as CFData,
                nil
            )
        )
        #expect(SecKeyRawVerify(key, .PKCS1SHA1, digest, digest.count, signature, length) != errSecSuccess)
    }

    /// The same key in OpenSSL's hands: what it signs verifies here, what it encrypts decrypts here,
    /// and the other way round.
    @Test func openSSLAgreesOnTheSameKey() throws {
        let privateKey = try Self.makeKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rsa-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = { (name: String) in folder.appendingPathComponent(name) }
        try SecKeyTestSupport.externalRepresentation(privateKey).write(to: file("key.der"))
        try Self.message.write(to: file("message"))
        try Self.openssl(["pkey", "-inform", "DER", "-in", file("key.der").path, "-out", file("key.pem").path])
        try Self.openssl(["pkey", "-in", file("key.pem").path, "-pubout", "-out", file("public.pem").path])

        // OpenSSL signs (PKCS #1 v1.5, SHA-256) and encrypts (OAEP, SHA-1): this side verifies and decrypts.
        try Self.openssl([
            "dgst", "-sha256", "-sign", file("key.pem").path, "-out", file("openssl.sig").path, file("message").path,
        ])
        let theirSignature = try Data(contentsOf: file("openssl.sig"))
        #expect(
            SecKeyVerifySignature(
                publicKey,
                .rsaSignatureMessagePKCS1v15SHA256,
                Self.message as CFData,
                theirSignature as CFData,
                nil
            )
        )
        try Self.openssl([
            "pkeyutl", "-encrypt", "-pubin", "-inkey", file("public.pem").path, "-pkeyopt", "rsa_padding_mode:oaep",
            "-in", file("message").path, "-out", file("openssl.enc").path,
        ])
        let theirCiphertext = try Data(contentsOf: file("openssl.enc"))
        #expect(
            SecKeyCreateDecryptedData(privateKey, .rsaEncryptionOAEPSHA1, theirCiphertext as CFData, nil) as Data?
                == Self.message
        )

        // This side signs (PSS, SHA-256): OpenSSL verifies.
        let signature = try #require(
            SecKeyCreateSignature(privateKey, .rsaSignatureMessagePSSSHA256, Self.message as CFData, nil) as Data?
        )
        try signature.write(to: file("ours.sig"))
        let verified = try Self.openssl([
            "dgst", "-sha256", "-verify", file("public.pem").path, "-sigopt", "rsa_padding_mode:pss", "-sigopt",
            "rsa_pss_saltlen:32",
            "-signature", file("ours.sig").path, file("message").path,
        ])
        #expect(verified.contains("Verified OK"))
    }

    @discardableResult
    static func openssl(_ arguments: [String]) throws -> String {
        let result = try ProgramRun.run(URL(filePath: "/usr/bin/openssl"), arguments, input: nil)
        let text = result.stdout + result.stderr
        #expect(result.status == 0, "openssl \(arguments.first ?? ""): \(text)")
        return text
    }
}
