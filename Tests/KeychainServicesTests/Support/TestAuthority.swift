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
import X509

/// Certificate authorities and leaves made in the tests with swift-certificates: each test
/// builds the chains it needs (a root, intermediates, leaves with names, usages and validity).
struct TestAuthority {
    /// A certificate made here, as the mirror takes it.
    struct Issued {
        var certificate: Certificate
        var key: P256.Signing.PrivateKey
        /// The DER encoding.
        var der: Data

        init(certificate: Certificate, key: P256.Signing.PrivateKey) throws {
            self.certificate = certificate
            self.key = key
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            der = Data(serializer.serializedBytes)
        }

        /// The certificate as `SecCertificate`.
        var secCertificate: SecCertificate {
            guard let made = SecCertificateCreateWithData(nil, der as CFData) else {
                preconditionFailure("the mirror refused a certificate swift-certificates made")
            }
            return made
        }
    }

    /// The start of every validity in these tests, and a date inside all of them.
    static let notBefore = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11-14
    static let notAfter = Date(timeIntervalSince1970: 2_000_000_000)  // 2033-05-18
    static let validDate = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15

    let issued: Issued

    /// A self-signed root named `name`.
    init(root name: String, pathLength: Int? = nil) throws {
        let key = P256.Signing.PrivateKey()
        let subject = try Self.name(name)
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: Self.notBefore,
            notValidAfter: Self.notAfter,
            issuer: subject,
            subject: subject,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: pathLength))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: .init(key)
        )
        issued = try Issued(certificate: certificate, key: key)
    }

    init(_ issued: Issued) {
        self.issued = issued
    }

    /// An intermediate authority named `name`, issued by this one (with name constraints, if given).
    func intermediate(
        _ name: String,
        isAuthority: Bool = true,
        constraints: NameConstraints? = nil
    ) throws -> TestAuthority {
        let extensions = try Certificate.Extensions {
            if isAuthority {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            } else {
                Critical(BasicConstraints.notCertificateAuthority)
            }
            Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            if let constraints { Critical(constraints) }
        }
        return TestAuthority(try issue(name, extensions: extensions))
    }

    /// A leaf named `name` with DNS names, e-mail addresses and extended key usages (none: any use).
    func leaf(
        _ name: String,
        dnsNames: [String] = [],
        emailAddresses: [String] = [],
        usages: [ExtendedKeyUsage.Usage] = [],
        notBefore: Date = TestAuthority.notBefore,
        notAfter: Date = TestAuthority.notAfter,
        otherNames: [GeneralName] = [],
        emptyAlternativeNames: Bool = false,
        subjectEmail: String? = nil,
        criticalUnknownExtension: Bool = false
    ) throws -> Issued {
        let alternativeNames =
            dnsNames.map { GeneralName.dnsName($0) } + emailAddresses.map { .rfc822Name($0) } + otherNames
        let extensions = try Certificate.Extensions {
            Critical(BasicConstraints.notCertificateAuthority)
            Critical(KeyUsage(digitalSignature: true))
            if !alternativeNames.isEmpty || emptyAlternativeNames { SubjectAlternativeNames(alternativeNames) }
            if !usages.isEmpty { try ExtendedKeyUsage(usages) }
            if criticalUnknownExtension {
                Certificate.Extension(oid: [1, 3, 6, 1, 4, 1, 99_999, 1], critical: true, value: [0x05, 0x00])
            }
        }
        return try issue(name, extensions: extensions, notBefore: notBefore, notAfter: notAfter, email: subjectEmail)
    }

    /// A certificate for `name` signed by this authority.
    func issue(
        _ name: String,
        extensions: Certificate.Extensions,
        notBefore: Date = TestAuthority.notBefore,
        notAfter: Date = TestAuthority.notAfter,
        email: String? = nil
    ) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let certificate = try Certificate(
            version: .v3,
            serialNumber: Certificate.SerialNumber(),
            publicKey: .init(key.publicKey),
            notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: issued.certificate.subject,
            subject: try Self.name(name, email: email),
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions,
            issuerPrivateKey: .init(issued.key)
        )
        return try Issued(certificate: certificate, key: key)
    }

    static func name(_ commonName: String, email: String? = nil) throws -> DistinguishedName {
        try DistinguishedName {
            OrganizationName("swift-keychain trust tests")
            CommonName(commonName)
            if let email { EmailAddress(email) }
        }
    }

    /// `count` authorities that all carry the subject and issuer `name` and one key, each signing the
    /// others (a peer's attempt to make chain building explore every order), and a leaf they issued.
    static func tangle(_ name: String, count: Int) throws -> (leaf: Issued, authorities: [Issued]) {
        let key = P256.Signing.PrivateKey()
        let subject = try Self.name(name)
        let authorities = try (0..<count).map { index in
            try Issued(
                certificate: try Certificate(
                    version: .v3,
                    serialNumber: Certificate.SerialNumber(),
                    publicKey: .init(key.publicKey),
                    notValidBefore: notBefore,
                    notValidAfter: notAfter,
                    issuer: subject,
                    subject: subject,
                    signatureAlgorithm: .ecdsaWithSHA256,
                    extensions: try Certificate.Extensions {
                        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                        SubjectAlternativeNames([.dnsName("tangle\(index).example")])
                    },
                    issuerPrivateKey: .init(key)
                ),
                key: key
            )
        }
        let leaf = try TestAuthority(authorities[0]).leaf("tangled.example")
        return (leaf, authorities)
    }
}
