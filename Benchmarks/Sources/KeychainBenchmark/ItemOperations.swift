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

/// The peers' four operations on one generic password, through the public `SecItem*` API.
struct ItemOperations: Sendable {
    let workload: Workload

    private func key(_ index: Int) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: workload.service(index),
            kSecAttrAccount as String: workload.account(index),
        ]
    }

    /// `SecItemAdd` with the secret of generation 0; whether it returned `errSecSuccess`.
    func store(_ index: Int, extra: [String: Any] = [:]) -> Bool {
        var query = key(index)
        query[kSecValueData as String] = workload.secret(index)
        query.merge(extra) { _, new in new }
        return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
    }

    /// `SecItemCopyMatching` by service and account returning the data; whether the data is
    /// `generation`'s secret.
    func lookup(_ index: Int, generation: UInt64 = 0, extra: [String: Any] = [:]) -> Bool {
        var query = key(index)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query.merge(extra) { _, new in new }
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return false }
        return result as? Data == workload.secret(index, generation: generation)
    }

    /// `SecItemUpdate` of the secret to `generation`'s.
    func update(_ index: Int, generation: UInt64 = 1) -> Bool {
        let changes = [kSecValueData as String: workload.secret(index, generation: generation)]
        return SecItemUpdate(key(index) as CFDictionary, changes as CFDictionary) == errSecSuccess
    }

    /// `SecItemDelete` of the item.
    func delete(_ index: Int) -> Bool {
        SecItemDelete(key(index) as CFDictionary) == errSecSuccess
    }

    /// Attributes of every item that `query` matches (`kSecMatchLimitAll`); how many came back.
    static func attributes(matching query: [String: Any]) -> Int {
        var query = query
        query[kSecClass as String] = kSecClassGenericPassword
        query[kSecReturnAttributes as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitAll
        var result: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return 0 }
        return (result as? [[String: Any]])?.count ?? 0
    }
}
