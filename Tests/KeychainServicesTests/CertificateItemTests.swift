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
import SwiftASN1
import Testing
import X509

/// Certificate items: added from DER, with attributes derived from the certificate.
@Suite struct CertificateItemTests {
    static func makeCertificate(
        commonName: String,
        serial: [UInt8],
        key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()
    ) throws -> (der: Data, certificate: Certificate) {
        let name = try DistinguishedName {
            CountryName("US")
            OrganizationName("swift keychain   tests")
            CommonName(commonName)
        }
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(bytes: serial),
            publicKey: .init(key.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 1_700_000_000),
            notValidAfter: Date(timeIntervalSince1970: 1_900_000_000),
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                SubjectKeyIdentifier(keyIdentifier: [1, 2, 3, 4, 5, 6, 7, 8])
            },
            issuerPrivateKey: .init(key)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return (Data(serializer.serializedBytes), certificate)
    }

    @Test func addingDERDerivesApplesAttributes() throws {
        let keychain = try TemporaryKeychain()
        let (der, certificate) = try Self.makeCertificate(commonName: "Test Leaf", serial: [0x01, 0x23, 0x45])
        try keychain.run {
            let add: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecValueData as String: der]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecDuplicateItem)

            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate,
                kSecAttrLabel as String: "Test Leaf",
                kSecReturnAttributes as String: true,
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            #expect(attributes[kSecValueData as String] as? Data == der)
            #expect(attributes[kSecAttrCertificateType as String] as? Int == 3)
            #expect(attributes[kSecAttrCertificateEncoding as String] as? Int == 3)
            #expect(attributes[kSecAttrSerialNumber as String] as? Data == Data([0x01, 0x23, 0x45]))
            #expect(attributes[kSecAttrSubjectKeyID as String] as? Data == Data([1, 2, 3, 4, 5, 6, 7, 8]))
            #expect(attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAlways as String)
            let publicKeyBits = Data(certificate.publicKey.subjectPublicKeyInfoBytes.suffix(65))
            #expect(
                attributes[kSecAttrPublicKeyHash as String] as? Data == Data(Insecure.SHA1.hash(data: publicKeyBits))
            )
            // The issuer is the content of the Name; only PrintableString values are normalized,
            // and swift-certificates writes these as UTF8String, so they come back unchanged.
            var nameSerializer = DER.Serializer()
            try nameSerializer.serialize(certificate.issuer)
            let name = nameSerializer.serializedBytes
            let issuer = try #require(attributes[kSecAttrIssuer as String] as? Data)
            #expect(issuer == Data(name.suffix(Int(name[1]))))
            #expect(attributes[kSecAttrSubject as String] as? Data == issuer)
        }
    }

    @Test func certificatesWithOtherSerialNumbersAreDistinct() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            for serial: UInt8 in 1...3 {
                let (der, _) = try Self.makeCertificate(commonName: "Same Name", serial: [serial])
                #expect(
                    SecItemAdd(
                        [kSecClass as String: kSecClassCertificate, kSecValueData as String: der] as CFDictionary,
                        nil
                    ) == errSecSuccess
                )
            }
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate,
                kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [Data])?.count == 3)
        }
    }

    /// A certificate comes back as a `SecCertificate` from `kSecReturnRef`, and can be added and
    /// found by reference (`kSecValueRef`), as swift-certificates' `SecCertificate` helpers expect.
    @Test func certificatesGoInAndComeOutAsReferences() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let (der, _) = try Self.makeCertificate(commonName: "Ref", serial: [7])
            let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
            var result: CFTypeRef?
            let add: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecValueData as String: der, kSecReturnRef as String: true,
            ]
            #expect(SecItemAdd(add as CFDictionary, &result) == errSecSuccess)
            #expect(result as? SecCertificate == certificate)
            #expect(SecItemAdd([kSecValueRef as String: certificate] as CFDictionary, nil) == errSecDuplicateItem)

            let (otherDER, _) = try Self.makeCertificate(commonName: "Other", serial: [8])
            let other = try #require(SecCertificateCreateWithData(nil, otherDER as CFData))
            #expect(SecItemAdd([kSecValueRef as String: other] as CFDictionary, nil) == errSecSuccess)
            let byReference: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecValueRef as String: other,
                kSecReturnRef as String: true, kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(byReference as CFDictionary, &result) == errSecSuccess)
            let found = try #require(result as? [String: Any])
            #expect(found[kSecValueRef as String] as? SecCertificate == other)
            #expect(found[kSecAttrLabel as String] as? String == "Other")
            #expect(SecItemDelete([kSecValueRef as String: other] as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching([kSecValueRef as String: other] as CFDictionary, nil) == errSecItemNotFound)
            #expect(SecItemCopyMatching([kSecValueRef as String: certificate] as CFDictionary, nil) == errSecSuccess)
            // A reference of another class than the one named is refused.
            #expect(
                SecItemCopyMatching(
                    [kSecClass as String: kSecClassKey, kSecValueRef as String: certificate] as CFDictionary,
                    nil
                ) == errSecParam
            )
        }
    }

    /// An identity is added as a `SecIdentity` (its certificate and key); an identity "added" from
    /// data is refused, and nothing is stored.
    @Test func anIdentityFromDataIsRefusedAndStoresNothing() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let (der, _) = try Self.makeCertificate(commonName: "Ref", serial: [7])
            var result: CFTypeRef?
            let add: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecValueData as String: der, kSecReturnRef as String: true,
            ]
            #expect(SecItemAdd(add as CFDictionary, &result) == errSecParam)
            #expect(result == nil)
            #expect(
                SecItemCopyMatching([kSecClass as String: kSecClassCertificate] as CFDictionary, nil)
                    == errSecItemNotFound
            )
            #expect(
                SecItemCopyMatching([kSecClass as String: kSecClassIdentity] as CFDictionary, nil) == errSecItemNotFound
            )
        }
    }

    /// Apple's si-12-item-stress and sec_acl_stress add certificate items from attributes alone:
    /// stored with the attributes given, with no data, and unique by their primary key
    /// (type, issuer, serial number).
    @Test func aCertificateFromAttributesOnlyKeepsThem() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let add: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecAttrLabel as String: "from attributes",
                kSecAttrIssuer as String: Data("issuer".utf8), kSecAttrSerialNumber as String: Data([1, 2]),
                kSecAttrSubject as String: Data("subject".utf8), kSecAttrCertificateType as String: 3,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecDuplicateItem)
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecAttrSerialNumber as String: Data([1, 2]),
                kSecReturnAttributes as String: true, kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let found = try #require(result as? [String: Any])
            #expect(found[kSecAttrLabel as String] as? String == "from attributes")
            #expect(found[kSecAttrSubject as String] as? Data == Data("subject".utf8))
            #expect(found[kSecAttrIssuer as String] as? Data == Data("issuer".utf8))
            #expect(found[kSecValueData as String] == nil)
        }
    }

    @Test(arguments: [Data(), Data("not a certificate".utf8), Data([0x30, 0x03, 0x02, 0x01, 0x01])])
    func nonCertificateIsRefused(data: Data) throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            let add: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecValueData as String: data]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecParam)
        }
    }
}
