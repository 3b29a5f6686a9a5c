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
        let refused: [Data] = [
            Data(),
            Data("-----BEGIN CERTIFICATE-----".utf8),
            der.prefix(der.count - 1),
            Data([0x30, 0x03, 0x02, 0x01, 0x01]),
            Data([0x30, 0x80, 0x00, 0x00]),
        ]
        for bytes in refused {
            #expect(SecCertificateCreateWithData(nil, bytes as CFData) == nil)
        }
    }

    /// `der` with its version field's INTEGER content replaced (lengths re-encoded).
    static func replacingVersion(of der: Data, with content: [UInt8]) throws -> Data {
        let certificate = try DER.parse(Array(der))
        guard case .constructed(let parts) = certificate.content,
            case .constructed(let fields) = Array(parts)[0].content
        else {
            throw ASN1Error.invalidASN1Object(reason: "not a certificate")
        }
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .sequence) { outer in
            outer.appendConstructedNode(identifier: .sequence) { tbs in
                for (index, field) in fields.enumerated() {
                    guard index == 0 else {
                        tbs.serialize(field)
                        continue
                    }
                    tbs.appendConstructedNode(identifier: ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific))
                    { version in
                        version.appendPrimitiveNode(identifier: .integer) { $0.append(contentsOf: content) }
                    }
                }
            }
            for part in Array(parts).dropFirst() {
                outer.serialize(part)
            }
        }
        return Data(serializer.serializedBytes)
    }

    @Test func hostileVersionFieldsAreRefusedWithoutACrash() throws {
        let (der, _) = try CertificateItemTests.makeCertificate(commonName: "Versions", serial: [0x09])
        // The rebuilding itself keeps a v3 certificate intact.
        #expect(try Self.replacingVersion(of: der, with: [0x02]) == der)
        let keychain = try TemporaryKeychain()
        try keychain.run {
            for content: [UInt8] in [
                [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0x03], [0xFF], [0x00, 0x02], [],
            ] {
                let hostile = try Self.replacingVersion(of: der, with: content)
                #expect(SecCertificateCreateWithData(nil, hostile as CFData) == nil)
                let add: [String: Any] = [kSecClass as String: kSecClassCertificate, kSecValueData as String: hostile]
                #expect(SecItemAdd(add as CFDictionary, nil) == errSecParam)
            }
        }
    }

    @Test func printableStringsInNamesAreNormalizedInTheIssuerAttribute() throws {
        let key = P256.Signing.PrivateKey()
        func name(organization: String) throws -> DistinguishedName {
            try DistinguishedName([
                RelativeDistinguishedName.Attribute(
                    type: .RDNAttributeType.organizationName,
                    printableString: organization
                ),
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
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecReturnAttributes as String: true,
            ]
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
