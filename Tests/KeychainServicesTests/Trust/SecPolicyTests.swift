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

/// `SecPolicy` as Apple's SecPolicy.c makes and describes policies (`SecPolicyCreateWithProperties`,
/// `SecPolicyCopyProperties`, `SecPolicyCreateRevocation`).
@Suite struct SecPolicyTests {
    static func properties(_ policy: SecPolicy) throws -> [String: Any] {
        try #require(SecPolicyCopyProperties(policy) as? [String: Any])
    }

    @Test func theIdentifiersAreApplesObjectIdentifiers() {
        #expect(kSecPolicyAppleX509Basic as String == "1.2.840.113635.100.1.2")
        #expect(kSecPolicyAppleSSL as String == "1.2.840.113635.100.1.3")
        #expect(kSecPolicyAppleSMIME as String == "1.2.840.113635.100.1.8")
        #expect(kSecPolicyAppleRevocation as String == "1.2.840.113635.100.1.21")
        #expect(kSecPolicyOid as String == "SecPolicyOid")
        #expect(kSecPolicyName as String == "SecPolicyName")
        #expect(kSecPolicyClient as String == "SecPolicyClient")
    }

    @Test func aBasicPolicyReportsItsIdentifierOnly() throws {
        let properties = try Self.properties(SecPolicyCreateBasicX509())
        #expect(properties.count == 1)
        #expect(properties[kSecPolicyOid as String] as? String == kSecPolicyAppleX509Basic as String)
        #expect(CFGetTypeID(SecPolicyCreateBasicX509()) == SecPolicyGetTypeID())
        #expect(SecPolicyGetTypeID() != SecCertificateGetTypeID())
    }

    @Test func anSSLPolicyReportsItsHostNameAndSide() throws {
        let server = try Self.properties(SecPolicyCreateSSL(true, "example.org" as CFString))
        #expect(server[kSecPolicyOid as String] as? String == kSecPolicyAppleSSL as String)
        #expect(server[kSecPolicyName as String] as? String == "example.org")
        #expect(server[kSecPolicyClient as String] == nil)
        let client = try Self.properties(SecPolicyCreateSSL(false, nil))
        #expect(client[kSecPolicyName as String] == nil)
        #expect(client[kSecPolicyClient as String] as? Bool == true)
    }

    @Test func policiesMadeFromPropertiesEqualThoseMadeDirectly() throws {
        let made = SecPolicyCreateWithProperties(
            kSecPolicyAppleSSL,
            [kSecPolicyName: "example.org", kSecPolicyClient: false] as CFDictionary
        )
        #expect(made == SecPolicyCreateSSL(true, "example.org" as CFString))
        #expect(made != SecPolicyCreateSSL(true, "example.com" as CFString))
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleX509Basic, nil) == SecPolicyCreateBasicX509())
        let mail = try #require(
            SecPolicyCreateWithProperties(kSecPolicyAppleSMIME, [kSecPolicyName: "pat@example.org"] as CFDictionary)
        )
        let properties = try Self.properties(mail)
        #expect(properties[kSecPolicyOid as String] as? String == kSecPolicyAppleSMIME as String)
        #expect(properties[kSecPolicyName as String] as? String == "pat@example.org")
        // A client side only where a policy has one.
        let smimeClient = SecPolicyCreateWithProperties(kSecPolicyAppleSMIME, [kSecPolicyClient: true] as CFDictionary)
        #expect(try Self.properties(try #require(smimeClient))[kSecPolicyClient as String] == nil)
    }

    @Test func unknownIdentifiersWrongTypesAndApplesOwnPoliciesAreNotMade() {
        #expect(SecPolicyCreateWithProperties("1.2.3.4" as CFString, nil) == nil)
        #expect(SecPolicyCreateWithProperties(42 as NSNumber, nil) == nil)
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleSSL, [kSecPolicyName: 7] as CFDictionary) == nil)
        #expect(SecPolicyCreateWithProperties(kSecPolicyMacAppStoreReceipt, nil) == nil)
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleIDValidation, nil) == nil)
    }

    @Test func revocationPoliciesTakeApplesFlagsOnly() throws {
        let any = try #require(SecPolicyCreateRevocation(CFOptionFlags(kSecRevocationUseAnyAvailableMethod)))
        #expect(try Self.properties(any)[kSecPolicyOid as String] as? String == kSecPolicyAppleRevocation as String)
        #expect(
            SecPolicyCreateRevocation(CFOptionFlags(kSecRevocationNetworkAccessDisabled | kSecRevocationOCSPMethod))
                != nil
        )
        #expect(SecPolicyCreateRevocation(0) == nil)
        #expect(SecPolicyCreateRevocation(1 << 7) == nil)
        #expect(SecPolicyCreateWithProperties(kSecPolicyAppleRevocation, nil) == any)
    }
}
