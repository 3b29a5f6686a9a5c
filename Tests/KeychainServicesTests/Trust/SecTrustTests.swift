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

/// `SecTrust` as Apple's SecTrust.c and trustd evaluate chains, with chains made in the tests:
/// results, statuses and descriptions from `SecPolicyChecks.list` and Apple's TrustTests
/// (`TrustInterfaceTests.m`, `ExceptionTests.m`).
@Suite struct SecTrustTests {
    /// A trust for `certificates` with `policies`, anchored at `anchors` (none: the system's), on the valid date.
    static func trust(
        _ certificates: [TestAuthority.Issued],
        policies: [SecPolicy] = [SecPolicyCreateBasicX509()],
        anchors: [TestAuthority.Issued]? = nil,
        date: Date = TestAuthority.validDate
    ) throws -> SecTrust {
        var trust: SecTrust?
        let status = SecTrustCreateWithCertificates(
            certificates.map(\.secCertificate) as CFArray,
            policies as CFArray,
            &trust
        )
        #expect(status == errSecSuccess)
        let made = try #require(trust)
        if let anchors {
            #expect(SecTrustSetAnchorCertificates(made, anchors.map(\.secCertificate) as CFArray) == errSecSuccess)
        }
        #expect(SecTrustSetVerifyDate(made, date as CFDate) == errSecSuccess)
        return made
    }

    /// Evaluates `trust`: whether it is trusted, the error's code and description, and the result.
    static func evaluate(
        _ trust: SecTrust
    ) -> (trusted: Bool, code: Int?, description: String?, result: SecTrustResultType) {
        var error: CFError?
        let trusted = SecTrustEvaluateWithError(trust, &error)
        var result = SecTrustResultType.invalid
        SecTrustGetTrustResult(trust, &result)
        return (trusted, error.map { CFErrorGetCode($0) }, error.map { CFErrorCopyDescription($0) as String }, result)
    }

