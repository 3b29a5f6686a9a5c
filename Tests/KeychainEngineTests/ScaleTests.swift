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
import Testing

@testable import KeychainCore
@testable import KeychainEngine

/// Look-ups by primary attributes are index seeks, never scans of every row.
@Suite struct ScaleTests {
    @Test(arguments: [
        "SELECT * FROM genp WHERE svce = ? AND acct = ? ORDER BY rowid",
        "SELECT * FROM genp WHERE acct = ? ORDER BY rowid",
        "SELECT * FROM inet WHERE srvr = ? ORDER BY rowid",
        "SELECT * FROM genp WHERE uuid = ? ORDER BY rowid",
        // One alternative per look-up tier (device, protected), as the engine's searches are built.
        "SELECT * FROM genp WHERE ((agrp IN (?) AND svce = ? AND acct = ?) OR (agrp IN (?) AND svce = ? AND acct = ?)) ORDER BY rowid",
    ])
    func primaryAttributeLookUpsUseAnIndex(sql: String) throws {
        let keychain = try TemporaryKeychain()
        let plan = try keychain.device.keychain.store.read { db throws(KeychainError) in
            do {
                return try Row.fetchAll(
                    db,
                    sql: "EXPLAIN QUERY PLAN " + sql,
                    arguments: StatementArguments(Array(repeating: Data(), count: sql.filter { $0 == "?" }.count))
                )
                .compactMap { $0["detail"] as String? }
                .joined(separator: "; ")
            } catch {
                throw KeychainError(.io, "plan failed")
            }
        }
        #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(plan)")
    }

    @Test func twoThousandItemsStayFastToFind() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            for index in 0..<2_000 {
                let item: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword,
                    kSecAttrService as String: "scale-svc-\(index)",
                    kSecAttrAccount as String: "user\(index)@example.invalid",
                    kSecValueData as String: Data(repeating: UInt8(index % 251), count: 64),
                ]
                #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
            }
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "scale-svc-1234",
                kSecAttrAccount as String: "user1234@example.invalid",
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data(repeating: UInt8(1234 % 251), count: 64))
        }
    }

    @Test func manyThreadsShareOneKeychain() async throws {
        let keychain = try TemporaryKeychain()
        await keychain.run {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for index in 0..<25 {
                            let item: [String: Any] = [
                                kSecClass as String: kSecClassGenericPassword,
                                kSecAttrService as String: "threads",
                                kSecAttrAccount as String: "w\(worker)-\(index)",
                                kSecValueData as String: Data("\(worker)-\(index)".utf8),
                            ]
                            #expect(SecItemAdd(item as CFDictionary, nil) == errSecSuccess)
                        }
                    }
                }
            }
            var result: CFTypeRef?
            let all: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "threads",
                kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [Data])?.count == 200)
        }
    }
}
