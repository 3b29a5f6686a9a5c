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
import Testing

/// Keys as keychain items: `SecKeyCreateRandomKey` with `kSecAttrIsPermanent`, `SecItemAdd` with
/// `kSecValueRef`, and `kSecReturnRef` giving the key back — the flow of Apple's "Storing keys in
/// the keychain" and of wrappers such as EllipticCurveKeyPair.
@Suite struct SecKeyItemTests {
    static let tag = Data("com.example.keys.signing".utf8)

    static func permanentKeyParameters(tag: Data = tag, extra: [String: Any] = [:]) -> [String: Any] {
        [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true,
                kSecAttrApplicationTag as String: tag,
            ].merging(extra) { $1 },
        ]
    }

    static func findKey(tag: Data = tag, extra: [String: Any] = [:]) -> (OSStatus, SecKey?) {
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassKey,
            kSecAttrApplicationTag as String: tag,
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecReturnRef as String: true,
        ].merging(extra) { $1 }
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result as? SecKey)
    }

    @Test func aPermanentKeyIsFoundAgainAndSigns() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            var error: Unmanaged<CFError>?
            let created = try #require(SecKeyCreateRandomKey(Self.permanentKeyParameters() as CFDictionary, &error))
            let (status, found) = Self.findKey()
            #expect(status == errSecSuccess)
            let key = try #require(found)
            #expect(key == created)

            let message = Data("sign me".utf8) as CFData
            let signature = try #require(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil))
            let publicKey = try #require(SecKeyCopyPublicKey(created))
            #expect(SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message, signature, nil))

            // Only the private half was asked to be permanent.
            var attributes: CFTypeRef?
            let all: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(all as CFDictionary, &attributes) == errSecSuccess)
            let items = try #require(attributes as? [[String: Any]])
            #expect(items.count == 1)
            let item = try #require(items.first)
            #expect(item[kSecAttrKeyClass as String] as? Int == 1)
            #expect(item[kSecAttrKeyType as String] as? Int == 73)
            #expect(item[kSecAttrKeySizeInBits as String] as? Int == 256)
            #expect(item[kSecAttrApplicationTag as String] as? Data == Self.tag)
            let label =
                try #require(SecKeyCopyAttributes(created) as? [String: Any])[kSecAttrApplicationLabel as String]
                as? Data
            #expect(item[kSecAttrApplicationLabel as String] as? Data == label)

            // The same tag and label again is a duplicate; deleting by tag removes it.
            let again = SecItemAdd(
                [kSecValueRef as String: created, kSecAttrApplicationTag as String: Self.tag] as CFDictionary,
                nil
            )
            #expect(again == errSecDuplicateItem)
            #expect(
                SecItemDelete(
                    [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Self.tag] as CFDictionary
                ) == errSecSuccess
            )
            #expect(Self.findKey().0 == errSecItemNotFound)
        }
    }

    @Test func bothHalvesArePermanentWhenTheTopLevelSaysSo() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecAttrKeySizeInBits as String: 384,
                kSecAttrIsPermanent as String: true,
                kSecAttrLabel as String: "pair",
            ]
            let privateKey = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, nil))
            let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
            for (keyClass, expected) in [(kSecAttrKeyClassPrivate, privateKey), (kSecAttrKeyClassPublic, publicKey)] {
                var result: CFTypeRef?
                let query: [String: Any] = [
                    kSecClass as String: kSecClassKey, kSecAttrKeyClass as String: keyClass,
                    kSecAttrLabel as String: "pair", kSecReturnRef as String: true,
                ]
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
                #expect(result as? SecKey == expected)
            }
            // A search by reference finds that half only.
            #expect(SecItemCopyMatching([kSecValueRef as String: publicKey] as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemDelete([kSecValueRef as String: publicKey] as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching([kSecValueRef as String: publicKey] as CFDictionary, nil) == errSecItemNotFound)
            #expect(SecItemCopyMatching([kSecValueRef as String: privateKey] as CFDictionary, nil) == errSecSuccess)
        }
    }

    @Test func aPermanentRSAKeyIsFoundAgain() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 2048,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Self.tag,
                ],
            ]
            let created = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, nil))
            let (status, found) = Self.findKey(extra: [kSecAttrKeyType as String: kSecAttrKeyTypeRSA])
            #expect(status == errSecSuccess)
            #expect(found == created)
            var attributes: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Self.tag,
                kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &attributes) == errSecSuccess)
            #expect((attributes as? [String: Any])?[kSecAttrKeySizeInBits as String] as? Int == 2048)
        }
    }

    @Test func aDuplicateTagAndLabelFailsTheGenerationAndStoresNothingNew() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let key = try SecKeyTestSupport.makePrivateKey()
            #expect(
                SecItemAdd(
                    [kSecValueRef as String: key, kSecAttrApplicationTag as String: Self.tag] as CFDictionary,
                    nil
                ) == errSecSuccess
            )
            #expect(
                SecItemAdd(
                    [kSecValueRef as String: key, kSecAttrApplicationTag as String: Self.tag] as CFDictionary,
                    nil
                ) == errSecDuplicateItem
            )
            let outcome = SecKeyTestSupport.capture {
                SecKeyCreateRandomKey(Self.permanentKeyParameters() as CFDictionary, $0)
            }
            // A new key has a new label, so it is no duplicate: it is stored beside the first.
            #expect(outcome.result != nil)
            var result: CFTypeRef?
            let all: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [SecKey])?.count == 2)
        }
    }

    @Test func aBiometryProtectedKeyIsReleasedOnlyAfterAMatch() throws {
        let keychain = try TemporaryKeychain(passcode: "1234", biometry: .touchID, enrolled: ["right thumb"])
        try keychain.run {
            var error: Unmanaged<CFError>?
            let access = try #require(
                SecAccessControlCreateWithFlags(
                    nil,
                    kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                    [.biometryCurrentSet],
                    &error
                )
            )
            let extra: [String: Any] = [kSecAttrAccessControl as String: access]
            let created = try #require(
                SecKeyCreateRandomKey(Self.permanentKeyParameters(extra: extra) as CFDictionary, &error)
            )
            // Nobody to ask: not interactive. A finger that does not match: failed. A match: the key.
            #expect(Self.findKey().0 == errSecInteractionNotAllowed)
            try keychain.queueBiometricOutcomes([.nonMatch])
            #expect(Self.findKey().0 == errSecAuthFailed)
            try keychain.queueBiometricOutcomes([.match])
            let (status, found) = Self.findKey()
            #expect(status == errSecSuccess)
            #expect(found == created)
            // Its attributes alone (no key material) are also behind the access control, as for every protected item.
            let attributes: [String: Any] = [
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip, kSecReturnRef as String: false,
            ]
            #expect(Self.findKey(extra: attributes).0 == errSecItemNotFound)
        }
    }

    @Test func theStoredKeyIsNotOnDiskInTheClear() throws {
        let keychain = try TemporaryKeychain()
        let key = try SecKeyTestSupport.makePrivateKey()
        let external = try SecKeyTestSupport.externalRepresentation(key)
        let scalar = external.suffix(32)
        keychain.run {
            let add: [String: Any] = [kSecValueRef as String: key, kSecAttrApplicationTag as String: Self.tag]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            #expect(Self.findKey().0 == errSecSuccess)
        }
        for file in try FileManager.default.contentsOfDirectory(at: keychain.directory, includingPropertiesForKeys: nil)
        {
            let bytes = try Data(contentsOf: file)
            #expect(bytes.range(of: scalar) == nil, "\(file.lastPathComponent)")
            #expect(bytes.range(of: external.prefix(65)) == nil, "\(file.lastPathComponent)")
            #expect(bytes.range(of: Self.tag) == nil, "\(file.lastPathComponent)")
        }
    }
}
