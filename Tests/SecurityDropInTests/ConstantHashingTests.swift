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
import KeychainTesting
import Security
import Testing

/// The `kSec…` constants stand for their strings in `AnyHashable`, as `CFString`s do on Apple
/// platforms, and stay `NSString`s in every other way.
@Suite struct ConstantHashingTests {
    @Test func constantsHashAsTheirStrings() {
        #expect(AnyHashable(kSecAttrAccount) == AnyHashable("acct"))
        #expect(AnyHashable(kSecClassGenericPassword) == AnyHashable("genp"))
        #expect(AnyHashable(kSecAttrAccount).hashValue == AnyHashable("acct").hashValue)
        let keys: Set<AnyHashable> = [kSecAttrService, kSecAttrAccount]
        #expect(keys.contains("svce") && keys.contains(AnyHashable("acct")))
        // And are NSStrings all the same.
        #expect(kSecAttrAccount as String == "acct")
        #expect(kSecAttrAccount.isEqual("acct"))
        #expect(kSecAttrAccount.hash == ("acct" as NSString).hash)
        #expect(kSecAttrAccount.length == 4 && kSecAttrAccount.description == "acct")
        #expect(kSecAttrAccount === kSecAttrAccount)
        let key: CFString = kSecAttrService
        switch key {
        case kSecAttrAccount: Issue.record("switch matched the wrong constant")
        case kSecAttrService: break
        default: Issue.record("switch matched no constant")
        }
        #expect(
            NSDictionary(dictionary: [kSecClass: kSecClassGenericPassword]).isEqual(
                NSDictionary(dictionary: ["class": "genp"])
            )
        )
    }

    /// What SwiftKeychainWrapper and SimpleKeychain do: index a result by the constants.
    @Test func resultsAreIndexedByTheConstants() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let add: [AnyHashable: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "Hashing", kSecAttrAccount: "me",
                kSecValueData: Data("secret".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let query: [AnyHashable: Any] = [
                kSecClass: kSecClassGenericPassword, kSecAttrService: "Hashing",
                kSecReturnAttributes: kCFBooleanTrue as Any, kSecReturnData: true, kSecMatchLimit: kSecMatchLimitAll,
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let items = try #require(result as? [[AnyHashable: Any]])
            #expect(items.count == 1)
            #expect(items.first?[kSecAttrAccount] as? String == "me")
            #expect(items.first?[kSecValueData] as? Data == Data("secret".utf8))
            #expect(items.first?[kSecAttrAccessible] as? String == kSecAttrAccessibleWhenUnlocked as String)
        }
    }
}
