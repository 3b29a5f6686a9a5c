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

/// The items of the stress runs: generic passwords of one service, whose label names the version
/// of their secret, so that a reader can tell a whole item from a half-written one.
struct StressItems {
    /// The service of every item of a run.
    var service: String
    /// The protection class of every item, or `nil` to cycle through ``protections``.
    var protection: CFString?

    /// The protection classes the items cycle through: passcode-protected, after-first-unlock and
    /// passcode-only, so that a passcode change touches every kind of class key.
    nonisolated(unsafe) static let protections: [CFString] = [
        kSecAttrAccessibleWhenUnlocked,
        kSecAttrAccessibleAfterFirstUnlock,
        kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
    ]

    func account(_ key: Int) -> String { "item-\(key)" }

    /// The secret of `key` at `version`: derived, never stored, 1 to 3,000 bytes (long ones span
    /// SQLite overflow pages).
    static func secret(_ key: Int, version: UInt64) -> Data {
        var generator = SplitMix64(seed: version &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(key))
        let length = 1 + Int(generator.next() % 3_000)
        var bytes = [UInt8]()
        bytes.reserveCapacity(length + 8)
        while bytes.count < length {
            withUnsafeBytes(of: generator.next()) { bytes.append(contentsOf: $0) }
        }
        return Data(bytes.prefix(length))
    }

    static func label(version: UInt64) -> String { "v\(version)" }

    private func query(_ key: Int) -> [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account(key),
        ]
    }

    func add(_ key: Int, version: UInt64) -> OSStatus {
        var attributes = query(key)
        attributes[kSecAttrAccessible as String] = protection ?? Self.protections[key % Self.protections.count]
        attributes[kSecAttrLabel as String] = Self.label(version: version)
        attributes[kSecValueData as String] = Self.secret(key, version: version)
        return SecItemAdd(attributes as CFDictionary, nil)
    }

    /// Replaces the secret and the label together: one update, so both or neither change.
    func update(_ key: Int, version: UInt64) -> OSStatus {
        let changes: [String: Any] = [
            kSecAttrLabel as String: Self.label(version: version),
            kSecValueData as String: Self.secret(key, version: version),
        ]
        return SecItemUpdate(query(key) as CFDictionary, changes as CFDictionary)
    }

    func delete(_ key: Int) -> OSStatus {
        SecItemDelete(query(key) as CFDictionary)
    }

    /// The secret of one item, or the status that prevented reading it.
    func read(_ key: Int) -> (OSStatus, Data?) {
        var query = query(key)
        query[kSecReturnData as String] = true
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result as? Data)
    }

    /// What a reader finds: each item's version, or a description of what is wrong with it.
    enum Listing {
        case items([Int: UInt64])
        case damaged(String)
        case failed(OSStatus)
    }

    /// Every item of the service with its attributes and secret, checked whole: the label's
    /// version must be the secret's.
    func list() -> Listing {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
        ]
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return .items([:]) }
        guard status == errSecSuccess else { return .failed(status) }
        guard let rows = result as? [[String: Any]] else { return .damaged("the result is not a list of items") }
        var items: [Int: UInt64] = [:]
        for row in rows {
            guard let account = row[kSecAttrAccount as String] as? String,
                account.hasPrefix("item-"), let key = Int(account.dropFirst(5)),
                let label = row[kSecAttrLabel as String] as? String,
                label.hasPrefix("v"), let version = UInt64(label.dropFirst()),
                let data = row[kSecValueData as String] as? Data
            else { return .damaged("an item lacks its account, label or data") }
            guard data == Self.secret(key, version: version) else {
                return .damaged("item \(key): the secret is not the one of its label's version \(version)")
            }
            guard items.updateValue(version, forKey: key) == nil else {
                return .damaged("item \(key) is there twice")
            }
        }
        return .items(items)
    }
}
