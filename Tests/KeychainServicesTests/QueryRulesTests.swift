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

/// Apple's rules for malformed and contradictory queries (apple-surface.md §1.3), table-driven.
@Suite struct QueryRulesTests {
    enum Call: String, CustomTestStringConvertible {
        case add, copyMatching, update, delete
        var testDescription: String { rawValue }
    }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let call: Call
        let query: @Sendable () -> [String: Any]
        let expected: OSStatus
        var testDescription: String { "\(name) → \(expected)" }
    }

    static var genp: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "rules",
            kSecAttrAccount as String: "me",
        ]
    }

    static func with(_ extra: [String: Any]) -> [String: Any] {
        genp.merging(extra) { $1 }
    }

    static let cases: [Case] = [
        Case(
            name: "no kSecClass",
            call: .copyMatching,
            query: { [kSecAttrService as String: "x"] },
            expected: errSecParam
        ),
        Case(
            name: "unknown class",
            call: .copyMatching,
            query: { [kSecClass as String: "nope"] },
            expected: errSecNoSuchClass
        ),
        Case(
            name: "unknown class on add",
            call: .add,
            query: { [kSecClass as String: "zzzz"] },
            expected: errSecNoSuchClass
        ),
        Case(
            name: "class not a string",
            call: .copyMatching,
            query: { [kSecClass as String: 42] },
            expected: errSecParam
        ),
        Case(name: "unknown key", call: .copyMatching, query: { with(["nonsense_key": "x"]) }, expected: errSecParam),
        Case(
            name: "attribute of another class",
            call: .add,
            query: { with([kSecAttrServer as String: "example.com"]) },
            expected: errSecNoSuchAttr
        ),
        Case(
            name: "wrong value type for a date",
            call: .copyMatching,
            query: { with([kSecAttrCreationDate as String: "today"]) },
            expected: errSecParam
        ),
        Case(
            name: "non-Boolean kSecReturnData",
            call: .copyMatching,
            query: { with([kSecReturnData as String: "yes"]) },
            expected: errSecParam
        ),
        Case(
            name: "kSecValueData not data",
            call: .add,
            query: { with([kSecValueData as String: "a string"]) },
            expected: errSecParam
        ),
        Case(
            name: "invalid kSecMatchLimit",
            call: .copyMatching,
            query: { with([kSecMatchLimit as String: "lots"]) },
            expected: errSecParam
        ),
        // A delete removes every match: only a finite limit is refused (SecItemServer.c, _SecItemDelete).
        Case(
            name: "kSecMatchLimitOne in delete",
            call: .delete,
            query: { with([kSecMatchLimit as String: kSecMatchLimitOne]) },
            expected: errSecParam
        ),
        Case(
            name: "numeric kSecMatchLimit in delete",
            call: .delete,
            query: { with([kSecMatchLimit as String: 5]) },
            expected: errSecParam
        ),
        Case(
            name: "other kSecMatch key in delete",
            call: .delete,
            query: { with([kSecMatchCaseInsensitive as String: true]) },
            expected: errSecParam
        ),
        Case(
            name: "kSecReturn in update",
            call: .update,
            query: { with([kSecReturnData as String: true]) },
            expected: errSecParam
        ),
        Case(
            name: "UISkip on add",
            call: .add,
            query: { with([kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]) },
            expected: errSecParam
        ),
        Case(
            name: "UISkip on update",
            call: .update,
            query: { with([kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]) },
            expected: errSecParam
        ),
        Case(
            name: "UISkip on delete",
            call: .delete,
            query: { with([kSecUseAuthenticationUI as String: kSecUseAuthenticationUISkip]) },
            expected: errSecParam
        ),
        Case(
            name: "unknown kSecUseAuthenticationUI",
            call: .copyMatching,
            query: { with([kSecUseAuthenticationUI as String: "maybe"]) },
            expected: errSecParam
        ),
        Case(
            name: "invalid kSecAttrAccessible",
            call: .add,
            query: { with([kSecAttrAccessible as String: "sometimes"]) },
            expected: errSecParam
        ),
        Case(
            name: "kSecAttrAccessControl not an access control",
            call: .add,
            query: { with([kSecAttrAccessControl as String: "ak"]) },
            expected: errSecParam
        ),
        Case(
            name: "access control disagrees with kSecAttrAccessible",
            call: .add,
            query: {
                with([
                    kSecAttrAccessible as String: kSecAttrAccessibleAlways,
                    kSecAttrAccessControl as String: SecAccessControlCreateWithFlags(
                        nil,
                        kSecAttrAccessibleWhenUnlocked,
                        [],
                        nil
                    ) as Any,
                ])
            },
            expected: errSecParam
        ),
        Case(
            name: "access control with constraints and synchronizable",
            call: .add,
            query: {
                with([
                    kSecAttrSynchronizable as String: true,
                    kSecAttrAccessControl as String: SecAccessControlCreateWithFlags(
                        nil,
                        kSecAttrAccessibleWhenUnlocked,
                        .userPresence,
                        nil
                    ) as Any,
                ])
            },
            expected: errSecParam
        ),
        Case(
            name: "kSecAttrSynchronizableAny on add",
            call: .add,
            query: { with([kSecAttrSynchronizable as String: kSecAttrSynchronizableAny]) },
            expected: errSecParam
        ),
        Case(
            name: "malformed persistent reference",
            call: .copyMatching,
            query: {
                [kSecClass as String: kSecClassGenericPassword, kSecValuePersistentRef as String: Data([1, 2, 3])]
            },
            expected: errSecParam
        ),
        Case(
            name: "kSecValuePersistentRef on add",
            call: .add,
            query: { with([kSecValuePersistentRef as String: Data(count: 20)]) },
            expected: errSecParam
        ),
        Case(name: "nothing matches (copy)", call: .copyMatching, query: { genp }, expected: errSecItemNotFound),
        Case(name: "nothing matches (update)", call: .update, query: { genp }, expected: errSecItemNotFound),
        Case(name: "nothing matches (delete)", call: .delete, query: { genp }, expected: errSecItemNotFound),
        Case(
            name: "kSecMatchLimit 0",
            call: .copyMatching,
            query: { with([kSecMatchLimit as String: 0]) },
            expected: errSecItemNotFound
        ),
        Case(
            name: "WhenPasscodeSetThisDeviceOnly without a passcode",
            call: .add,
            query: {
                with([
                    kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
                    kSecValueData as String: Data("x".utf8),
                ])
            },
            expected: errSecNotAvailable
        ),
        Case(
            name: "explicit access group not granted",
            call: .add,
            query: { with([kSecAttrAccessGroup as String: "com.other.app"]) },
            expected: errSecMissingEntitlement
        ),
        Case(
            name: "explicit access group not granted (search)",
            call: .copyMatching,
            query: { with([kSecAttrAccessGroup as String: "com.other.app"]) },
            expected: errSecMissingEntitlement
        ),
    ]

    @Test("Malformed queries get Apple's status", arguments: cases)
    func malformedQueryGetsApplesStatus(_ testCase: Case) throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            let query = testCase.query() as CFDictionary
            let status: OSStatus
            switch testCase.call {
            case .add: status = SecItemAdd(query, nil)
            case .copyMatching:
                var result: CFTypeRef?
                status = SecItemCopyMatching(query, &result)
            case .update: status = SecItemUpdate(query, [kSecAttrLabel as String: "x"] as CFDictionary)
            case .delete: status = SecItemDelete(query)
            }
            #expect(status == testCase.expected)
        }
    }

    /// Apple's client always hands securityd a result slot and drops the result when the caller's
    /// pointer is NULL (`SecItem.m`; `secd-01-items.m` adds with `kSecReturnData` and no result).
    @Test func returnKeyWithNullResultIsNotAnError() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            #expect(
                SecItemAdd(Self.with([kSecValueData as String: Data("x".utf8)]) as CFDictionary, nil) == errSecSuccess
            )
            #expect(
                SecItemCopyMatching(Self.with([kSecReturnData as String: true]) as CFDictionary, nil) == errSecSuccess
            )
            #expect(
                SecItemAdd(
                    Self.with([kSecAttrAccount as String: "2", kSecReturnData as String: true]) as CFDictionary,
                    nil
                ) == errSecSuccess
            )
            // The add happened; a search that finds nothing still says so.
            #expect(
                SecItemCopyMatching(Self.with([kSecAttrAccount as String: "2"]) as CFDictionary, nil) == errSecSuccess
            )
            #expect(
                SecItemCopyMatching(
                    Self.with([kSecAttrAccount as String: "3", kSecReturnData as String: true]) as CFDictionary,
                    nil
                ) == errSecItemNotFound
            )
        }
    }

    @Test func updatingTheClassIsErrSecNoSuchAttr() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            #expect(SecItemAdd(Self.genp as CFDictionary, nil) == errSecSuccess)
            let change = [kSecClass as String: kSecClassInternetPassword] as CFDictionary
            #expect(SecItemUpdate(Self.genp as CFDictionary, change) == errSecNoSuchAttr)
        }
    }

    @Test func badInputNeverDamagesStoredItems() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            #expect(
                SecItemAdd(Self.with([kSecValueData as String: Data("kept".utf8)]) as CFDictionary, nil)
                    == errSecSuccess
            )
            // Each malformed query through the call it is malformed for (a query bad for an update
            // may be a good delete: kSecReturnData in SecItemDelete is accepted, as Apple accepts it).
            for testCase in Self.cases where testCase.expected != errSecItemNotFound {
                switch testCase.call {
                case .delete: #expect(SecItemDelete(testCase.query() as CFDictionary) != errSecSuccess)
                case .update:
                    _ = SecItemUpdate(
                        testCase.query() as CFDictionary,
                        [kSecValueData as String: Data("changed".utf8)] as CFDictionary
                    )
                case .copyMatching, .add: break
                }
                // Bad attributes to change never change anything either.
                _ = SecItemUpdate(Self.genp as CFDictionary, [kSecValueData as String: "not data"] as CFDictionary)
            }
            var result: CFTypeRef?
            #expect(
                SecItemCopyMatching(Self.with([kSecReturnData as String: true]) as CFDictionary, &result)
                    == errSecSuccess
            )
            #expect(result as? Data == Data("kept".utf8))
        }
    }
}
