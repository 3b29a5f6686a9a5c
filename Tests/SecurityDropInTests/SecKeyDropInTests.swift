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

import Foundation
import KeychainTesting
import Security
import Testing

/// Key code as iOS apps write it — the shapes of EllipticCurveKeyPair and of Apple's "Using keys
/// for encryption" article — builds with `import Security` unchanged and runs.
@Suite struct SecKeyDropInTests {
    @Test func generateStoreFindSignVerifyEncryptDecrypt() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let tag = "com.example.keys.mykey".data(using: .utf8)!
            let attributes: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeySizeInBits as String: 256,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true,
                    kSecAttrApplicationTag as String: tag,
                ],
            ]
            var error: Unmanaged<CFError>?
            guard let privateKey = SecKeyCreateRandomKey(attributes as CFDictionary, &error) else {
                throw error!.takeRetainedValue() as any Error
            }
            guard let publicKey = SecKeyCopyPublicKey(privateKey) else {
                Issue.record("no public key")
                return
            }

            let getQuery: [String: Any] = [
                kSecClass as String: kSecClassKey,
                kSecAttrApplicationTag as String: tag,
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecReturnRef as String: true,
            ]
            var item: CFTypeRef?
            let status = SecItemCopyMatching(getQuery as CFDictionary, &item)
            #expect(status == errSecSuccess)
            let key = item as! SecKey
            #expect(CFGetTypeID(item) == SecKeyGetTypeID())

            let algorithm: SecKeyAlgorithm = .ecdsaSignatureMessageX962SHA256
            #expect(SecKeyIsAlgorithmSupported(key, .sign, algorithm))
            let data = "Hello, keys".data(using: .utf8)!
            guard let signature = SecKeyCreateSignature(key, algorithm, data as CFData, &error) as Data? else {
                throw error!.takeRetainedValue() as any Error
            }
            #expect(SecKeyVerifySignature(publicKey, algorithm, data as CFData, signature as CFData, &error))

            let encryption: SecKeyAlgorithm = .eciesEncryptionCofactorVariableIVX963SHA256AESGCM
            guard SecKeyIsAlgorithmSupported(publicKey, .encrypt, encryption),
                let cipherText = SecKeyCreateEncryptedData(publicKey, encryption, data as CFData, &error) as Data?
            else {
                throw error!.takeRetainedValue() as any Error
            }
            let clearText = SecKeyCreateDecryptedData(key, encryption, cipherText as CFData, &error) as Data?
            #expect(clearText == data)

            // The public key travels as X9.63 bytes and comes back as a key.
            let exported = SecKeyCopyExternalRepresentation(publicKey, &error)! as Data
            let imported = SecKeyCreateWithData(
                exported as CFData,
                [kSecAttrKeyType: kSecAttrKeyTypeEC, kSecAttrKeyClass: kSecAttrKeyClassPublic] as CFDictionary,
                &error
            )
            #expect(imported == publicKey)

            // A failure is a CFError whose code is the OSStatus.
            let failed = SecKeyCreateSignature(publicKey, algorithm, data as CFData, &error)
            #expect(failed == nil)
            let cfError = error!.takeRetainedValue()
            #expect(CFErrorGetCode(cfError) == Int(errSecParam))
            #expect((cfError as any Error as NSError).domain == NSOSStatusErrorDomain)

            #expect(
                SecItemDelete(
                    [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag] as CFDictionary
                ) == errSecSuccess
            )
        }
    }

    @Test func theLegacyCallsStillWork() throws {
        var publicKey: SecKey?
        var privateKey: SecKey?
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeEC, kSecAttrKeySizeInBits as String: 256,
        ]
        #expect(SecKeyGeneratePair(parameters as CFDictionary, &publicKey, &privateKey) == errSecSuccess)
        let digest = [UInt8](repeating: 7, count: 32)
        var signature = [UInt8](repeating: 0, count: 128)
        var signatureLength = signature.count
        let signed = SecKeyRawSign(privateKey!, .PKCS1, digest, digest.count, &signature, &signatureLength)
        #expect(signed == errSecSuccess)
        #expect(SecKeyRawVerify(publicKey!, .PKCS1, digest, digest.count, signature, signatureLength) == errSecSuccess)
        signature[signatureLength - 1] ^= 1
        #expect(
            SecKeyRawVerify(publicKey!, .PKCS1, digest, digest.count, signature, signatureLength) == errSecVerifyFailed
        )
        var small = [UInt8](repeating: 0, count: 8)
        var smallLength = small.count
        #expect(SecKeyRawSign(privateKey!, .PKCS1, digest, digest.count, &small, &smallLength) == errSecParam)
    }
}
