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

/// `SecCertificate`: made from DER only when the bytes are one certificate, and the certificate
/// item's names normalized as Apple's keychain stores them.
@Suite struct SecCertificateTests {
    @Test func createdFromDERGivesTheSameBytesBack() throws {
        let (der, _) = try CertificateItemTests.makeCertificate(commonName: "Round Trip", serial: [0x42])
        let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
        #expect(SecCertificateCopyData(certificate) as Data == der)
        #expect(SecCertificateCreateWithData(kCFAllocatorDefault, der as CFData) == certificate)
    }

    @Test func bytesThatAreNotOneCertificateMakeNone() throws {
        let (der, _) = try CertificateItemTests.makeCertificate(commonName: "Damaged", serial: [0x07])
        var trailing = der
        trailing.append(0)
        let refused: [Data] = [
            Data(),
            Data("-----BEGIN CERTIFICATE-----".utf8),
            der.prefix(der.count - 1),
            trailing,
            Data([0x30, 0x03, 0x02, 0x01, 0x01]),
            Data([0x30, 0x80, 0x00, 0x00]),
        ]
        for bytes in refused {
            #expect(SecCertificateCreateWithData(nil, bytes as CFData) == nil)
        }
    }

    @Test func printableStringsInNamesAreNormalizedInTheIssuerAttribute() throws {
        let key = P256.Signing.PrivateKey()
        func name(organization: String) throws -> DistinguishedName {
            try DistinguishedName([
                RelativeDistinguishedName.Attribute(type: .RDNAttributeType.organizationName, printableString: organization),
                RelativeDistinguishedName.Attribute(type: .RDNAttributeType.commonName, utf8String: "mixed Case  kept"),
            ])
        }
        let written = try name(organization: "  swift   keychain tests ")
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(bytes: [0x11]),
            publicKey: .init(key.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 1_700_000_000),
            notValidAfter: Date(timeIntervalSince1970: 1_900_000_000),
            issuer: written,
            subject: written,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: Certificate.Extensions(),
            issuerPrivateKey: .init(key)
        )
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        let der = Data(serializer.serializedBytes)

        var expectedSerializer = DER.Serializer()
        try expectedSerializer.serialize(try name(organization: "SWIFT KEYCHAIN TESTS"))
        let expectedName = expectedSerializer.serializedBytes
        let expected = Data(expectedName.suffix(Int(expectedName[1])))

        let keychain = try TemporaryKeychain()
        try keychain.run {
            let add: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecValueData as String: der]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            let query: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecReturnAttributes as String: true]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            #expect(attributes[kSecAttrIssuer as String] as? Data == expected)
            #expect(attributes[kSecAttrSubject as String] as? Data == expected)
            #expect(attributes[kSecAttrLabel as String] as? String == "mixed Case  kept")
            #expect(attributes[kSecAttrCertificateType as String] as? Int == 3)
            #expect(attributes[kSecAttrSubjectKeyID as String] == nil)
        }
    }
}
