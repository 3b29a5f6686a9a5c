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
import KeychainServices
import KeychainTesting
import SwiftASN1
import Testing
import X509

/// Hostile chains and the checks that must not be looser than Apple's: a tangle of issuers that
/// would make chain building explore without end, host names the common name or a loose wildcard
/// would let through, addresses a constrained issuer may not vouch for, failures an exception must
/// not hide, and trust settings that cannot be planted or widened.
@Suite struct SecTrustAttackTests {
    @Test func issuersThatAllNameOneAnotherAreExploredInBoundedTime() throws {
        let (leaf, authorities) = try TestAuthority.tangle("Tangle", count: 14)
        let started = ThreadTime.now
        let trust = try SecTrustTests.trust([leaf] + authorities, anchors: [])
        let outcome = SecTrustTests.evaluate(trust)
        #expect(!outcome.trusted)
        #expect(outcome.code == Int(errSecNotTrusted))
        #expect(ThreadTime.now - started < .seconds(20))
        // Anchored at one of them, the same tangle is trusted at once.
        let anchored = try SecTrustTests.trust([leaf] + authorities, anchors: [authorities[3]])
        #expect(SecTrustTests.evaluate(anchored).trusted)
    }

    /// Apple has matched alternative names only since macOS 10.15: an empty list names no host,
    /// whatever the common name says.
    @Test func anEmptyAlternativeNameListNamesNoHost() throws {
        let root = try TestAuthority(root: "Empty SAN Root")
        let leaf = try root.leaf("www.bank.example", emptyAlternativeNames: true)
        let policy = SecPolicyCreateSSL(true, "www.bank.example" as CFString)
        let outcome = SecTrustTests.evaluate(
            try SecTrustTests.trust([leaf], policies: [policy], anchors: [root.issued])
        )
        #expect(outcome.code == Int(errSecHostNameMismatch))
    }

    /// SecPolicyLeafCallbacks.c 236–342: a wildcard is a whole first label, stands for one label,
    /// not over a top-level domain; an IP address matches IP addresses only.
    @Test(arguments: [
        ("*.example.com", "a.example.com", true),
        ("*.example.com", "A.EXAMPLE.COM.", true),
        ("*.example.com", "a.b.example.com", false),
        ("*.example.com", "example.com", false),
        ("*.com", "example.com", false),
        ("f*.example.com", "foo.example.com", false),
        ("*", "localhost", false),
        ("192.0.2.1", "192.0.2.1", false),
    ])
    func hostNamesMatchAsApplesDo(pattern: String, host: String, matches: Bool) throws {
        let root = try TestAuthority(root: "Wildcard Root")
        let leaf = try root.leaf("wildcard", dnsNames: [pattern])
        let policy = SecPolicyCreateSSL(true, host as CFString)
        let trust = try SecTrustTests.trust([leaf], policies: [policy], anchors: [root.issued])
        #expect(SecTrustTests.evaluate(trust).trusted == matches, "\(pattern) for \(host)")
    }

    @Test func anIPAddressMatchesTheAddressesOfTheLeaf() throws {
        let root = try TestAuthority(root: "Address Root")
        let address = GeneralName.ipAddress(ASN1OctetString(contentBytes: [192, 0, 2, 1]))
        let leaf = try root.leaf("address", otherNames: [address])
        for (host, trusted) in [("192.0.2.1", true), ("192.0.2.2", false), ("::1", false)] {
            let policy = SecPolicyCreateSSL(true, host as CFString)
            let trust = try SecTrustTests.trust([leaf], policies: [policy], anchors: [root.issued])
            #expect(SecTrustTests.evaluate(trust).trusted == trusted, "\(host)")
        }
    }

    /// A chain under e-mail name constraints is refused, and a subject address under others does not count.
    ///
    /// swift-certificates cannot check e-mail constraints, so it refuses the chain whatever its
    /// addresses (errSecInvalidName). Under an issuer with other constraints, a subject address —
    /// which no constraint checks — does not count as the S/MIME address.
    @Test func aConstrainedIssuerCannotVouchForASubjectAddress() throws {
        let root = try TestAuthority(root: "Mail Constraint Root")
        let mailCA = try root.intermediate(
            "Corp Mail CA",
            constraints: NameConstraints(permittedEmailAddresses: ["corp.example"])
        )
        let properties = [kSecPolicyName as String: "staff@corp.example"] as CFDictionary
        let smime = try #require(SecPolicyCreateWithProperties(kSecPolicyAppleSMIME, properties))
        let staff = try mailCA.leaf("Staff", emailAddresses: ["staff@corp.example"], usages: [.emailProtection])
        let underMail = try SecTrustTests.trust([staff, mailCA.issued], policies: [smime], anchors: [root.issued])
        #expect(SecTrustTests.evaluate(underMail).code == Int(errSecInvalidName))

        let dnsCA = try root.intermediate(
            "Corp CA",
            constraints: NameConstraints(permittedDNSDomains: ["corp.example"])
        )
        let ceo = try dnsCA.leaf("CEO", usages: [.emailProtection], subjectEmail: "ceo@bank.example")
        let ceoPolicy = try #require(
            SecPolicyCreateWithProperties(
                kSecPolicyAppleSMIME,
                [kSecPolicyName as String: "ceo@bank.example"] as CFDictionary
            )
        )
        let underDNS = try SecTrustTests.trust([ceo, dnsCA.issued], policies: [ceoPolicy], anchors: [root.issued])
        #expect(SecTrustTests.evaluate(underDNS).code == Int(errSecSMIMEEmailAddressesNotFound))

