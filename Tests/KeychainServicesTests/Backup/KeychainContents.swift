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
import KeychainBackup
import KeychainServices
import KeychainTesting
import Testing

/// A keychain's items, as `SecItemCopyMatching` shows them, for comparing two keychains.
enum KeychainContents {
    static var classes: [CFString] {
        [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey]
    }

    /// Every item of every class: its attributes (without the access-control object, compared by
    /// its protection) and its data, one line each, sorted.
    static func lines() -> [String] {
        var lines: [String] = []
        for itemClass in classes {
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: itemClass, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true, kSecReturnData as String: true,
                kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip,
                kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            ]
            guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess,
                let items = result as? [[String: Any]]
            else { continue }
            for item in items {
                let fields = item.filter { $0.key != (kSecAttrAccessControl as String) }
                    .map { key, value in "\(key)=\(describe(value))" }
                    .sorted()
                lines.append("\(itemClass) " + fields.joined(separator: " "))
            }
        }
        return lines.sorted()
    }

    private static func describe(_ value: Any) -> String {
        switch value {
        case let data as Data: data.base64EncodedString()
        case let date as Date: String(date.timeIntervalSince1970)
        default: String(describing: value)
        }
    }

    /// The persistent reference of the generic password of `account`.
    static func persistentReference(of account: String) -> Data? {
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
            kSecReturnPersistentRef as String: true, kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ]
        guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess else { return nil }
        return result as? Data
    }

    /// The secret of the generic password of `account`.
    static func secret(of account: String, extra: [String: Any] = [:]) -> (OSStatus, String?) {
        var result: CFTypeRef?
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: account,
            kSecReturnData as String: true,
        ]
        query.merge(extra) { _, new in new }
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, (result as? Data).flatMap { String(data: $0, encoding: .utf8) })
    }

    /// Adds a generic password.
    static func addPassword(
        _ account: String,
        secret: String,
        service: String = "Backup",
        extra: [String: Any] = [:]
    ) -> OSStatus {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
            kSecAttrAccount as String: account, kSecValueData as String: Data(secret.utf8),
        ]
        query.merge(extra) { _, new in new }
        return SecItemAdd(query as CFDictionary, nil)
    }

    /// Every record of the backup at `url`, decrypted with `password`.
    static func records(of url: URL, password: String) throws -> [Data] {
        let bytes = try [UInt8](Data(contentsOf: url))
        var offset = 0
        var reader = try BackupReader(password: password) { count in
            let piece = Array(bytes[offset..<min(bytes.count, offset + count)])
            offset += piece.count
            return piece
        }
        var records: [Data] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }
}
