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
import KeychainContract
import Testing

@testable import KeychainCore
@testable import KeychainEngine

/// A backup sealed under a password its maker knows is hostile input: what a restore of such a
/// file may change, and what it may not.
@Suite struct HostileBackupTests {
    /// A keychain that sees every group, the daemon's records of apps' grants included.
    private static func keychain(_ body: (Keychain) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let groups = AccessGroups(["default", ApplicationRegistry.recordsGroup])
        try body(try Keychain(directory: directory, accessGroups: groups, passcodeKDF: .testing))
    }

    /// The stored item of `account`, as a record that would replace it.
    private static func record(
        replacing account: String,
        in keychain: Keychain,
        credentials: AuthenticationCredentials = AuthenticationCredentials()
    ) throws -> BackupItem {
        let query = try QueryParser.parse(["class": "genp", "acct": account, "r_Attributes": true], for: .copyMatching)
        let found = try #require(try keychain.search(query, credentials: credentials).first)
        return BackupItem(
            itemClass: .genericPassword,
            identifier: Data((0..<16).map { _ in UInt8.random(in: 0...255) }),
            accessControl: AccessControl(protection: .whenUnlocked, flags: 0),
            attributes: found.attributes.filter { ["acct", "svce", "agrp", "cdat", "mdat"].contains($0.key) },
            secret: Data("planted".utf8)
        )
    }

    private static func secret(of account: String, in keychain: Keychain) throws -> Data? {
        let query = try QueryParser.parse(["class": "genp", "acct": account, "r_Data": true], for: .copyMatching)
        return try keychain.search(query).first?.data
    }

    @Test func aFarFutureDateCountsAsNow() throws {
        try Self.keychain { keychain in
            _ = try keychain.add(
                try QueryParser.parse(["class": "genp", "acct": "victim", "v_Data": Data("mine".utf8)], for: .add)
            )
            var planted = try Self.record(replacing: "victim", in: keychain)
            planted.attributes["mdat"] = .date(Date(timeIntervalSince1970: 4_000_000_000))
            #expect(try keychain.restore([planted]) == [.replaced])
            let query = try QueryParser.parse(
                ["class": "genp", "acct": "victim", "r_Attributes": true],
                for: .copyMatching
            )
            guard case .date(let stored)? = try keychain.search(query).first?.attributes["mdat"] else {
                Issue.record("no modification date")
                return
            }
            // Stored as now: the item it wrote can be replaced by the user's next change.
            #expect(stored <= Date())
        }
    }

    @Test func whatABackupLeavesOnTheDeviceIsNeverReplaced() throws {
        try Self.keychain { keychain in
            let local = try QueryParser.parse(
                ["class": "genp", "acct": "local", "pdmn": "aku", "v_Data": Data("device only".utf8)],
                for: .add
            )
            _ = try keychain.add(local)
            var planted = try Self.record(replacing: "local", in: keychain)
            planted.attributes["mdat"] = .date(Date())  // newer than the item here
            let outcome = try keychain.restore([planted])
            #expect(outcome == [.kept], "\(outcome)")
            #expect(try Self.secret(of: "local", in: keychain) == Data("device only".utf8))
        }
    }

    @Test func recordsNoBackupWritesAreRefused() throws {
        try Self.keychain { keychain in
            let base = BackupItem(
                itemClass: .genericPassword,
                identifier: Data(repeating: 7, count: 16),
                accessControl: AccessControl(protection: .afterFirstUnlock, flags: 0),
                attributes: [
                    "acct": .string("grant:com.evil.App"), "agrp": .string("default"), "cdat": .date(Date()),
                    "mdat": .date(Date()),
                ],
                secret: Data("*".utf8)
            )
            var deviceOnly = base
            deviceOnly.accessControl = AccessControl(protection: .afterFirstUnlockThisDeviceOnly, flags: 0)
            var registry = base
            registry.attributes["agrp"] = .string(ApplicationRegistry.recordsGroup)
            var token = base
            token.attributes["agrp"] = .string(AccessGroups.readOnly[0])
            var fingers = base
            fingers.accessControl = AccessControl(protection: .whenUnlocked, flags: AccessControl.biometryCurrentSet)
            let outcomes = try keychain.restore([deviceOnly, registry, token, fingers])
            #expect(outcomes == Array(repeating: .refused(.invalidItem), count: 4))
            // The same record, in an ordinary group, is restored: the refusals are the rules, not the record.
            #expect(try keychain.restore([base]) == [.added])
            for group in ["default", ApplicationRegistry.recordsGroup] {
                let query = try QueryParser.parse(
                    ["class": "genp", "acct": "grant:com.evil.App", "agrp": group, "m_Limit": "m_LimitAll"],
                    for: .copyMatching
                )
                let found = Result { () throws(KeychainError) in try keychain.search(query) }
                #expect((try? found.get().count) == (group == "default" ? 1 : nil))
            }
        }
    }

