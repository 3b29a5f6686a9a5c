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

/// The description of one item attribute: its code, its kind and its role in the store.
package struct AttributeDescriptor: Hashable, Sendable {
    /// How the values of an attribute are checked, compared and returned.
    package enum Kind: Hashable, Sendable {
        /// Bytes given as a string, data or a number, returned as given (`acct`, `svce`, `gena`, `labl`, `atyp`).
        case blob
        /// A string; data is read as UTF-8 (`agrp`, `tkid`).
        case string
        /// Bytes; a string is stored as its UTF-8 bytes (`issr`, `slnr`, `klbl`).
        case data
        /// A number. A string that is a canonical integer ("42", `kSecAttrKeyTypeRSA`) becomes that number;
        /// any other string ("htps", `kSecAttrProtocolHTTPS`) is kept as a string, as Apple's store does.
        case number
        /// A Boolean (`invi`, `nega`, `sync`, `perm`).
        case bool
        /// A date (`cdat`, `mdat`).
        case date
    }

    /// Apple's attribute code, which is also the raw value of the `kSecAttr…` constant (`acct`).
    package var code: String
    /// How values are checked and compared.
    package var kind: Kind
    /// Whether the attribute is part of the class's primary key.
    package var isPrimaryKey: Bool
    /// Whether the engine maintains the attribute itself (dates): a caller may search on it but not set it.
    package var isManaged: Bool

    package init(_ code: String, _ kind: Kind, primaryKey: Bool = false, managed: Bool = false) {
        self.code = code
        self.kind = kind
        self.isPrimaryKey = primaryKey
        self.isManaged = managed
    }
}
