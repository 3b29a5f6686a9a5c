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
package import KeychainCore

/// An item as the engine sees it once its metadata is decrypted.
package struct StoredItem: Sendable {
    /// The row id (internal to the database, never handed out).
    package var rowID: Int64
    package var itemClass: ItemClass
    /// The random identifier that the persistent reference carries.
    package var identifier: Data
    package var protection: ProtectionClass
    package var accessControl: AccessControl
    /// Every attribute, by Apple code, including `agrp`, `sync`, `cdat` and `mdat`.
    package var attributes: [String: AttributeValue]

    package var persistentReference: PersistentReference {
        PersistentReference(itemClass: itemClass, identifier: identifier)
    }
}

extension StoredItem {
    /// The engine's own mark, among an item's sealed attributes, of an item added without
    /// `kSecValueData`: Apple's item then has no `v_Data`, which a result with data and attributes
    /// shows (`si-80-empty-data.c`).
    ///
    /// No client can name it (the query parser refuses the key) and no result carries it.
    package static let absentDataMark = "@absentData"

    /// The engine's own mark holding a token key's public key (X9.63), sealed with the metadata
    /// so that the key can be found and handed out as a reference without opening its secret,
    /// which is the private key.
    ///
    /// Never in a result, never a client's to set.
    package static let publicKeyMark = "@publicKey"

    /// The engine's own marks: refused in a client's attributes, removed from every result.
    package static let marks: Set<String> = [absentDataMark, publicKeyMark]

    /// Whether the item is a token key (a Secure Enclave key): its secret is a private key that
    /// never leaves the engine.
    package var isTokenKey: Bool {
        // The engine's mark, not `tkid` alone: an item a client added with a `tkid` before the engine
        // refused that is no token key, and its data is not a private key the engine made.
        itemClass == .key && attributes[QueryKey.tokenID] == .string(TokenID.secureEnclave) && tokenPublicKey != nil
    }

    /// A token key's public key.
    package var tokenPublicKey: Data? {
        guard case .data(let key)? = attributes[Self.publicKeyMark] else { return nil }
        return key
    }
}

extension ItemResult {
    /// What a search hands back for `item`, with its secret when it was asked for (none for an
    /// item added without data).
    package init(_ item: StoredItem, data: Data?) {
        var attributes = item.attributes
        let hasNoData = attributes.removeValue(forKey: StoredItem.absentDataMark) != nil
        attributes[StoredItem.publicKeyMark] = nil
        self.init(
            itemClass: item.itemClass,
            attributes: attributes,
            accessControl: item.accessControl,
            data: hasNoData ? nil : data,
            persistentReference: item.persistentReference
        )
    }
}