    @Test func anApplicationPasswordItemIsNeverReplaced() throws {
        try Self.keychain { keychain in
            var add = try QueryParser.parse(
                ["class": "genp", "acct": "guarded", "v_Data": Data("behind a password".utf8)],
                for: .add
            )
            add.accessControl = AccessControl(protection: .whenUnlocked, flags: AccessControl.applicationPassword)
            var credentials = AuthenticationCredentials()
            credentials.applicationPassword = ApplicationPassword(Data("app password".utf8))
            _ = try keychain.add(add, credentials: credentials)
            var planted = try Self.record(replacing: "guarded", in: keychain, credentials: credentials)
            planted.attributes["mdat"] = .date(Date())
            #expect(try keychain.restore([planted]) == [.kept])
            let read = try QueryParser.parse(["class": "genp", "acct": "guarded", "r_Data": true], for: .copyMatching)
            #expect(try keychain.search(read, credentials: credentials).first?.data == Data("behind a password".utf8))
        }
    }

    @Test func aFutureCreationDateCountsAsNowToo() throws {
        try Self.keychain { keychain in
            let record = BackupItem(
                itemClass: .genericPassword,
                identifier: Data(repeating: 9, count: 16),
                accessControl: AccessControl(protection: .whenUnlocked, flags: 0),
                attributes: [
                    "acct": .string("dated"), "agrp": .string("default"),
                    "cdat": .date(Date(timeIntervalSince1970: 4_000_000_000)),
                    "mdat": .date(Date(timeIntervalSince1970: 0)),
                ],
                secret: Data("x".utf8)
            )
            #expect(try keychain.restore([record]) == [.added])
            let query = try QueryParser.parse(
                ["class": "genp", "acct": "dated", "r_Attributes": true],
                for: .copyMatching
            )
            let attributes = try #require(try keychain.search(query).first?.attributes)
            guard case .date(let created)? = attributes["cdat"], case .date(let modified)? = attributes["mdat"] else {
                Issue.record("no dates")
                return
            }
            #expect(created <= Date())
            #expect(modified == Date(timeIntervalSince1970: 0))
        }
    }

    @Test func malformedRecordsDoNotDecode() throws {
        let good = BackupItem(
            itemClass: .genericPassword,
            identifier: Data(repeating: 1, count: 16),
            accessControl: AccessControl(protection: .whenUnlocked, flags: 0),
            attributes: [
                "acct": .string("a"), "agrp": .string("default"), "cdat": .date(Date()), "mdat": .date(Date()),
            ],
            secret: Data("s".utf8)
        )
        #expect(throws: Never.self) { try BackupItem(decoding: good.encoded()) }
        var variants: [BackupItem] = []
        var notANumber = good
        notANumber.attributes["mdat"] = .date(Date(timeIntervalSince1970: .nan))
        variants.append(notANumber)
        var key = good
        key.itemClass = .key
        key.attributes = [
            "labl": .string("k"), "agrp": .string("default"), "cdat": .date(Date()), "mdat": .date(Date()),
        ]
        #expect(throws: Never.self) { try BackupItem(decoding: key.encoded()) }  // a key record decodes
        var token = key
        token.attributes[QueryKey.tokenID] = .string(TokenID.secureEnclave)
        variants.append(token)
        var unknown = good
        unknown.attributes["zzzz"] = .string("?")
        variants.append(unknown)
        var undated = good
        undated.attributes["cdat"] = nil
        variants.append(undated)
        var mark = good
        mark.attributes[StoredItem.publicKeyMark] = .data(Data([4]))
        variants.append(mark)
        for variant in variants {
            #expect(throws: KeychainError.self) { try BackupItem(decoding: variant.encoded()) }
        }
        var shortIdentifier = good
        shortIdentifier.identifier = Data([1])
        #expect(throws: KeychainError.self) { try BackupItem(decoding: shortIdentifier.encoded()) }
    }
}
