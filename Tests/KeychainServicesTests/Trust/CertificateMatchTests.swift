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

/// Certificate searches with `kSecMatch…` options, as Apple's securityd filters them
/// (`SecItemServer.c` `SecServerMatch_Item`), with the certificates and expectations of Apple's
/// `secd-83-item-match-policy.m`, `-trusted.m` and `-valid-on-date.m` re-made here: six self-signed
/// certificates valid 2016-04-07 to 2017-04-07, two for S/MIME, two SSL clients, two SSL servers.
@Suite struct CertificateMatchTests {
    static let validDate = Date(timeIntervalSince1970: 1_460_044_800)  // 2016-04-07 16:00 GMT
    static let dateBefore = Date(timeIntervalSince1970: 1_459_958_400)  // 2016-04-06 16:00 GMT
    static let dateAfter = Date(timeIntervalSince1970: 1_491_667_200)  // 2017-04-08 16:00 GMT

    /// One of secd-83's certificates: self-signed, digital signature only, one extended usage.
    static func certificate(
        _ commonName: String,
        number: Int,
        usage: ExtendedKeyUsage.Usage,
        dnsName: String? = nil,
        emailInAlternativeNames: Bool = false
    ) throws -> Data {
        let key = P256.Signing.PrivateKey()
        let email = "testcert\(number)@apple.com"
        let name = try DistinguishedName {
            CommonName(commonName)
            CountryName("CZ")
            EmailAddress(email)
        }
        let notBefore = Date(timeIntervalSince1970: 1_460_010_000 + Double(number) * 60)  // 2016-04-07 06:2x GMT
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(bytes: [UInt8(number)]),
            publicKey: .init(key.publicKey),
            notValidBefore: notBefore,
            notValidAfter: notBefore + 365 * 86_400,
            issuer: name,
            subject: name,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(KeyUsage(digitalSignature: true))
                Critical(try ExtendedKeyUsage([usage]))
                if let dnsName { SubjectAlternativeNames([.dnsName(dnsName)]) }
                if emailInAlternativeNames { SubjectAlternativeNames([.rfc822Name(email)]) }
            },
            issuerPrivateKey: .init(key)
        )
        return try TestAuthority.Issued(certificate: certificate, key: key).der
    }

    /// secd-83-item-match-policy.m 29–59 `addTestCertificates`: the six certificates, added by reference.
    static func addTestCertificates() throws {
        let certificates = [
            try certificate("Test SMIME1", number: 1, usage: .emailProtection, emailInAlternativeNames: true),
            try certificate("Test SMIME2", number: 2, usage: .emailProtection, emailInAlternativeNames: true),
            try certificate("Test SSL client1", number: 3, usage: .clientAuth),
            try certificate("Test SSL client2", number: 4, usage: .clientAuth),
            try certificate("secdtest1.apple.com", number: 5, usage: .serverAuth, dnsName: "secdtest1.apple.com"),
            try certificate("secdtest2.apple.com", number: 6, usage: .serverAuth, dnsName: "secdtest2.apple.com"),
        ]
        for der in certificates {
            let reference = try #require(SecCertificateCreateWithData(nil, der as CFData))
            #expect(SecItemAdd([kSecValueRef as String: reference] as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// The four return keys every secd-83 query is run with.
    static var returnKeys: [CFString] {
        [kSecReturnAttributes, kSecReturnData, kSecReturnRef, kSecReturnPersistentRef]
    }

    /// Runs a certificate search with `options` for each return key: the status and number of results.
    static func search(_ options: [String: Any], returning key: CFString) -> (status: OSStatus, count: Int) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassCertificate,
            kSecMatchLimit as String: kSecMatchLimitAll,
            key as String: true,
        ]
        query.merge(options) { $1 }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, (result as? [Any])?.count ?? 0)
    }

    static func policy(_ identifier: CFString, _ properties: [String: Any] = [:]) throws -> SecPolicy {
        try #require(SecPolicyCreateWithProperties(identifier, properties as CFDictionary))
    }

    @Test func secd83ItemMatchPolicy_PoliciesKeepTheCertificatesFitForThem() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            try Self.addTestCertificates()
            let smime = try Self.policy(kSecPolicyAppleSMIME)
            let smimeNamed = try Self.policy(kSecPolicyAppleSMIME, [kSecPolicyName as String: "testcert1@apple.com"])
            let ssl = try Self.policy(kSecPolicyAppleSSL)
            let sslNamed = try Self.policy(kSecPolicyAppleSSL, [kSecPolicyName as String: "secdtest1.apple.com"])
            let client = try Self.policy(kSecPolicyAppleSSL, [kSecPolicyClient as String: true])
            for key in Self.returnKeys {
                #expect(Self.search([:], returning: key) == (errSecSuccess, 6))  // 70–74
                let cases: [(SecPolicy, Int)] = [(smime, 2), (smimeNamed, 1), (ssl, 2), (sslNamed, 1), (client, 2)]
                for (policy, count) in cases {
                    let valid: [String: Any] = [
                        kSecMatchPolicy as String: policy, kSecMatchValidOnDate as String: Self.validDate,
                    ]
                    #expect(Self.search(valid, returning: key) == (errSecSuccess, count))
                    #expect(Self.search(valid, returning: key) == (errSecSuccess, count))  // repeated
                    for date in [Self.dateBefore, Self.dateAfter] {
                        let outside: [String: Any] = [
                            kSecMatchPolicy as String: policy, kSecMatchValidOnDate as String: date,
                        ]
                        #expect(Self.search(outside, returning: key).status == errSecItemNotFound)
                    }
                }
            }
        }
    }

    @Test func secd83ItemMatchTrusted_SelfSignedCertificatesAreNotTrusted() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            try Self.addTestCertificates()
            for key in Self.returnKeys {
                #expect(Self.search([:], returning: key) == (errSecSuccess, 6))
                #expect(
                    Self.search([kSecMatchTrustedOnly as String: true], returning: key).status == errSecItemNotFound
                )
                #expect(Self.search([kSecMatchTrustedOnly as String: false], returning: key) == (errSecSuccess, 6))
            }
        }
    }

    /// secd-83-item-match-valid-on-date.m 15–46, and 40/45: a search that finds nothing leaves the
    /// result it was given as it was.
    @Test func secd83ItemMatchValidOnDate_TheDateIsWithinTheValidity() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            try Self.addTestCertificates()
            for key in Self.returnKeys {
                #expect(
                    Self.search([kSecMatchValidOnDate as String: Self.validDate], returning: key) == (errSecSuccess, 6)
                )
                var result: CFTypeRef?
                let valid: [String: Any] = [
                    kSecClass as String: kSecClassCertificate, kSecMatchLimit as String: kSecMatchLimitAll,
                    key as String: true, kSecMatchValidOnDate as String: Self.validDate,
                ]
                #expect(SecItemCopyMatching(valid as CFDictionary, &result) == errSecSuccess)
                for date in [Self.dateBefore, Self.dateAfter] {
                    var outside = valid
                    outside[kSecMatchValidOnDate as String] = date
                    #expect(SecItemCopyMatching(outside as CFDictionary, &result) == errSecItemNotFound)
                    #expect((result as? [Any])?.count == 6)
                }
            }
        }
    }

    /// SecItemTests.m 141–171: a certificate without an address is left out, whatever the address.
    @Test func anEmailAddressMatchesInAnyCaseAndACertificateWithoutOneNever() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            try Self.addTestCertificates()
            let root = try TestAuthority(root: "No Mail")
            #expect(
                SecItemAdd([kSecValueRef as String: root.issued.secCertificate] as CFDictionary, nil) == errSecSuccess
            )
            let key = kSecReturnRef as CFString
            #expect(
                Self.search([kSecMatchEmailAddressIfPresent as String: "TESTCERT3@apple.com"], returning: key) == (
                    errSecSuccess, 1
                )
            )
            #expect(
                Self.search([kSecMatchEmailAddressIfPresent as String: ""], returning: key).status == errSecItemNotFound
            )
            #expect(Self.search([kSecMatchEmailAddressIfPresent as String: 42], returning: key).status == errSecParam)
        }
    }

    /// The filters apply before the limit counts (Apple's securityd: `s3dl_query_row` counts a row
    /// only once it passes).
    @Test func theLimitCountsOnlyCertificatesThatPass() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            try Self.addTestCertificates()
            let sslNamed = try Self.policy(kSecPolicyAppleSSL, [kSecPolicyName as String: "secdtest2.apple.com"])
            let query: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecReturnAttributes as String: true,
                kSecMatchPolicy as String: sslNamed, kSecMatchValidOnDate as String: Self.validDate,
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            #expect(attributes[kSecAttrLabel as String] as? String == "secdtest2.apple.com")
            #expect(attributes[kSecValueData as String] == nil)  // the data was not asked for
        }
    }

    /// SecItemServer.c 2640–2647 and SecDbQuery.c 469–567: a policy or issuers on a class without
    /// certificates is an unsupported operation; a value of the wrong type is a parameter error.
    @Test func optionsOfTheWrongTypeOrClassAreRefused() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            let password: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "s",
            ]
            #expect(
                SecItemAdd((password.merging([kSecValueData as String: Data("p".utf8)]) { $1 }) as CFDictionary, nil)
                    == errSecSuccess
            )
            var withPolicy = password
            withPolicy[kSecMatchPolicy as String] = SecPolicyCreateBasicX509()
            #expect(SecItemCopyMatching(withPolicy as CFDictionary, nil) == errSecUnimplemented)
            var withDate = password
            withDate[kSecMatchValidOnDate as String] = Date()
            #expect(SecItemCopyMatching(withDate as CFDictionary, nil) == errSecSuccess)  // ignored
            let certificates: [String: Any] = [kSecClass as String: kSecClassCertificate]
            for (key, value) in [
                (kSecMatchPolicy, "ssl" as Any), (kSecMatchValidOnDate, "today"), (kSecMatchTrustedOnly, "yes"),
                (kSecMatchSubjectContains, 7),
            ] {
                var query = certificates
                query[key as String] = value
                #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecParam)
            }
            var delete = certificates
            delete[kSecMatchPolicy as String] = SecPolicyCreateBasicX509()
            #expect(SecItemDelete(delete as CFDictionary) == errSecParam)
        }
    }

    /// si-68-secmatchissuer.c: the issuer of the certificate, or of an authority above it held in
    /// the keychain, is one of the names; the root itself is not in the keychain.
    @Test func issuersMatchThroughAuthoritiesInTheKeychain() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let root = try TestAuthority(root: "Issuer Root")
            let intermediate = try root.intermediate("Issuer Intermediate")
            let leaf = try intermediate.leaf("Client")
            let stranger = try TestAuthority(root: "Stranger Root").leaf("Other Client")
            for certificate in [intermediate.issued, leaf, stranger] {
                #expect(
                    SecItemAdd([kSecValueRef as String: certificate.secCertificate] as CFDictionary, nil)
                        == errSecSuccess
                )
            }
            var serializer = DER.Serializer()
            try serializer.serialize(root.issued.certificate.subject)
            let rootName = Data(serializer.serializedBytes)
            let key = kSecReturnRef as CFString
            #expect(Self.search([kSecMatchIssuers as String: [rootName]], returning: key) == (errSecSuccess, 2))
            // Stricter than Apple's, which then filters nothing: no readable name matches nothing,
            // and a value that is no list is refused.
            #expect(
                Self.search([kSecMatchIssuers as String: [Data([1, 2, 3])]], returning: key).status
                    == errSecItemNotFound
            )
            #expect(Self.search([kSecMatchIssuers as String: rootName], returning: key).status == errSecParam)
        }
    }

    @Test func subjectOptionsCompareTheLastCommonName() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            try Self.addTestCertificates()
            let key = kSecReturnRef as CFString
            #expect(
                Self.search([kSecMatchSubjectContains as String: "SSL client"], returning: key) == (errSecSuccess, 2)
            )
            #expect(Self.search([kSecMatchSubjectStartsWith as String: "Test"], returning: key) == (errSecSuccess, 4))
            #expect(
                Self.search([kSecMatchSubjectEndsWith as String: ".apple.com"], returning: key) == (errSecSuccess, 2)
            )
            #expect(
                Self.search([kSecMatchSubjectWholeString as String: "test smime1"], returning: key).status
                    == errSecItemNotFound
            )
            let insensitive: [String: Any] = [
                kSecMatchSubjectWholeString as String: "test smime1", kSecMatchCaseInsensitive as String: true,
            ]
            #expect(Self.search(insensitive, returning: key) == (errSecSuccess, 1))
        }
    }

    @Test func identitiesAreFilteredByTheirCertificate() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let identity = try SecIdentityTests.makeIdentity("Filtered Identity")
            #expect(SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil) == errSecSuccess)
            var query: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnRef as String: true,
                kSecMatchValidOnDate as String: Date(timeIntervalSince1970: 1_800_000_000),
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [Any])?.count == 1)
            query[kSecMatchValidOnDate as String] = Date(timeIntervalSince1970: 1_000_000_000)
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecItemNotFound)
            query[kSecMatchValidOnDate as String] = nil
            query[kSecMatchPolicy as String] = try Self.policy(
                kSecPolicyAppleSSL,
                [kSecPolicyName as String: "host.example"]
            )
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecItemNotFound)
        }
    }
}