        // Without constraints above it, the subject's address counts, as Apple's.
        let open = try root.leaf("Open", usages: [.emailProtection], subjectEmail: "ceo@bank.example")
        #expect(
            SecTrustTests.evaluate(try SecTrustTests.trust([open], policies: [ceoPolicy], anchors: [root.issued]))
                .trusted
        )
    }

    /// An expired leaf outside its issuer's name constraints reports the constraint, so that an
    /// application that accepts expiry alone does not accept the constraint with it.
    @Test func aNameConstraintIsNotHiddenBehindExpiry() throws {
        let root = try TestAuthority(root: "Constraint Root")
        let intermediate = try root.intermediate(
            "Corp CA",
            constraints: NameConstraints(permittedDNSDomains: ["corp.example"])
        )
        let leaf = try intermediate.leaf(
            "www.bank.example",
            dnsNames: ["www.bank.example"],
            notBefore: Date(timeIntervalSince1970: 1_700_000_000),
            notAfter: Date(timeIntervalSince1970: 1_750_000_000)
        )
        let trust = try SecTrustTests.trust([leaf, intermediate.issued], anchors: [root.issued])
        let outcome = SecTrustTests.evaluate(trust)
        #expect(!outcome.trusted)
        #expect(outcome.code == Int(errSecInvalidName))
        // Within its dates, the constraint alone refuses it.
        let inTime = try SecTrustTests.trust(
            [leaf, intermediate.issued],
            anchors: [root.issued],
            date: Date(timeIntervalSince1970: 1_720_000_000)
        )
        #expect(SecTrustTests.evaluate(inTime).code == Int(errSecInvalidName))
    }

    /// A server certificate pinned as the anchor is trusted as Apple's is, though it is no authority.
    @Test func aLeafPinnedAsTheAnchorIsTrusted() throws {
        let root = try TestAuthority(root: "Pin Root")
        let leaf = try root.leaf("pinned.example", dnsNames: ["pinned.example"], usages: [.serverAuth])
        let right = SecPolicyCreateSSL(true, "pinned.example" as CFString)
        #expect(SecTrustTests.evaluate(try SecTrustTests.trust([leaf], policies: [right], anchors: [leaf])).trusted)
        let wrong = SecPolicyCreateSSL(true, "other.example" as CFString)
        let outcome = SecTrustTests.evaluate(try SecTrustTests.trust([leaf], policies: [wrong], anchors: [leaf]))
        #expect(outcome.code == Int(errSecHostNameMismatch))
    }

    /// Revocation is not checked on Linux: a policy that requires a positive answer is never met.
    @Test func aRequiredRevocationAnswerIsNeverAssumed() throws {
        let root = try TestAuthority(root: "Revocation Root")
        let leaf = try root.leaf("revoked.example")
        let flags = CFOptionFlags(kSecRevocationOCSPMethod | kSecRevocationRequirePositiveResponse)
        let revocation = try #require(SecPolicyCreateRevocation(flags))
        let outcome = SecTrustTests.evaluate(
            try SecTrustTests.trust([leaf], policies: [SecPolicyCreateBasicX509(), revocation], anchors: [root.issued])
        )
        #expect(outcome.code == Int(errSecIncompleteCertRevocationCheck))
        let lenient = try #require(SecPolicyCreateRevocation(CFOptionFlags(kSecRevocationOCSPMethod)))
        #expect(
            SecTrustTests.evaluate(
                try SecTrustTests.trust(
                    [leaf],
                    policies: [SecPolicyCreateBasicX509(), lenient],
                    anchors: [root.issued]
                )
            ).trusted
        )
    }

    @Test func trustSettingsCannotBePlantedOrWidened() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let root = try TestAuthority(root: "Planted Root")
            let leaf = try root.leaf("planted.example")
            // An item that names another certificate than it holds is no setting.
            let record = try PropertyListSerialization.data(
                fromPropertyList: ["certificate": root.issued.der, "policies": [String]()],
                format: .binary,
                options: 0
            )
            let planted: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "swift-keychain trust settings",
                kSecAttrAccount as String: "0000000000000000000000000000000000000000", kSecValueData as String: record,
            ]
            #expect(SecItemAdd(planted as CFDictionary, nil) == errSecSuccess)
            #expect(!SecTrustTests.evaluate(try SecTrustTests.trust([leaf, root.issued])).trusted)

            // A constraint Linux does not enforce is refused, not dropped.
            let host: [String: Any] = [
                kSecTrustSettingsPolicy as String: SecPolicyCreateSSL(true, nil),
                kSecTrustSettingsPolicyString as String: "intranet.corp",
            ]
            #expect(
                SecTrustSettingsSetTrustSettings(root.issued.secCertificate, .user, [host] as CFArray)
                    == errSecUnimplemented
            )

            // The real thing: trusted, with "proceed".
            #expect(SecTrustSettingsSetTrustSettings(root.issued.secCertificate, .user, nil) == errSecSuccess)
            let trusted = SecTrustTests.evaluate(try SecTrustTests.trust([leaf, root.issued]))
            #expect(trusted.trusted)
            #expect(trusted.result == .proceed)
            var certificates: CFArray?
            #expect(SecTrustSettingsCopyCertificates(.user, &certificates) == errSecSuccess)
            #expect((certificates as? [SecCertificate]) == [root.issued.secCertificate])
            #expect(SecTrustSettingsRemoveTrustSettings(root.issued.secCertificate, .user) == errSecSuccess)
            #expect(!SecTrustTests.evaluate(try SecTrustTests.trust([leaf, root.issued])).trusted)
        }
    }
}
