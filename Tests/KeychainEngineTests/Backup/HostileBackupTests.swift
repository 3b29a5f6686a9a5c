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
    private static func keychain(_ body: (Keychain) throws -> Void) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try body(try Keychain(directory: directory, accessGroups: .standard, passcodeKDF: .testing))
    }

    /// The stored item of `account`, as a record that would replace it.
    private static func record(replacing account: String, in keychain: Keychain) throws -> BackupItem {
        let query = try QueryParser.parse(["class": "genp", "acct": account, "r_Attributes": true], for: .copyMatching)
        let found = try #require(try keychain.search(query).first)
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
                accessControl: AccessControl(protection: .afterFirstUnlockThisDeviceOnly, flags: 0),
                attributes: [
                    "acct": .string("grant:com.evil.App"), "agrp": .string("default"),
                    "cdat": .date(Date()), "mdat": .date(Date()),
                ],
                secret: Data("*".utf8)
            )
            var registry = base
            registry.accessControl = AccessControl(protection: .afterFirstUnlock, flags: 0)
            registry.attributes["agrp"] = .string(ApplicationRegistry.recordsGroup)
            #expect(try keychain.restore([base, registry]) == [.refused(.invalidItem), .refused(.invalidItem)])
            let query = try QueryParser.parse(["class": "genp", "acct": "grant:com.evil.App"], for: .copyMatching)
            #expect(throws: KeychainError.self) { try keychain.search(query) }
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
        var token = good
        token.itemClass = .key
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
