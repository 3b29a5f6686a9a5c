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

/// A Secret Service item as the provider keeps it: a generic password of its caller's group.
///
/// The item's collection is its `svce`, its id its `acct`, its label the `labl`; the attribute map,
/// the content type and the program that created it travel together, encrypted with the item's
/// metadata, in its `gena`. Nothing of them is in a file in the clear.
package struct SecretItem: Sendable, Hashable {
    package var id: String
    package var collection: String
    package var label: String
    package var attributes: [String: String]
    package var contentType: String
    package var created: Date
    package var modified: Date
    /// The program that created it, as the daemon saw it.
    package var creator: String?
    /// The programs (executables, or `flatpak:ID`) that read its secret without being asked about
    /// when reads are confirmed (`security secret-service confirm on`): its creator, and those the
    /// user allowed always.
    package var trusted: [String]

    package init(
        id: String,
        collection: String,
        label: String,
        attributes: [String: String],
        contentType: String,
        created: Date,
        modified: Date,
        creator: String?,
        trusted: [String] = []
    ) {
        self.id = id
        self.collection = collection
        self.label = label
        self.attributes = attributes
        self.contentType = contentType
        self.created = created
        self.modified = modified
        self.creator = creator
        self.trusted = trusted
    }

    /// Whether it has every pair of `query`.
    package func matches(_ query: [String: String]) -> Bool {
        query.allSatisfy { attributes[$0.key] == $0.value }
    }
}

/// What an item's `gena` holds.
///
/// The dates are the item's own, in seconds since 1970: an imported item keeps those it had at its
/// old provider, where the keychain's `cdat` and `mdat` say when it came here.
package struct SecretItemDetails: Codable, Sendable {
    package var attributes: [String: String]
    package var contentType: String
    package var creator: String?
    package var created: Double?
    package var modified: Double?
    package var trusted: [String]?

    enum CodingKeys: String, CodingKey {
        case attributes = "a"
        case contentType = "t"
        case creator = "c"
        case created = "cd"
        case modified = "md"
        case trusted = "tr"
    }
}

/// A collection: an item of its own (`svce` `@collection`), except the
/// in-memory `session` collection.
package struct SecretCollection: Sendable, Hashable {
    package var id: String
    package var label: String
    package var created: Date
    package var modified: Date

    package init(id: String, label: String, created: Date, modified: Date) {
        self.id = id
        self.label = label
        self.created = created
        self.modified = modified
    }
}
