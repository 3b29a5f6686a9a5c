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

/// What Apple's keychain does where real code relies on it, each with the Apple source that shows
/// it (issue 15, §1).
@Suite struct AppleItemBehaviourTests {
    static func genp(_ extra: [String: Any] = [:]) -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Parity"].merging(extra) { $1 }
    }

    /// `_SecItemDelete` refuses only a finite limit (`q_limit != kSecMatchUnlimited`); Apple's si-43
    /// and secitemcanarytest delete with `kSecMatchLimitAll` and `kSecReturnAttributes`.
    @Test func deleteWithMatchLimitAllAndAReturnKeyDeletesEveryMatch() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            for account in ["a", "b", "c"] {
                #expect(
                    SecItemAdd(
                        Self.genp([kSecAttrAccount as String: account, kSecValueData as String: Data(account.utf8)])
                            as CFDictionary,
                        nil
                    ) == errSecSuccess
                )
            }
            let delete = Self.genp([
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
                kSecReturnData as String: true,
            ])
            #expect(SecItemDelete(delete as CFDictionary) == errSecSuccess)
            #expect(SecItemCopyMatching(Self.genp() as CFDictionary, nil) == errSecItemNotFound)
            #expect(SecItemDelete(delete as CFDictionary) == errSecItemNotFound)
        }
    }

    /// Apple's si-80-empty-data.c: an item added without `kSecValueData` has no data, so a result
    /// with data and attributes has no `v_Data`; data alone is empty data.
    ///
    /// Empty data given is data.
    @Test func anItemAddedWithoutDataHasNone() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            #expect(SecItemAdd(Self.genp([kSecAttrAccount as String: "none"]) as CFDictionary, nil) == errSecSuccess)
            #expect(
                SecItemAdd(
                    Self.genp([kSecAttrAccount as String: "empty", kSecValueData as String: Data()]) as CFDictionary,
                    nil
                ) == errSecSuccess
            )
            func row(_ account: String) throws -> [String: Any] {
                var result: CFTypeRef?
                let query = Self.genp([
                    kSecAttrAccount as String: account, kSecMatchLimit as String: kSecMatchLimitAll,
                    kSecReturnData as String: true, kSecReturnAttributes as String: true,
                ])
                #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
                let rows = try #require(result as? [[String: Any]])
                #expect(rows.count == 1)
                return try #require(rows.first)
            }
            var none = try row("none")
            #expect(none[kSecValueData as String] == nil)
            #expect(none[kSecAttrService as String] as? String == "Parity")
            #expect(none[kSecAttrAccount as String] as? String == "none")
            // The engine's mark is nobody's attribute, and no query can name it.
            #expect(none.keys.allSatisfy { !$0.hasPrefix("@") })
            #expect(SecItemCopyMatching(Self.genp(["@absentData": true]) as CFDictionary, nil) == errSecParam)
            #expect(try row("empty")[kSecValueData as String] as? Data == Data())
            var result: CFTypeRef?
            #expect(
                SecItemCopyMatching(
                    Self.genp([kSecAttrAccount as String: "none", kSecReturnData as String: true]) as CFDictionary,
                    &result
                ) == errSecSuccess
            )
            #expect(result as? Data == Data())

            // Changing attributes keeps it without data; giving data gives it data.
            #expect(
                SecItemUpdate(
                    Self.genp([kSecAttrAccount as String: "none"]) as CFDictionary,
                    [kSecAttrLabel as String: "still none"] as CFDictionary
                ) == errSecSuccess
            )
            none = try row("none")
            #expect(none[kSecValueData as String] == nil && none[kSecAttrLabel as String] as? String == "still none")
            #expect(
                SecItemUpdate(
                    Self.genp([kSecAttrAccount as String: "none"]) as CFDictionary,
                    [kSecValueData as String: Data("now".utf8)] as CFDictionary
                ) == errSecSuccess
            )
            #expect(try row("none")[kSecValueData as String] as? Data == Data("now".utf8))
        }
    }

    /// `SecurityClientCopyWritableAccessGroups` (SecItemServer.c): `kSecAttrAccessGroupToken` is a
    /// group a process may read but never add to, change or delete in; new items go to the first
    /// writable group.
    @Test func theTokenGroupIsReadOnly() throws {
        let keychain = try TemporaryKeychain(accessGroups: [kSecAttrAccessGroupToken as String, "app"])
        keychain.run {
            let token: [String: Any] = [kSecAttrAccessGroup as String: kSecAttrAccessGroupToken]
            #expect(
                SecItemAdd(
                    Self.genp(token.merging([kSecValueData as String: Data("x".utf8)]) { $1 }) as CFDictionary,
                    nil
                ) == errSecMissingEntitlement
            )
            var result: CFTypeRef?
            let add = Self.genp([
                kSecAttrAccount as String: "mine", kSecValueData as String: Data("x".utf8),
                kSecReturnAttributes as String: true,
            ])
            #expect(SecItemAdd(add as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [String: Any])?[kSecAttrAccessGroup as String] as? String == "app")
            // Reading the token group is allowed (it is empty: nothing on Linux provides token items).
            #expect(SecItemCopyMatching(Self.genp(token) as CFDictionary, nil) == errSecItemNotFound)
            // Moving an item into it, or deleting in it, is refused.
            #expect(SecItemUpdate(Self.genp() as CFDictionary, token as CFDictionary) == errSecMissingEntitlement)
            #expect(SecItemDelete(Self.genp(token) as CFDictionary) == errSecMissingEntitlement)
            #expect(SecItemCopyMatching(Self.genp() as CFDictionary, nil) == errSecSuccess)
        }
        // Not even "*" writes it.
        let everything = try TemporaryKeychain(accessGroups: ["*"])
        everything.run {
            let add = Self.genp([
                kSecAttrAccessGroup as String: kSecAttrAccessGroupToken, kSecValueData as String: Data("x".utf8),
            ])
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecMissingEntitlement)
        }
    }

    /// SecItem.h says a `…ThisDeviceOnly` item "may not" be synchronizable, but neither `SecItem.m`
    /// nor `SecItemServer.c` checks the pair (KeychainAccess's iOS tests add one); the item stays here.
    @Test func aSynchronizableThisDeviceOnlyItemIsStored() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let add = Self.genp([
                kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
                kSecAttrSynchronizable as String: true,
                kSecValueData as String: Data("here".utf8),
            ])
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            let query = Self.genp([kSecAttrSynchronizable as String: true, kSecReturnAttributes as String: true])
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let attributes = try #require(result as? [String: Any])
            #expect(
                attributes[kSecAttrAccessible as String] as? String == kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                    as String
            )
            #expect(attributes[kSecAttrSynchronizable as String] as? Bool == true)
            // Not found as a non-synchronizable item, as any synchronizable one.
            #expect(SecItemCopyMatching(Self.genp() as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    /// An access control with constraints and synchronizable never go together: refused on add,
    /// and on an update that would make the pair — before anything is asked.
    @Test func anItemWithConstraintsCannotBecomeSynchronizable() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        try keychain.run {
            let access = try #require(
                SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .devicePasscode, nil)
            )
            #expect(
                SecItemAdd(
                    Self.genp([kSecAttrAccessControl as String: access, kSecValueData as String: Data("x".utf8)])
                        as CFDictionary,
                    nil
                ) == errSecSuccess
            )
            let change = [kSecAttrSynchronizable as String: true] as CFDictionary
            #expect(SecItemUpdate(Self.genp() as CFDictionary, change) == errSecParam)
            // A plain item may.
            #expect(
                SecItemAdd(
                    Self.genp([kSecAttrAccount as String: "plain", kSecValueData as String: Data("y".utf8)])
                        as CFDictionary,
                    nil
                ) == errSecSuccess
            )
            #expect(
                SecItemUpdate(Self.genp([kSecAttrAccount as String: "plain"]) as CFDictionary, change) == errSecSuccess
            )
        }
    }

    /// `kSecUseDataProtectionKeychain` is a flag of the call; among the attributes to update it is ignored.
    @Test func theDataProtectionFlagAmongTheChangesIsIgnored() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            #expect(
                SecItemAdd(Self.genp([kSecValueData as String: Data("old".utf8)]) as CFDictionary, nil) == errSecSuccess
            )
            let change =
                [kSecValueData as String: Data("new".utf8), kSecUseDataProtectionKeychain as String: true]
                as CFDictionary
            #expect(SecItemUpdate(Self.genp() as CFDictionary, change) == errSecSuccess)
            var result: CFTypeRef?
            #expect(
                SecItemCopyMatching(Self.genp([kSecReturnData as String: true]) as CFDictionary, &result)
                    == errSecSuccess
            )
            #expect(result as? Data == Data("new".utf8))
        }
    }

    /// `kSecMatchHostOrSubdomainOfHost` keeps the internet passwords whose server is the host or a
    /// subdomain of it (`SecItemServer.c`, `isHostOrSubdomainOfHost`); other classes are
    /// `errSecUnsupportedOperation` (`errSecUnimplemented`).
    @Test func hostOrSubdomainOfHostMatchesServers() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            for server in ["example.com", "www.example.com", "badexample.com", "example.com.evil.org"] {
                let add: [String: Any] = [
                    kSecClass as String: kSecClassInternetPassword, kSecAttrServer as String: server,
                    kSecAttrAccount as String: "me", kSecValueData as String: Data(server.utf8),
                ]
                #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            }
            let query: [String: Any] = [
                kSecClass as String: kSecClassInternetPassword, kSecMatchHostOrSubdomainOfHost as String: "example.com",
                kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let servers = Set(
                try #require(result as? [[String: Any]]).compactMap { $0[kSecAttrServer as String] as? String }
            )
            #expect(servers == ["example.com", "www.example.com"])
            var none = query
            none[kSecMatchHostOrSubdomainOfHost as String] = "example.net"
            #expect(SecItemCopyMatching(none as CFDictionary, &result) == errSecItemNotFound)
            none[kSecMatchHostOrSubdomainOfHost as String] = 42
            #expect(SecItemCopyMatching(none as CFDictionary, &result) == errSecParam)
            let genp = Self.genp([kSecMatchHostOrSubdomainOfHost as String: "example.com"])
            #expect(SecItemCopyMatching(genp as CFDictionary, &result) == errSecUnimplemented)
        }
    }

    /// Passwords have no reference type: `kSecReturnRef` alone gives no result (`SecItemResultCopyPrepared`
    /// makes a NULL reference), and with other return keys the dictionary is the one a reference is
    /// made from: every attribute, `kSecClass` and the data (`SecDbItemCopyResult`).
    @Test func returnRefOnAPasswordMakesNoReference() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            var result: CFTypeRef?
            let add = Self.genp([
                kSecAttrAccount as String: "me", kSecValueData as String: Data("pw".utf8),
                kSecReturnRef as String: true,
            ])
            #expect(SecItemAdd(add as CFDictionary, &result) == errSecSuccess)
            #expect(result == nil)
            #expect(
                SecItemCopyMatching(Self.genp([kSecReturnRef as String: true]) as CFDictionary, &result)
                    == errSecSuccess
            )
            #expect(result == nil)
            let all = Self.genp([kSecReturnRef as String: true, kSecMatchLimit as String: kSecMatchLimitAll])
            #expect(SecItemCopyMatching(all as CFDictionary, &result) == errSecSuccess)
            #expect((result as? [Any])?.isEmpty == true)

            let withAttributes = Self.genp([kSecReturnRef as String: true, kSecReturnAttributes as String: true])
            #expect(SecItemCopyMatching(withAttributes as CFDictionary, &result) == errSecSuccess)
            let dictionary = try #require(result as? [String: Any])
            #expect(dictionary[kSecClass as String] as? String == kSecClassGenericPassword as String)
            #expect(dictionary[kSecAttrAccount as String] as? String == "me")
            #expect(dictionary[kSecValueData as String] as? Data == Data("pw".utf8))
        }
    }

    /// Apple's secd-81-item-acl-stress.m ("delete local - AKPU", "… + prot odel"): right after the
    /// passcode was removed, deleting a `WhenPasscodeSetThisDeviceOnly` item — with its access
    /// control and data in the query, as the test passes them — succeeds; the rows go when next
    /// met (SecDbItem.c, an akpu item that no longer decrypts is "irrecoverably lost").
    @Test func aPasscodeOnlyItemDeletedRightAfterThePasscodeWasRemoved() throws {
        let keychain = try TemporaryKeychain()
        try keychain.device.setPasscode("1357")
        var error: Unmanaged<CFError>?
        let access = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .userPresence, &error)
        )
        func item(_ account: String) -> [String: Any] {
            Self.genp([
                kSecAttrAccount as String: account, kSecValueData as String: Data("pw".utf8),
                kSecAttrAccessControl as String: access,
            ])
        }
        keychain.run {
            for account in ["deleted", "found", "replaced", "updated", "labelled"] {
                #expect(SecItemAdd(item(account) as CFDictionary, nil) == errSecSuccess)
            }
            let other = Self.genp([kSecAttrAccount as String: "other", kSecValueData as String: Data("other".utf8)])
            #expect(SecItemAdd(other as CFDictionary, nil) == errSecSuccess)
        }
        try keychain.device.removePasscode(current: "1357")
        keychain.run {
            #expect(SecItemDelete(item("deleted") as CFDictionary) == errSecSuccess)
            #expect(SecItemDelete(item("deleted") as CFDictionary) == errSecItemNotFound)
            // Met by a search: gone, and not found (secd-81-item-acl.m, "do not find item with akpu").
            #expect(
                SecItemCopyMatching(Self.genp([kSecAttrAccount as String: "found"]) as CFDictionary, nil)
                    == errSecItemNotFound
            )
            #expect(
                SecItemDelete(Self.genp([kSecAttrAccount as String: "found"]) as CFDictionary) == errSecItemNotFound
            )
            // An update finds nothing to change; an add of the same primary key takes its place.
            let changes = [kSecAttrLabel as String: "new"] as CFDictionary
            #expect(
                SecItemUpdate(Self.genp([kSecAttrAccount as String: "updated"]) as CFDictionary, changes)
                    == errSecItemNotFound
            )
            // Another item may take a lost item's primary key.
            let rename = [kSecAttrAccount as String: "updated"] as CFDictionary
            #expect(
                SecItemUpdate(Self.genp([kSecAttrAccount as String: "other"]) as CFDictionary, rename) == errSecSuccess
            )
            // What is left of a lost item has no label to match: a delete that names one finds nothing.
            let labelled = Self.genp([kSecAttrAccount as String: "labelled", kSecAttrLabel as String: "a label"])
            #expect(SecItemDelete(labelled as CFDictionary) == errSecItemNotFound)
            #expect(
                SecItemDelete(Self.genp([kSecAttrAccount as String: "labelled"]) as CFDictionary) == errSecItemNotFound
            )
            let replacement = Self.genp([
                kSecAttrAccount as String: "replaced", kSecValueData as String: Data("new".utf8),
            ])
            #expect(SecItemAdd(replacement as CFDictionary, nil) == errSecSuccess)
            var result: CFTypeRef?
            let read = Self.genp([kSecAttrAccount as String: "replaced", kSecReturnData as String: true])
            #expect(SecItemCopyMatching(read as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("new".utf8))
        }
    }
}
