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
package import KeychainCore

extension Keychain {
    /// What SQLite's integrity check reports about the database (empty when it is sound): for the
    /// crash and concurrency harnesses, which check every keychain they leave behind.
    package func integrityProblems() throws(KeychainError) -> [String] {
        try store.integrityProblems()
    }

    /// The secret of the item `reference` names, as the engine stores it — a Secure Enclave key's
    /// private key among them: for the attack tests, which look for it in the files and in what
    /// clients receive.
    ///
    /// Items with access-control constraints are out of its reach. Internal: only `@testable` tests
    /// reach it, never the daemon or another module.
    func storedSecretForTesting(of reference: PersistentReference) throws(KeychainError) -> Data {
        var query = ItemQuery(itemClass: reference.itemClass)
        query.persistentReference = reference
        return try store.read { db throws(KeychainError) in
            var secret: Data?
            try forEachMatch(of: query, in: db, limit: 1) { row, item throws(KeychainError) in
                secret = try codec.openSecret(row, item: item)
                return true
            }
            guard let secret else { throw KeychainError(.itemNotFound, "no item has that reference") }
            return secret
        }
    }
}
