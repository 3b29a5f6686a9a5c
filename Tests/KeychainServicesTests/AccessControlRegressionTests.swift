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

/// Access control rules of Apple's `sec_acl_stress.c` (`tests()` 166–300) and `si-44-seckey-aks.m`
/// (`keychainTest` 446–482), over the four classes the stress test cycles through.
@Suite struct AccessControlRegressionTests {
    /// One item of each class, by attributes only, as the stress test makes them.
    static var items: [[String: Any]] {
        [
            [
                kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: "acl-stress",
                kSecAttrAccount as String: "a",
            ],
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "acl-stress",
                kSecAttrAccount as String: "a",
            ],
            [kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: Data("acl-stress".utf8)],
            [kSecClass as String: kSecClassCertificate, kSecAttrSerialNumber as String: Data([1, 2, 3])],
        ]
    }

    static func accessControl(_ flags: SecAccessControlCreateFlags) throws -> SecAccessControl {
        try #require(SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, nil))
    }

    /// sec_acl_stress.c 249–252 (SecItem.m: add and update only): a synchronizable item cannot have
    /// an access control, whatever its flags; a search for one finds nothing.
    @Test func aSynchronizableItemHasNoAccessControl() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        try keychain.run {
            for flags: SecAccessControlCreateFlags in [[], .userPresence, .devicePasscode] {
                let access = try Self.accessControl(flags)
                for item in Self.items {
                    var synchronized = item
                    synchronized[kSecAttrSynchronizable as String] = true
                    synchronized[kSecAttrAccessControl as String] = access
                    #expect(
                        SecItemAdd(synchronized as CFDictionary, nil) == errSecParam,
                        "\(item[kSecClass as String] ?? "")"
                    )
                    #expect(SecItemCopyMatching(synchronized as CFDictionary, nil) == errSecItemNotFound)
                }
            }
            // Nor may an update give one to a synchronizable item.
            let password: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "synced",
                kSecAttrSynchronizable as String: true,
            ]
            #expect(SecItemAdd(password as CFDictionary, nil) == errSecSuccess)
            let change: [String: Any] = [
                kSecAttrSynchronizable as String: true, kSecAttrAccessControl as String: try Self.accessControl([]),
            ]
            #expect(SecItemUpdate(password as CFDictionary, change as CFDictionary) == errSecParam)
        }
    }

    /// sec_acl_stress.c 254–266: private-key usage on an item that is not a token's key — a
    /// software key included — cannot be satisfied: the add fails with errSecAuthFailed.
    @Test func privateKeyUsageNeedsATokenKey() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        try keychain.run {
            for flags: SecAccessControlCreateFlags in [.privateKeyUsage, [.devicePasscode, .privateKeyUsage]] {
                let access = try Self.accessControl(flags)
                for item in Self.items {
                    var protected = item
                    protected[kSecAttrAccessControl as String] = access
                    #expect(
                        SecItemAdd(protected as CFDictionary, nil) == errSecAuthFailed,
                        "\(item[kSecClass as String] ?? "")"
                    )
                }
            }
        }
    }

    /// si-44-seckey-aks.m 446–482 with the Secure Enclave: a permanent key with private-key usage,
    /// in the caller's access group, found by its label, signs, and is deleted by the same query.
    @Test func si44_aPermanentEnclaveKeyIsFoundUsedAndDeleted() throws {
        let keychain = try TemporaryKeychain(accessGroups: ["com.example.si44"], passcode: "1234")
        try keychain.run {
            let access = try Self.accessControl(.privateKeyUsage)
            let parameters: [String: Any] = [
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrAccessControl as String: access, kSecAttrIsPermanent as String: true,
                    kSecAttrLabel as String: "si_44_seckey_aks_1", kSecAttrAccessGroup as String: "com.example.si44",
                ],
            ]
            var error: Unmanaged<CFError>?
            let made = SecKeyCreateRandomKey(parameters as CFDictionary, &error)
            #expect(made != nil, "\(String(describing: error?.takeRetainedValue()))")
            let publicKey = try #require(made.flatMap(SecKeyCopyPublicKey))
            let query: [String: Any] = [
                kSecReturnRef as String: true, kSecClass as String: kSecClassKey,
                kSecAttrLabel as String: "si_44_seckey_aks_1",
            ]
            var found: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            let key = try #require(found as? SecKey)
            let message = Data("message".utf8) as CFData
            let signature = try #require(
                SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, message, nil) as Data?
            )
            #expect(
                SecKeyVerifySignature(publicKey, .ecdsaSignatureMessageX962SHA256, message, signature as CFData, nil)
            )
            #expect(SecItemDelete(query as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(query as CFDictionary, nil) == errSecItemNotFound)
        }
    }
}
