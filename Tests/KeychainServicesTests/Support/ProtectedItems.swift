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
import LocalAuth

/// Adds and reads generic passwords with access control, the way the seed articles do.
enum ProtectedItems {
    static func add(
        _ account: String,
        flags: SecAccessControlCreateFlags,
        protection: CFString = kSecAttrAccessibleWhenUnlocked,
        secret: String = "secret",
        extra: [String: Any] = [:]
    ) -> OSStatus {
        guard let access = SecAccessControlCreateWithFlags(nil, protection, flags, nil) else { return errSecParam }
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Example",
            kSecAttrAccount as String: account,
            kSecValueData as String: Data(secret.utf8),
            kSecAttrAccessControl as String: access,
        ]
        query.merge(extra) { _, new in new }
        return SecItemAdd(query as CFDictionary, nil)
    }

    /// Reads the secret of `account`; `extra` adds query keys (a context, a UI policy).
    static func read(_ account: String, extra: [String: Any] = [:]) -> (OSStatus, String?) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Example",
            kSecAttrAccount as String: account,
            kSecReturnData as String: true,
            kSecMatchLimit as String: kSecMatchLimitOne,
            kSecUseOperationPrompt as String: "Authenticate to read \(account)",
        ]
        query.merge(extra) { _, new in new }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, (result as? Data).flatMap { String(data: $0, encoding: .utf8) })
    }

    /// The accounts an attributes-only search over every item returns.
    static func accounts(extra: [String: Any] = [:]) -> (OSStatus, [String]) {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecReturnAttributes as String: true,
            kSecMatchLimit as String: kSecMatchLimitAll,
        ]
        query.merge(extra) { _, new in new }
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        let items = (result as? [[String: Any]]) ?? []
        return (status, items.compactMap { $0[kSecAttrAccount as String] as? String }.sorted())
    }

    static func update(_ account: String, secret: String, extra: [String: Any] = [:]) -> OSStatus {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Example",
            kSecAttrAccount as String: account,
        ]
        query.merge(extra) { _, new in new }
        return SecItemUpdate(query as CFDictionary, [kSecValueData as String: Data(secret.utf8)] as CFDictionary)
    }

    static func delete(_ account: String) -> OSStatus {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Example",
            kSecAttrAccount as String: account,
        ]
        return SecItemDelete(query as CFDictionary)
    }

    /// Evaluates `policy` on `context` and returns the `LAError` code, or `nil` on success.
    static func evaluate(_ context: LAContext, _ policy: LAPolicy) async -> LAError.Code? {
        do {
            _ = try await context.evaluatePolicy(policy, localizedReason: "test")
            return nil
        } catch let error as LAError {
            return error.code
        } catch {
            return nil
        }
    }
}
