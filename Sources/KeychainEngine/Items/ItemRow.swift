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

package import Foundation
import KeychainCore

/// One row of an item table, exactly as stored: keyed hashes and ciphertexts, nothing in the clear.
package struct ItemRow: Sendable {
    package var rowID: Int64?
    /// 16 random bytes: the item's identity, in the persistent reference and every ciphertext's binding.
    package var identifier: Data
    /// The keyed hash of the protection class.
    package var protectionTag: Data
    /// The keyed hash of the whole primary key (UNIQUE).
    package var primaryKeyHash: Data
    /// The keyed hash of each primary-key attribute, by code.
    package var keyColumns: [String: Data]
    /// The metadata key, wrapped by the class key.
    package var wrappedMetadataKey: Data
    /// The encrypted attributes.
    package var metadata: Data
    /// The secret key's envelope: wrapped by the class key (and, later, access-control layers).
    package var secretKeyEnvelope: Data
    /// The encrypted secret.
    package var secret: Data

    package init(
        identifier: Data,
        protectionTag: Data,
        primaryKeyHash: Data,
        keyColumns: [String: Data],
        wrappedMetadataKey: Data,
        metadata: Data,
        secretKeyEnvelope: Data,
        secret: Data
    ) {
        self.identifier = identifier
        self.protectionTag = protectionTag
        self.primaryKeyHash = primaryKeyHash
        self.keyColumns = keyColumns
        self.wrappedMetadataKey = wrappedMetadataKey
        self.metadata = metadata
        self.secretKeyEnvelope = secretKeyEnvelope
        self.secret = secret
    }
}

extension ItemRow {
    // MARK: Tombstones

    /// Whether the row is what is left of an item lost with the passcode: its look-up columns,
    /// with every key and ciphertext erased (see ``ItemTable/bury(_:in:)``).
    ///
    /// Apple removes such an item only when an operation next meets it, so that a delete right
    /// after the passcode was removed still finds it; the secret itself is gone at once here, so
    /// that no copy of an old keybag can open it from the current database.
    package var isTombstone: Bool {
        wrappedMetadataKey.isEmpty && metadata.isEmpty && secretKeyEnvelope.isEmpty && secret.isEmpty
    }
}
