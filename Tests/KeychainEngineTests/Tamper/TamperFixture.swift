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
import GRDB
import KeychainContract
import KeychainServices
import KeychainTestSupport
import KeychainTesting

@testable import KeychainCore
@testable import KeychainDevice
@testable import KeychainEngine

/// A keychain with three generic passwords and three internet passwords in different protection
/// classes, and the means to damage its rows directly in SQLite.
struct TamperFixture {
    nonisolated(unsafe) static let protections = [
        kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock,
        kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
    ]
    static let accounts = ["account-0", "account-1", "account-2"]

    let keychain: TemporaryKeychain

    init(passcode: String? = nil) throws {
        keychain = try TemporaryKeychain(passcode: passcode)
        try keychain.run {
            for (index, account) in Self.accounts.enumerated() {
                for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword] {
                    var item = Self.query(itemClass, account)
                    item[kSecValueData as String] = Self.secret(itemClass, account)
                    item[kSecAttrAccessible as String] = Self.protections[index]
                    item[kSecAttrLabel as String] = "label of \(account)"
                    guard SecItemAdd(item as CFDictionary, nil) == errSecSuccess else {
                        throw KeychainError(.io, "fixture item not added")
                    }
                }
            }
        }
    }

    static func query(_ itemClass: CFString, _ account: String) -> [String: Any] {
        var query: [String: Any] = [kSecClass as String: itemClass, kSecAttrAccount as String: account]
        if itemClass == kSecClassGenericPassword {
            query[kSecAttrService as String] = "tamper"
        } else {
            query[kSecAttrServer as String] = "tamper.example.invalid"
        }
        return query
    }

    static func secret(_ itemClass: CFString, _ account: String) -> Data {
        Data("secret of \(itemClass) \(account)".utf8)
    }

    static func itemClass(table: String) -> CFString {
        table == "genp" ? kSecClassGenericPassword : kSecClassInternetPassword
    }

    /// The secret of one item: success with its data, or the status.
    func read(_ itemClass: CFString, _ account: String, on device: Device? = nil) -> (OSStatus, Data?) {
        Device.withCurrent(device ?? keychain.device) {
            var query = Self.query(itemClass, account)
            query[kSecReturnData as String] = true
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            return (status, result as? Data)
        }
    }

    /// Every item of a class with its account and secret, as an all-items search returns them.
    func readAll(_ itemClass: CFString) -> (OSStatus, [String: Data]) {
        keychain.run {
            let query: [String: Any] = [
                kSecClass as String: itemClass,
                kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true,
                kSecReturnData as String: true,
            ]
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            var found: [String: Data] = [:]
            for item in (result as? [[String: Any]]) ?? [] {
                if let account = item[kSecAttrAccount as String] as? String,
                    let data = item[kSecValueData as String] as? Data
                {
                    found[account] = data
                }
            }
            return (status, found)
        }
    }

    // MARK: Damaging

    /// Runs raw SQL against the keychain's database.
    func write(_ body: @escaping (Database) throws -> Void) throws {
        try keychain.device.keychain.store.write { db throws(KeychainError) in
            do { try body(db) } catch { throw KeychainError(.io, "test tampering failed: \(error)") }
        }
    }

    func value(table: String, column: String, account: Int) throws -> DatabaseValue {
        try keychain.device.keychain.store.read { db throws(KeychainError) in
            do {
                return try DatabaseValue.fetchOne(
                    db,
                    sql: "SELECT \(column) FROM \(table) ORDER BY rowid LIMIT 1 OFFSET \(account)"
                )
                    ?? .null
            } catch {
                throw KeychainError(.io, "test read failed")
            }
        }
    }

    func set(table: String, column: String, account: Int, to value: (any DatabaseValueConvertible)?) throws {
        try write { db in
            try db.execute(
                sql:
                    "UPDATE \(table) SET \(column) = ? WHERE rowid = (SELECT rowid FROM \(table) ORDER BY rowid LIMIT 1 OFFSET \(account))",
                arguments: [value]
            )
        }
    }

    /// The stored columns of an item table (everything but `rowid`).
    static func columns(of table: String) -> [String] {
        guard let itemClass = ItemClass.storedClasses.first(where: { $0.tableName == table }) else {
            preconditionFailure("\(table) is not the table of a stored item class")
        }
        return RowSQL.of(itemClass).columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0 != "rowid" }
    }
}
