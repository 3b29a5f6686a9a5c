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

/// A persistent reference: the item's class code followed by its 16-byte random identifier.
///
/// It survives process restarts and is the same for as long as the item exists. It reveals
/// nothing about the item; the random identifier is also part of the associated data of the item's
/// ciphertexts, so a row copied onto another row's identifier fails to decrypt.
package struct PersistentReference: Hashable, Sendable, Codable {
    package static let identifierLength = 16

    package var itemClass: ItemClass
    package var identifier: Data

    package init(itemClass: ItemClass, identifier: Data) {
        self.itemClass = itemClass
        self.identifier = identifier
    }

    /// Parses the bytes returned by `kSecReturnPersistentRef`; `nil` if they are not one.
    package init?(_ data: Data) {
        guard data.count == 4 + Self.identifierLength,
            let code = String(data: data.prefix(4), encoding: .ascii),
            let itemClass = ItemClass(rawValue: code),
            ItemClass.storedClasses.contains(itemClass)
        else { return nil }
        self.init(itemClass: itemClass, identifier: Data(data.dropFirst(4)))
    }

    /// The bytes handed to callers.
    package var data: Data {
        Data(itemClass.rawValue.utf8) + identifier
    }
}
