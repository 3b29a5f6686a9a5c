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
import KeychainTesting
import Testing

/// Identities: a certificate and the private key of its public key, stored as their two items and
/// found as a pair (Apple's si-42-identity: add by reference, find by the certificate's label,
/// duplicate only when both halves exist, delete).
@Suite struct SecIdentityTests {
    /// A private key and a self-signed certificate of its public key.
    static func makeIdentity(_ name: String) throws -> SecIdentity {
        let signingKey = P256.Signing.PrivateKey()
        let (der, _) = try CertificateItemTests.makeCertificate(
            commonName: name,
            serial: Array(name.utf8.prefix(8)),
            key: signingKey
        )
        let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
        let privateKey = try #require(
            SecKeyCreateWithData(
                signingKey.x963Representation as CFData,
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
                    as CFDictionary,
                nil
            )
        )
        return try #require(SecIdentityCreate(nil, certificate, privateKey))
    }

    @Test func anIdentityIsAddedAsItsTwoItemsAndFoundAsAPair() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let identity = try Self.makeIdentity("Identity One")
            #expect(SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil) == errSecDuplicateItem)
            #expect(
                SecItemCopyMatching([kSecClass as String: kSecClassCertificate] as CFDictionary, nil) == errSecSuccess
            )
            #expect(SecItemCopyMatching([kSecClass as String: kSecClassKey] as CFDictionary, nil) == errSecSuccess)

            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "Identity One",
                kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let found = try #require(result as? SecIdentity)
            #expect(found == identity)
            #expect(CFGetTypeID(found) == SecIdentityGetTypeID())
            var copiedCertificate: SecCertificate?
            var copiedKey: SecKey?
            #expect(SecIdentityCopyCertificate(found, &copiedCertificate) == errSecSuccess)
            #expect(SecIdentityCopyPrivateKey(found, &copiedKey) == errSecSuccess)
            let certificate = try #require(copiedCertificate)
            let key = try #require(copiedKey)
            var summary: CFString?
            #expect(
                SecCertificateCopyCommonName(certificate, &summary) == errSecSuccess
                    && summary as String? == "Identity One"
            )
            // The private key signs what the certificate's key verifies.
            let message = Data("signed by the identity".utf8) as CFData
            let signature = try #require(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil))
            let certificateKey = try #require(SecCertificateCopyKey(certificate))
            #expect(SecKeyVerifySignature(certificateKey, .ecdsaSignatureMessageX962SHA256, message, signature, nil))

            // Attributes: the key's and the certificate's (which win), and the certificate's DER.
            let attributes: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(attributes as CFDictionary, &result) == errSecSuccess)
            let dictionary = try #require(result as? [String: Any])
            #expect(dictionary[kSecAttrLabel as String] as? String == "Identity One")
            #expect(dictionary["certdata"] as? Data == SecCertificateCopyData(certificate) as Data)
            #expect(dictionary[kSecAttrKeyClass as String] as? Int == 1)

            // An identity whose certificate label does not match is not found; nor one without its key.
            #expect(
                SecItemCopyMatching(
                    [kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "Other"] as CFDictionary,
                    nil
                ) == errSecItemNotFound
            )
            var made: SecIdentity?
            #expect(SecIdentityCreateWithCertificate(nil, certificate, &made) == errSecSuccess)
            #expect(made == identity)
        }
    }

    @Test func aCertificateWithoutItsKeyIsNoIdentityAndDeletingRemovesBoth() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let identity = try Self.makeIdentity("Pair")
            let lonely = try Self.makeIdentity("Lonely")
            var copied: SecCertificate?
            SecIdentityCopyCertificate(lonely, &copied)
            let lonelyCertificate = try #require(copied)
            #expect(SecItemAdd([kSecValueRef as String: lonelyCertificate] as CFDictionary, nil) == errSecSuccess)
            var found: SecIdentity?
            #expect(SecIdentityCreateWithCertificate(nil, lonelyCertificate, &found) == errSecItemNotFound)
            #expect(
                SecItemCopyMatching([kSecClass as String: kSecClassIdentity] as CFDictionary, nil) == errSecItemNotFound
            )

            #expect(SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil) == errSecSuccess)
            var all: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &all) == errSecSuccess)
            #expect((all as? [SecIdentity]) == [identity])

            // A persistent reference names the identity, and finds it again.
            var persistent: CFTypeRef?
            #expect(
                SecItemCopyMatching(
                    [kSecClass as String: kSecClassIdentity, kSecReturnPersistentRef as String: true] as CFDictionary,
                    &persistent
                ) == errSecSuccess
            )
            let reference = try #require(persistent as? Data)
            #expect(reference.prefix(4) == Data("idnt".utf8))
            var again: CFTypeRef?
            #expect(
                SecItemCopyMatching(
                    [
                        kSecValuePersistentRef as String: reference, kSecReturnRef as String: true,
                        kSecClass as String: kSecClassIdentity,
                    ] as CFDictionary,
                    &again
                ) == errSecSuccess
            )
            #expect(again as? SecIdentity == identity)

            // Deleting the identity removes its certificate and its key, and leaves the other certificate.
            #expect(SecItemDelete([kSecClass as String: kSecClassIdentity] as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching([kSecClass as String: kSecClassKey] as CFDictionary, nil) == errSecItemNotFound)
            var certificates: CFTypeRef?
            let remaining: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(remaining as CFDictionary, &certificates) == errSecSuccess)
            #expect((certificates as? [SecCertificate]) == [lonelyCertificate])
            #expect(SecItemDelete([kSecClass as String: kSecClassIdentity] as CFDictionary) == errSecItemNotFound)
        }
    }

    @Test func identitiesOfOtherKeysAreRefused() throws {
        let identity = try Self.makeIdentity("Mine")
        let other = try Self.makeIdentity("Theirs")
        var copiedCertificate: SecCertificate?
        var copiedKey: SecKey?
        SecIdentityCopyCertificate(identity, &copiedCertificate)
        SecIdentityCopyPrivateKey(other, &copiedKey)
        let certificate = try #require(copiedCertificate)
        let otherKey = try #require(copiedKey)
        #expect(SecIdentityCreate(nil, certificate, otherKey) == nil)
        let publicKey = try #require(SecKeyCopyPublicKey(otherKey))
        #expect(SecIdentityCreate(nil, certificate, publicKey) == nil)
    }
}
