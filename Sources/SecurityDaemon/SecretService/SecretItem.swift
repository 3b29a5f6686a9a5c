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

/// A Secret Service item as the provider keeps it: a generic password of its caller's group.
///
/// The item's collection is its `svce`, its id its `acct`, its label the `labl`; the attribute map,
/// the content type and the program that created it travel together, encrypted with the item's
/// metadata, in its `gena`. Nothing of them is in a file in the clear.
struct SecretItem: Sendable, Hashable {
    var id: String
    var collection: String
    var label: String
    var attributes: [String: String]
    var contentType: String
    var created: Date
    var modified: Date
    /// The program that created it, as the daemon saw it.
    var creator: String?

    /// Whether it has every pair of `query`.
    func matches(_ query: [String: String]) -> Bool {
        query.allSatisfy { attributes[$0.key] == $0.value }
    }
}

/// What an item's `gena` holds.
struct SecretItemDetails: Codable, Sendable {
    var attributes: [String: String]
    var contentType: String
    var creator: String?

    enum CodingKeys: String, CodingKey {
        case attributes = "a"
        case contentType = "t"
        case creator = "c"
    }
}

/// A collection: an item of its own (`svce` ``SecretStore/collectionService``), except the
/// in-memory `session` collection.
struct SecretCollection: Sendable, Hashable {
    var id: String
    var label: String
    var created: Date
    var modified: Date
}
