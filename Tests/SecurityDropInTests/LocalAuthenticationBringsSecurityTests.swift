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
import LocalAuthentication
import Testing

/// `import LocalAuthentication` alone shows Security's API, as Apple's framework does (its headers
/// import Security): this file imports no Security module.
@Suite struct LocalAuthenticationBringsSecurityTests {
    @Test func securityIsVisibleThroughLocalAuthentication() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, [], nil)
            #expect(access != nil)
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "LA",
                kSecValueData as String: Data("x".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            #expect(LAContext().canEvaluatePolicy(.deviceOwnerAuthentication, error: nil) == false)
        }
    }
}
