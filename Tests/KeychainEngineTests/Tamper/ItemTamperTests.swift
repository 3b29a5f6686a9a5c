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

/// Every stored column of an item row, damaged every way: the item is refused (skipped, as Apple
/// skips an item it cannot decrypt), every other item stays readable with its own secret, and a
/// new item can take the damaged one's place.
@Suite struct ItemTamperTests {
    static let targets: [String] = ["genp", "inet"].flatMap { table in
        TamperFixture.columns(of: table).map { "\(table).\($0)" }
    }

    @Test(arguments: targets)
    func damagedColumnRefusesOnlyThatItem(target: String) throws {
        let (table, column) = Self.split(target)
        for damage in Damage.allCases {
            let fixture = try TamperFixture()
            let original = try fixture.value(table: table, column: column, account: 0)
            guard let blob = Data.fromDatabaseValue(original) else {
                Issue.record("\(target) is not a blob")
                return
            }
            try fixture.set(table: table, column: column, account: 0, to: damage.apply(to: blob))
            try Self.expectOnlyDamaged([0], in: table, fixture: fixture, "\(target) \(damage)")
            try Self.expectReplaceable(0, in: table, fixture: fixture, "\(target) \(damage)")
            // What the engine said of it names the class, never the item's account or secret.
            #expect(
                fixture.keychain.log.lines.contains { $0.metadata["keychain.item.class"] == table },
                "\(target) \(damage)"
            )
            for line in fixture.keychain.log.lines {
                let text = line.message + line.metadata.map { "\($0.key)=\($0.value)" }.joined()
                #expect(
                    !text.contains("account-") && !text.contains("secret of") && !text.contains("tamper"),
                    "\(target) \(damage)"
                )
            }
        }
    }

    /// Swapping one column between two items damages both; neither shows the other's secret.
    @Test(arguments: targets)
    func swappedColumnRefusesBothItems(target: String) throws {
        let (table, column) = Self.split(target)
        let fixture = try TamperFixture()
        let first = try fixture.value(table: table, column: column, account: 0)
        let second = try fixture.value(table: table, column: column, account: 1)
        // Items of one service share that column's hash: swapping equal values changes nothing.
        guard first != second else { return }
        // Through a placeholder: `uuid` and `pkey` are UNIQUE.
        try fixture.set(table: table, column: column, account: 0, to: Data([0xFF]))
        try fixture.set(table: table, column: column, account: 1, to: first)
        try fixture.set(table: table, column: column, account: 0, to: second)
        try Self.expectOnlyDamaged([0, 1], in: table, fixture: fixture, "\(target) swapped")
    }

    /// Whole rows swapped between two items (every column but the row id): each row stays intact,
    /// so each item is read with its own secret under its own attributes.
    @Test func swappedWholeRowsAreReadAsTheirOwnItems() throws {
        let fixture = try TamperFixture()
        let columns = TamperFixture.columns(of: "genp")
        try fixture.write { db in
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT rowid, \(columns.joined(separator: ", ")) FROM genp ORDER BY rowid LIMIT 2"
            )
            try db.execute(
                sql: "DELETE FROM genp WHERE rowid IN (?, ?)",
                arguments: [rows[0]["rowid"], rows[1]["rowid"]]
            )
            for (row, target) in zip(rows, rows.reversed()) {
                let values = columns.map { row[$0] as DatabaseValue }
                try db.execute(
                    sql:
                        "INSERT INTO genp (rowid, \(columns.joined(separator: ", "))) VALUES (?, \(columns.map { _ in "?" }.joined(separator: ", ")))",
                    arguments: StatementArguments([target["rowid"] as DatabaseValue] + values)
                )
            }
        }
        try Self.expectOnlyDamaged([], in: "genp", fixture: fixture, "whole rows swapped")
    }

    // MARK: Expectations

    static func split(_ target: String) -> (String, String) {
        let parts = target.split(separator: ".", maxSplits: 1).map(String.init)
        return (parts[0], parts[1])
    }

    /// The `damaged` accounts of `table` are not found (alone or in an all-items search); every
    /// other item of both tables reads back its own secret.
    static func expectOnlyDamaged(
        _ damaged: Set<Int>,
        in table: String,
        fixture: TamperFixture,
        _ comment: String
    ) throws {
        for itemTable in ["genp", "inet"] {
            let itemClass = TamperFixture.itemClass(table: itemTable)
            var expected: [String: Data] = [:]
            for (index, account) in TamperFixture.accounts.enumerated() {
                let (status, data) = fixture.read(itemClass, account)
                if itemTable == table && damaged.contains(index) {
                    #expect(status == errSecItemNotFound, "\(comment): damaged \(account) gave \(status)")
                } else {
                    expected[account] = TamperFixture.secret(itemClass, account)
                    #expect(status == errSecSuccess, "\(comment): intact \(itemTable) \(account) gave \(status)")
                    #expect(data == TamperFixture.secret(itemClass, account), "\(comment): \(account) misread")
                }
            }
            let (status, all) = fixture.readAll(itemClass)
            #expect(status == errSecSuccess, "\(comment): all-items search gave \(status)")
            #expect(all == expected, "\(comment): all-items search in \(itemTable)")
        }
    }

    /// A new item with the damaged one's attributes can be added and read.
    static func expectReplaceable(_ account: Int, in table: String, fixture: TamperFixture, _ comment: String) throws {
        let itemClass = TamperFixture.itemClass(table: table)
        let name = TamperFixture.accounts[account]
        let status = fixture.keychain.run {
            var item = TamperFixture.query(itemClass, name)
            item[kSecValueData as String] = Data("replacement".utf8)
            return SecItemAdd(item as CFDictionary, nil)
        }
        #expect(status == errSecSuccess, "\(comment): replacing gave \(status)")
        #expect(fixture.read(itemClass, name) == (errSecSuccess, Data("replacement".utf8)), "\(comment): replacement")
    }
}