    @Test func aChainToAnAnchorTheCallerSetIsTrusted() throws {
        let root = try TestAuthority(root: "Trust Test Root")
        let intermediate = try root.intermediate("Trust Test Intermediate")
        let leaf = try intermediate.leaf("leaf.example", dnsNames: ["leaf.example"], usages: [.serverAuth])
        let trust = try Self.trust(
            [leaf, intermediate.issued],
            policies: [SecPolicyCreateSSL(true, "leaf.example" as CFString)],
            anchors: [root.issued]
        )
        let outcome = Self.evaluate(trust)
        #expect(outcome.trusted)
        #expect(outcome.code == nil)
        #expect(outcome.result == .unspecified)  // caller-set anchors give "unspecified" (SecPolicyServer.c)
        let chain = try #require(SecTrustCopyCertificateChain(trust) as? [SecCertificate])
        #expect(chain == [leaf.secCertificate, intermediate.issued.secCertificate, root.issued.secCertificate])
        #expect(SecTrustGetCertificateCount(trust) == 3)
        let details = try #require(SecTrustCopyResult(trust) as? [String: Any])
        #expect(
            (details[kSecTrustResultValue as String] as? NSNumber)?.uint32Value
                == SecTrustResultType.unspecified.rawValue
        )
        #expect(details[kSecTrustEvaluationDate as String] as? Date == TestAuthority.validDate)
    }

    @Test func tlsPinningCodeWrittenForApplePlatformsRunsUnchanged() throws {
        // What a URLSession delegate or a server's verification does: evaluate, then compare the
        // leaf's public key with the pinned one.
        let root = try TestAuthority(root: "Pinning Root")
        let leaf = try root.leaf("api.example", dnsNames: ["api.example"], usages: [.serverAuth])
        let pinned = leaf.certificate.publicKey.subjectPublicKeyInfoBytes
        let serverTrust = try Self.trust(
            [leaf],
            policies: [SecPolicyCreateSSL(true, "api.example" as CFString)],
            anchors: [root.issued]
        )
        var error: CFError?
        guard SecTrustEvaluateWithError(serverTrust, &error), let key = SecTrustCopyKey(serverTrust) else {
            Issue.record("the server's trust was refused: \(String(describing: error))")
            return
        }
        let presented = try #require(SecKeyCopyExternalRepresentation(key, nil) as Data?)
        #expect(presented == Data(leaf.key.publicKey.x963Representation))
        #expect(!pinned.isEmpty)
        let other = try root.leaf("api.example", dnsNames: ["api.example"])
        let otherKey = try #require(SecCertificateCopyKey(other.secCertificate))
        #expect(SecKeyCopyExternalRepresentation(otherKey, nil) as Data? != presented)
    }

    /// TrustInterfaceTests.m 539–643: expired → -67818; expired and a wrong host → -67602 (a name
    /// outranks the date); and an untrusted root → -67843 (trust outranks the name).
    @Test func failuresAreReportedByApplesPriority() throws {
        let root = try TestAuthority(root: "Priority Root")
        let expired = try root.leaf(
            "old.example",
            dnsNames: ["old.example"],
            notBefore: Date(timeIntervalSince1970: 1_600_000_000),
            notAfter: Date(timeIntervalSince1970: 1_700_000_000)
        )
        let right = SecPolicyCreateSSL(true, "old.example" as CFString)
        let wrong = SecPolicyCreateSSL(true, "new.example" as CFString)

        let expiredOnly = Self.evaluate(try Self.trust([expired], policies: [right], anchors: [root.issued]))
        #expect(!expiredOnly.trusted)
        #expect(expiredOnly.code == Int(errSecCertificateExpired))
        #expect(expiredOnly.description == "“old.example” certificate is expired")
        #expect(expiredOnly.result == .recoverableTrustFailure)

        let alsoWrongHost = Self.evaluate(try Self.trust([expired], policies: [wrong], anchors: [root.issued]))
        #expect(alsoWrongHost.code == Int(errSecHostNameMismatch))
        #expect(alsoWrongHost.description == "“old.example” certificate name does not match input")

        let alsoUntrusted = Self.evaluate(try Self.trust([expired, root.issued], policies: [wrong], anchors: []))
        #expect(alsoUntrusted.code == Int(errSecNotTrusted))
        #expect(alsoUntrusted.description == "“Priority Root” certificate is not trusted")
    }

    @Test func theUnderlyingErrorListsEveryCertificatesFailures() throws {
        let root = try TestAuthority(root: "Detail Root")
        let leaf = try root.leaf("detail.example", dnsNames: ["detail.example"])
        let trust = try Self.trust(
            [leaf, root.issued],
            policies: [SecPolicyCreateSSL(true, "other.example" as CFString)],
            anchors: []
        )
        var error: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &error))
        let underlying = try #require((error as NSError?)?.userInfo[NSUnderlyingErrorKey] as? NSError)
        #expect(underlying.code == Int(errSecNotTrusted))
        #expect(
            underlying.localizedDescription
                == "Certificate 0 “detail.example” has errors: SSL hostname does not match name(s) in certificate;"
                + "Certificate 1 “Detail Root” has errors: Root is not trusted;"
        )
    }

    @Test func aWrongEmailAddressFailsTheSMIMEPolicy() throws {
        let root = try TestAuthority(root: "Mail Root")
        let leaf = try root.leaf("Mail User", emailAddresses: ["user@mail.example"], usages: [.emailProtection])
        let properties = [kSecPolicyName as String: "USER@mail.example"] as CFDictionary
        let matching = try #require(SecPolicyCreateWithProperties(kSecPolicyAppleSMIME, properties))
        #expect(Self.evaluate(try Self.trust([leaf], policies: [matching], anchors: [root.issued])).trusted)

        let other = [kSecPolicyName as String: "someone@mail.example"] as CFDictionary
        let wrong = try #require(SecPolicyCreateWithProperties(kSecPolicyAppleSMIME, other))
        let outcome = Self.evaluate(try Self.trust([leaf], policies: [wrong], anchors: [root.issued]))
        #expect(outcome.code == Int(errSecSMIMEEmailAddressesNotFound))
    }

    @Test func aLeafForAnotherUsageFailsTheSSLPolicy() throws {
        let root = try TestAuthority(root: "Usage Root")
        let client = try root.leaf("client.example", dnsNames: ["client.example"], usages: [.clientAuth])
        let server = SecPolicyCreateSSL(true, "client.example" as CFString)
        #expect(
            Self.evaluate(try Self.trust([client], policies: [server], anchors: [root.issued])).code
                == Int(errSecInvalidExtendedKeyUsage)
        )
        #expect(
            Self.evaluate(try Self.trust([client], policies: [SecPolicyCreateSSL(false, nil)], anchors: [root.issued]))
                .trusted
        )
    }

    /// Apple matches host names in the alternative names only (no common name since macOS 10.15).
    @Test func aHostNameInTheCommonNameAloneDoesNotMatch() throws {
        let root = try TestAuthority(root: "Name Root")
        let leaf = try root.leaf("cn-only.example")
        let outcome = Self.evaluate(
            try Self.trust(
                [leaf],
                policies: [SecPolicyCreateSSL(true, "cn-only.example" as CFString)],
                anchors: [root.issued]
            )
        )
        #expect(outcome.code == Int(errSecHostNameMismatch))
    }

    /// TrustInterfaceTests.m 250–325: the anchors set are the only ones until AnchorCertificatesOnly
    /// is turned off; an empty array trusts nothing, and `nil` gives back the system's.
    @Test func anchorsSetAreTheOnlyOnesUntilToldOtherwise() throws {
        let root = try TestAuthority(root: "Anchor Root")
        let leaf = try root.leaf("anchor.example")
        let trust = try Self.trust([leaf, root.issued], anchors: [root.issued])
        #expect(Self.evaluate(trust).trusted)
        #expect(SecTrustSetAnchorCertificatesOnly(trust, false) == errSecSuccess)
        #expect(Self.evaluate(trust).trusted)
        #expect(SecTrustSetAnchorCertificates(trust, [] as CFArray) == errSecSuccess)
        #expect(Self.evaluate(trust).code == Int(errSecNotTrusted))
        #expect(SecTrustSetAnchorCertificates(trust, nil) == errSecSuccess)
        #expect(Self.evaluate(trust).code == Int(errSecNotTrusted))  // a test root is no system anchor
        var anchors: CFArray?
        #expect(SecTrustCopyCustomAnchorCertificates(trust, &anchors) == errSecSuccess)
        #expect(anchors == nil)
    }

    @Test func aRootOfTheDistributionsStoreIsTrustedByDefault() throws {
        let bundle = try #require(try? String(contentsOfFile: "/etc/ssl/certs/ca-certificates.crt", encoding: .utf8))
        let roots = try PEMDocument.parseMultiple(pemString: bundle).map { try Certificate(pemDocument: $0) }
        let root = try #require(roots.first { $0.notValidBefore < Date() && Date() < $0.notValidAfter })
        var serializer = DER.Serializer()
        try serializer.serialize(root)
        let certificate = try #require(SecCertificateCreateWithData(nil, Data(serializer.serializedBytes) as CFData))
        var trust: SecTrust?
        #expect(SecTrustCreateWithCertificates(certificate, nil, &trust) == errSecSuccess)
        let systemTrust = try #require(trust)
        #expect(Self.evaluate(systemTrust).trusted)
        let other = try TestAuthority(root: "Not The System")
        #expect(SecTrustSetAnchorCertificates(systemTrust, [other.issued.secCertificate] as CFArray) == errSecSuccess)
        #expect(Self.evaluate(systemTrust).code == Int(errSecNotTrusted))
    }

    @Test func aMissingIntermediateIsFoundInTheKeychain() throws {
        let root = try TestAuthority(root: "Keychain Root")
        let intermediate = try root.intermediate("Keychain Intermediate")
        let leaf = try intermediate.leaf("held.example")
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let trust = try Self.trust([leaf], anchors: [root.issued])
            let missing = Self.evaluate(trust)
            #expect(missing.code == Int(errSecCreateChainFailed))
            #expect(SecTrustGetCertificateCount(trust) == 1)

            let add: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecValueData as String: intermediate.issued.der,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let again = try Self.trust([leaf], anchors: [root.issued])
            #expect(Self.evaluate(again).trusted)
            #expect(SecTrustGetCertificateCount(again) == 3)
        }
    }

    @Test func anIntermediateThatIsNoAuthorityBreaksTheChain() throws {
        let root = try TestAuthority(root: "Constraint Root")
        let notAuthority = try root.intermediate("Not An Authority", isAuthority: false)
        let leaf = try notAuthority.leaf("constrained.example")
        let outcome = Self.evaluate(try Self.trust([leaf, notAuthority.issued], anchors: [root.issued]))
        #expect(!outcome.trusted)
        #expect(outcome.code == Int(errSecNoBasicConstraintsCA))
        #expect(outcome.description == "“Not An Authority” certificate is not standards compliant")
    }

    @Test func anUnknownCriticalExtensionIsRefused() throws {
        let root = try TestAuthority(root: "Critical Root")
        let leaf = try root.leaf("critical.example", criticalUnknownExtension: true)
        let outcome = Self.evaluate(try Self.trust([leaf], anchors: [root.issued]))
        #expect(outcome.code == Int(errSecUnknownCriticalExtensionFlag))
    }

    /// ExceptionTests.m: exceptions made for a failing chain let it through ("proceed"), for that
    /// leaf only, and not a new failure.
    @Test func exceptionsAcceptTheFailuresRecordedAndNothingElse() throws {
        let root = try TestAuthority(root: "Exception Root")
        let leaf = try root.leaf("self.example", dnsNames: ["self.example"])
        let trust = try Self.trust(
            [leaf, root.issued],
            policies: [SecPolicyCreateSSL(true, "self.example" as CFString)],
            anchors: []
        )
        #expect(!Self.evaluate(trust).trusted)
        let exceptions = try #require(SecTrustCopyExceptions(trust))
        let list = try #require(
            try PropertyListSerialization.propertyList(from: exceptions as Data, format: nil) as? [[String: Any]]
        )
        #expect(list.count == 2)
        #expect((list[0]["SHA1Digest"] as? Data)?.count == 20)
        #expect(list[1]["AnchorTrusted"] as? Bool == false)
        #expect(SecTrustSetExceptions(trust, exceptions))
        let accepted = Self.evaluate(trust)
        #expect(accepted.trusted)
        #expect(accepted.result == .proceed)

        // A new failure (the host) is not accepted.
        #expect(SecTrustSetPolicies(trust, SecPolicyCreateSSL(true, "elsewhere.example" as CFString)) == errSecSuccess)
        #expect(Self.evaluate(trust).code == Int(errSecHostNameMismatch))

        // Exceptions for another leaf are refused and discarded.
        let other = try root.leaf("other.example")
        let otherTrust = try Self.trust([other, root.issued], anchors: [])
        #expect(!SecTrustSetExceptions(otherTrust, exceptions))
        #expect(!Self.evaluate(otherTrust).trusted)
        #expect(!SecTrustSetExceptions(trust, nil))
    }

    @Test func changingAnInputForgetsTheResult() throws {
        let root = try TestAuthority(root: "Date Root")
        let leaf = try root.leaf("date.example")
        let trust = try Self.trust([leaf], anchors: [root.issued])
        #expect(Self.evaluate(trust).trusted)
        #expect(SecTrustSetVerifyDate(trust, Date(timeIntervalSince1970: 2_100_000_000) as CFDate) == errSecSuccess)
        var result = SecTrustResultType.invalid
        #expect(SecTrustGetTrustResult(trust, &result) == errSecSuccess)  // evaluates again, as Apple's does
        #expect(result == .recoverableTrustFailure)
        #expect(
            SecTrustGetVerifyTime(trust) == Date(timeIntervalSince1970: 2_100_000_000).timeIntervalSinceReferenceDate
        )
    }

    @Test func anAsynchronousEvaluationAnswersOnTheQueue() async throws {
        let root = try TestAuthority(root: "Async Root")
        let leaf = try root.leaf("async.example")
        let trust = try Self.trust([leaf], anchors: [root.issued])
        let queue = DispatchQueue(label: "trust evaluation")
        let trusted = await withCheckedContinuation { continuation in
            queue.async {
                let status = SecTrustEvaluateAsyncWithError(trust, queue) { _, trusted, error in
                    dispatchPrecondition(condition: .onQueue(queue))
                    continuation.resume(returning: trusted && error == nil)
                }
                #expect(status == errSecSuccess)
            }
        }
        #expect(trusted)
    }
}
