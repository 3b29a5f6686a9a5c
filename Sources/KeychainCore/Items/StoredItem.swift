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

/// What a search hands back for one item.
package struct ItemResult: Sendable, Codable {
    package var itemClass: ItemClass
    package var attributes: [String: AttributeValue]
    package var accessControl: AccessControl
    package var data: Data?
    package var persistentReference: PersistentReference

    package init(_ item: StoredItem, data: Data?) {
        itemClass = item.itemClass
        attributes = item.attributes
        accessControl = item.accessControl
        self.data = data
        persistentReference = item.persistentReference
    }
}
