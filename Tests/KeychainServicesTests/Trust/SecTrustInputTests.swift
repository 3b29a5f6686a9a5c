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
import Testing
import X509

/// Bad input to a trust: Apple's statuses (SecTrust.c, TrustInterfaceTests.m 62–71), no crash,
/// bounded time.
@Suite struct SecTrustInputTests {
    @Test func emptyOrMixedArraysAreRefused() throws {
        let root = try TestAuthority(root: "Input Root")
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates([] as CFArray, nil, &trust) == errSecParam)
        #expect(trust == nil)
        #expect(SecTrustCreateWithCertificates([Data([1, 2, 3]) as CFData] as CFArray, nil, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(kCFBooleanTrue, nil, &trust) == errSecParam)
        let certificate = root.issued.secCertificate
        #expect(SecTrustCreateWithCertificates(certificate, [] as CFArray, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(certificate, ["ssl"] as CFArray, &trust) == errSecParam)
        #expect(SecTrustCreateWithCertificates(certificate, nil, &trust) == errSecSuccess)
        let made = try #require(trust)
        #expect(SecTrustSetPolicies(made, [] as CFArray) == errSecParam)
        #expect(SecTrustSetAnchorCertificates(made, [certificate, "anchor"] as CFArray) == errSecParam)
        var policies: CFArray?
        #expect(SecTrustCopyPolicies(made, &policies) == errSecSuccess)
        #expect((policies as? [SecPolicy])?.count == 1)
    }

    @Test func datesFarInThePastOrFutureAreOutsideEveryValidity() throws {
        let root = try TestAuthority(root: "Date Range Root")
        let leaf = try root.leaf("range.example")
        for date in [Date(timeIntervalSince1970: -60_000_000_000), Date(timeIntervalSince1970: 250_000_000_000)] {
            let trust = try SecTrustTests.trust([leaf], anchors: [root.issued], date: date)
            let outcome = SecTrustTests.evaluate(trust)
            #expect(outcome.code == Int(errSecCertificateExpired))
        }
    }

    @Test func unrelatedCertificatesInTheTrustAreIgnored() throws {
        let root = try TestAuthority(root: "Unrelated Root")
        let stranger = try TestAuthority(root: "Stranger")
        let leaf = try root.leaf("unrelated.example")
        let trust = try SecTrustTests.trust([leaf, stranger.issued, stranger.issued], anchors: [root.issued])
        #expect(SecTrustTests.evaluate(trust).trusted)
        #expect(SecTrustGetCertificateCount(trust) == 2)
    }

    @Test func aFiftyCertificateChainIsEvaluatedInBoundedTime() throws {
        let root = try TestAuthority(root: "Deep Root")
        var authorities = [root]
        for depth in 1..<49 {
            authorities.append(try authorities[depth - 1].intermediate("Deep \(depth)"))
        }
        let leaf = try authorities[48].leaf("deep.example")
        let certificates = [leaf] + authorities.dropFirst().reversed().map(\.issued)
        let started = ThreadTime.now
        let trust = try SecTrustTests.trust(certificates, anchors: [root.issued])
        let outcome = SecTrustTests.evaluate(trust)
        #expect(outcome.trusted)
        #expect(SecTrustGetCertificateCount(trust) == 50)
        #expect(ThreadTime.now - started < .seconds(20))
    }

    @Test func issuersThatIssueEachOtherDoNotLoop() throws {
        // Two authorities, each certified by the other: no anchor, and an end.
        let first = try TestAuthority(root: "Loop A")
        let second = try TestAuthority(root: "Loop B")
        let firstBySecond = try second.issue(
            "Loop A",
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            }
        )
        let secondByFirst = try first.issue(
            "Loop B",
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
            }
        )
        let leaf = try first.leaf("loop.example")
        let started = ThreadTime.now
        let trust = try SecTrustTests.trust([leaf, firstBySecond, secondByFirst], anchors: [])
        let outcome = SecTrustTests.evaluate(trust)
        #expect(!outcome.trusted)
        #expect(outcome.code == Int(errSecCreateChainFailed) || outcome.code == Int(errSecNotTrusted))
        #expect(SecTrustGetCertificateCount(trust) <= 3)
        #expect(ThreadTime.now - started < .seconds(10))
    }
}
