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

/// Code written for Apple platforms, `import Security` unchanged, builds and runs on Linux.
@Suite struct ImportSecurityTests {
    @Test func unmodifiedAppleCodeBuildsAndRuns() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Example",
                kSecAttrAccount as String: "me",
                kSecValueData as String: Data("secret password".utf8),
            ]
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecDuplicateItem)
            var item: CFTypeRef?
            let status = SecItemCopyMatching(
                [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "Example",
                    kSecReturnData as String: true,
                ] as CFDictionary,
                &item
            )
            #expect(status == noErr)
            #expect(item as? Data == Data("secret password".utf8))
            // keychain-swift style: AnyObject? through withUnsafeMutablePointer.
            var result: AnyObject?
            let again = withUnsafeMutablePointer(to: &result) {
                SecItemCopyMatching(
                    [kSecClass as String: kSecClassGenericPassword, kSecReturnAttributes as String: kCFBooleanTrue!]
                        as CFDictionary,
                    UnsafeMutablePointer($0)
                )
            }
            #expect(again == errSecSuccess)
            #expect((result as? [String: AnyHashable])?["acct"] as? String == "me")
        }
    }
}
