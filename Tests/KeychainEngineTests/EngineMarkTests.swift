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

/// The engine's own mark of an item without data cannot come from a client, not even one that
/// sends an `ItemQuery` it built itself over the daemon's socket (which the parser never saw).
@Suite struct EngineMarkTests {
    @Test func aCraftedQueryCannotHideAnItemsData() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-mark-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = try Keychain(directory: directory, accessGroups: .standard, passcodeKDF: .testing)
        var add = try QueryParser.parse(["class": "genp", "acct": "victim", "v_Data": Data("secret".utf8)], for: .add)
        add.attributes[StoredItem.absentDataMark] = .bool(true)
        #expect(throws: KeychainError.self) { try keychain.add(add) }
        add.attributes[StoredItem.absentDataMark] = nil
        _ = try keychain.add(add)

        let query = try QueryParser.parse(["class": "genp", "acct": "victim"], for: .update)
        var changes = try QueryParser.parseUpdate(["labl": "renamed"], itemClass: .genericPassword)
        changes.attributes[StoredItem.absentDataMark] = .bool(true)
        #expect(throws: KeychainError.self) { try keychain.update(query, with: changes) }

        let read = try QueryParser.parse(["class": "genp", "acct": "victim", "r_Data": true], for: .copyMatching)
        #expect(try keychain.search(read).first?.data == Data("secret".utf8))
    }
}
