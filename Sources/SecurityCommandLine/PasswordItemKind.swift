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

import KeychainCore

/// One password class as macOS's item commands treat it: the class and the attributes that make
/// an item unique.
package struct PasswordItemKind: Sendable {
    /// The class's code (`kSecClass`'s value).
    package let itemClass: String
    /// The attributes that make an item unique, by Apple's codes.
    package let primaryKey: [String]

    /// Generic passwords: account and service.
    package static let generic = PasswordItemKind(itemClass: "genp", primaryKey: ["acct", "svce"])
    /// Internet passwords: account, security domain, server, protocol, authentication type, port, path.
    package static let internet = PasswordItemKind(
        itemClass: "inet",
        primaryKey: ["acct", "sdmn", "srvr", "ptcl", "atyp", "port", "path"]
    )

    /// The query for the items `given` matches, as macOS's tool matches them: by the whole primary
    /// key alone when every part of it was given, else by everything given.
    package func query(matching given: [String: Any]) -> [String: Any] {
        var query = given
        if primaryKey.allSatisfy({ given[$0] != nil }) {
            query = given.filter { primaryKey.contains($0.key) }
        }
        query[QueryKey.itemClass] = itemClass
        return query
    }
}
