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

/// What a search hands back for one item.
package struct ItemResult: Sendable, Codable {
    package var itemClass: ItemClass
    package var attributes: [String: AttributeValue]
    package var accessControl: AccessControl
    package var data: Data?
    package var persistentReference: PersistentReference

    package init(
        itemClass: ItemClass,
        attributes: [String: AttributeValue],
        accessControl: AccessControl,
        data: Data?,
        persistentReference: PersistentReference
    ) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.accessControl = accessControl
        self.data = data
        self.persistentReference = persistentReference
    }
}
