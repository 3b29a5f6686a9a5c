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
import SwiftASN1
import Testing
import X509

/// What `SecCertificate` reads from a certificate — summary, common name, email addresses, serial
/// number, normalized names, public key — checked on Apple's own test certificates against what
/// Apple's tests assert (or `SecCertificate.c` computes), and on certificates made here.
@Suite struct SecCertificateContentsTests {
    struct Vectors: Decodable {
        struct Entry: Decodable {
            var name: String
            var der: String
            var summary: String?
            var commonName: String?
            var emails: [String]?
            var serial: String?
        }
        var certificates: [Entry]
    }

    static func appleCertificates() throws -> [Vectors.Entry] {
        let url = try #require(
            Bundle.module.url(forResource: "seccertificate-apple", withExtension: "json", subdirectory: "Vectors")
        )
        return try JSONDecoder().decode(Vectors.self, from: Data(contentsOf: url)).certificates
    }

    @Test func applesCertificatesReadAsAppleReadsThem() throws {
        for entry in try Self.appleCertificates() {
            let der = try #require(Data(base64Encoded: entry.der))
            let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData), "\(entry.name)")
            #expect(SecCertificateCopySubjectSummary(certificate) as String? == entry.summary, "\(entry.name)")

            var commonName: CFString? = "untouched" as CFString
            let status = SecCertificateCopyCommonName(certificate, &commonName)
            if let expected = entry.commonName {
                #expect(status == errSecSuccess)
                #expect(commonName as String? == expected, "\(entry.name)")
            } else {
                #expect(status == errSecInternal, "\(entry.name)")
                #expect(commonName as String? == "untouched")
            }
            if let emails = entry.emails {
                var addresses: CFArray?
                #expect(SecCertificateCopyEmailAddresses(certificate, &addresses) == errSecSuccess)
                #expect(addresses as? [String] == emails, "\(entry.name)")
            }
            if let serial = entry.serial {
                let data = SecCertificateCopySerialNumberData(certificate, nil) as Data?
                #expect(data.map { $0.map { String(format: "%02x", $0) }.joined() } == serial, "\(entry.name)")
            }
            // Apple's test certificates carry RSA keys: the key is the PKCS #1 key of the certificate.
            let key = try #require(SecCertificateCopyKey(certificate), "\(entry.name)")
            let attributes = try #require(SecKeyCopyAttributes(key) as? [String: Any])
            #expect(attributes[kSecAttrKeyType as String] as? String == kSecAttrKeyTypeRSA as String)
            #expect(attributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPublic as String)
        }
    }

    @Test func bytesAfterTheCertificateAreIgnored() throws {
        let entry = try #require(try Self.appleCertificates().first)
        let der = try #require(Data(base64Encoded: entry.der))
        let certificate = try #require(SecCertificateCreateWithData(nil, (der + Data([0, 1, 2])) as CFData))
        #expect(SecCertificateCopyData(certificate) as Data == der)
        #expect(SecCertificateCreateWithData(nil, der.dropLast() as CFData) == nil)
    }

    @Test func normalizedNamesAreApplesSequences() throws {
        // si-68-secmatchissuer's name: only the PrintableString common name changes (upper case).
        let name = SecKeyTestSupport.data(
            hex:
                "304f310b300906035504061302435a31273025060355040a0c1e4d696e69737465727374766f20737072617665646c6e6f73746920c48c52311730150603550403130e4d537020526f6f74204341203031"
        )
        let normalized = SecKeyTestSupport.data(
            hex:
                "304f310b300906035504061302435a31273025060355040a0c1e4d696e69737465727374766f20737072617665646c6e6f73746920c48c52311730150603550403130e4d535020524f4f54204341203031"
        )
        let der = try Self.certificate(issuerAndSubject: try DER.parse(Array(name)))
        let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
        #expect(SecCertificateCopyNormalizedIssuerSequence(certificate) as Data? == normalized)
        #expect(SecCertificateCopyNormalizedSubjectSequence(certificate) as Data? == normalized)
    }

    @Test func anECCertificateGivesItsPublicKey() throws {
        let key = P256.Signing.PrivateKey()
        let (der, _) = try CertificateItemTests.makeCertificate(commonName: "EC", serial: [9], key: key)
        let certificate = try #require(SecCertificateCreateWithData(nil, der as CFData))
        let publicKey = try #require(SecCertificateCopyKey(certificate))
        #expect(SecKeyCopyExternalRepresentation(publicKey, nil) as Data? == key.publicKey.x963Representation)
        let signature = try key.signature(for: Data("signed".utf8))
        #expect(
            SecKeyVerifySignature(
                publicKey,
                .ecdsaSignatureMessageX962SHA256,
                Data("signed".utf8) as CFData,
                signature.derRepresentation as CFData,
                nil
            )
        )
    }

    /// A self-signed certificate whose issuer and subject are `name`, as raw DER.
    static func certificate(issuerAndSubject name: ASN1Node) throws -> Data {
        let (template, _) = try CertificateItemTests.makeCertificate(commonName: "template", serial: [1])
        let parsed = try DER.parse(Array(template))
        guard case .constructed(let parts) = parsed.content, case .constructed(let fields) = Array(parts)[0].content
        else {
            throw ASN1Error.invalidASN1Object(reason: "not a certificate")
        }
        var serializer = DER.Serializer()
        serializer.appendConstructedNode(identifier: .sequence) { outer in
            outer.appendConstructedNode(identifier: .sequence) { tbs in
                for (index, field) in Array(fields).enumerated() {
                    // version, serial, signature algorithm, issuer, validity, subject, …
                    tbs.serialize(index == 3 || index == 5 ? name : field)
                }
            }
            for part in Array(parts).dropFirst() { outer.serialize(part) }
        }
        return Data(serializer.serializedBytes)
    }
}
