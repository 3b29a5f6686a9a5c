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
import Testing

/// Identities by persistent reference and by their halves' attributes, as Apple's
/// `si-42-identity.m` (583–736) and `secitemfunctionality.m` (`CheckFindIdentityByReference`
/// 419–539, `CheckItemUpdateAccessGroupIdentity` 292–417) expect.
@Suite struct IdentityReferenceTests {
    @Test func si42_anAddedIdentitysReferenceFindsAndDeletesIt() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let identity = try SecIdentityTests.makeIdentity("Referenced Identity")
            var reference: CFTypeRef?
            let add: [String: Any] = [kSecValueRef as String: identity, kSecReturnPersistentRef as String: true]
            #expect(SecItemAdd(add as CFDictionary, &reference) == errSecSuccess)
            let persistent = try #require(reference as? Data)
            #expect(persistent.starts(with: Data("idnt".utf8)))
            #expect(persistent.count == 20)

            var again: CFTypeRef?
            #expect(SecItemAdd(add as CFDictionary, &again) == errSecDuplicateItem)
            #expect(again == nil)

            // The same reference however it is asked for (CheckFindIdentityByReference 463–526).
            var byReference: CFTypeRef?
            let byObject: [String: Any] = [kSecValueRef as String: identity, kSecReturnPersistentRef as String: true]
            #expect(SecItemCopyMatching(byObject as CFDictionary, &byReference) == errSecSuccess)
            #expect(byReference as? Data == persistent)
            var byLabel: CFTypeRef?
            let labelled: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "Referenced Identity",
                kSecReturnPersistentRef as String: true,
            ]
            #expect(SecItemCopyMatching(labelled as CFDictionary, &byLabel) == errSecSuccess)
            #expect(byLabel as? Data == persistent)

            // Found through it without a class (597–605).
            var found: CFTypeRef?
            let find: [String: Any] = [kSecValuePersistentRef as String: persistent, kSecReturnRef as String: true]
            #expect(SecItemCopyMatching(find as CFDictionary, &found) == errSecSuccess)
            #expect((found as? SecIdentity) == identity)

            // An update through it fails as Apple's does (secitemfunctionality.m 386–396).
            let update: [String: Any] = [kSecValuePersistentRef as String: persistent]
            #expect(
                SecItemUpdate(update as CFDictionary, [kSecAttrLabel as String: "x"] as CFDictionary) == errSecInternal
            )

            // Deleted through it, then gone (635–640).
            #expect(SecItemDelete([kSecValuePersistentRef as String: persistent] as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(find as CFDictionary, nil) == errSecItemNotFound)
            let key: [String: Any] = [kSecValueRef as String: try #require(identity.privateKeyForTests)]
            #expect(SecItemCopyMatching(key as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    /// si-42-identity 645–706: the label of an add goes to both halves; the identity's label is its
    /// certificate's.
    @Test func si42_theLabelOfAnIdentityIsItsCertificates() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let identity = try SecIdentityTests.makeIdentity("Labelled Identity")
            let add: [String: Any] = [kSecValueRef as String: identity, kSecAttrLabel as String: "zomg"]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            func finds(_ itemClass: CFString, _ label: String) -> Bool {
                let query: [String: Any] = [
                    kSecClass as String: itemClass, kSecAttrLabel as String: label, kSecReturnRef as String: true,
                ]
                return SecItemCopyMatching(query as CFDictionary, nil) == errSecSuccess
            }
            #expect(finds(kSecClassIdentity, "zomg"))
            #expect(finds(kSecClassCertificate, "zomg"))
            #expect(finds(kSecClassKey, "zomg"))

            let key: [String: Any] = [kSecClass as String: kSecClassKey, kSecAttrLabel as String: "zomg"]
            #expect(
                SecItemUpdate(key as CFDictionary, [kSecAttrLabel as String: "zzzomg"] as CFDictionary) == errSecSuccess
            )
            #expect(finds(kSecClassIdentity, "zomg"))
            let certificate: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecAttrLabel as String: "zomg",
            ]
            #expect(
                SecItemUpdate(certificate as CFDictionary, [kSecAttrLabel as String: "zzzomg"] as CFDictionary)
                    == errSecSuccess
            )
            #expect(!finds(kSecClassIdentity, "zomg"))
            #expect(finds(kSecClassIdentity, "zzzomg"))
        }
    }

    /// si-42-identity 708–734: an identity is found by its certificate's issuer, given as the
    /// normalized content the item holds or as the issuer's DER name (normalized by the client).
    @Test func si42_anIdentityIsFoundByItsCertificatesIssuer() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let identity = try SecIdentityTests.makeIdentity("Issued Identity")
            #expect(SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil) == errSecSuccess)
            var certificate: SecCertificate?
            SecIdentityCopyCertificate(identity, &certificate)
            let issued = try #require(certificate)
            let issuerName = try #require(SecCertificateCopyNormalizedIssuerSequence(issued) as Data?)
            var attributes: CFTypeRef?
            let stored: [String: Any] = [
                kSecClass as String: kSecClassCertificate, kSecAttrLabel as String: "Issued Identity",
                kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(stored as CFDictionary, &attributes) == errSecSuccess)
            let content = try #require((attributes as? [String: Any])?[kSecAttrIssuer as String] as? Data)
            for issuer in [content, issuerName] {
                var found: CFTypeRef?
                let query: [String: Any] = [
                    kSecClass as String: kSecClassIdentity, kSecAttrIssuer as String: issuer,
                    kSecReturnRef as String: true,
                ]
                #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
                #expect((found as? SecIdentity) == identity)
            }
        }
    }
}

extension SecIdentity {
    /// The private key, for the tests' queries.
    var privateKeyForTests: SecKey? {
        var key: SecKey?
        SecIdentityCopyPrivateKey(self, &key)
        return key
    }
}
