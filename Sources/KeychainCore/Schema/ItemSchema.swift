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

/// The attributes of each item class, as data, in the spirit of Apple's `SecItemSchema.c`.
///
/// Every class's primary key includes the access group and the synchronizable flag. Primary-key
/// columns are stored as keyed hashes so that a look-up by them is an index seek; every other
/// attribute lives only in the item's encrypted metadata.
package struct ItemSchema: Sendable {
    // MARK: Properties

    /// The class this schema describes.
    package let itemClass: ItemClass
    /// Every public attribute, in the order results list them.
    package let attributes: [AttributeDescriptor]
    /// The primary-key attributes, in a fixed order (the order of the hashed tuple).
    package let primaryKey: [AttributeDescriptor]

    private let byCode: [String: AttributeDescriptor]

    // MARK: Initialization

    private init(_ itemClass: ItemClass, _ attributes: [AttributeDescriptor]) {
        self.itemClass = itemClass
        self.attributes = attributes
        self.primaryKey = attributes.filter(\.isPrimaryKey)
        self.byCode = Dictionary(uniqueKeysWithValues: attributes.map { ($0.code, $0) })
    }

    // MARK: Look-up

    /// The descriptor of an attribute of this class, or `nil` if the class has no such attribute.
    package func attribute(_ code: String) -> AttributeDescriptor? {
        byCode[code]
    }

    /// The schema of a stored class.
    package static func of(_ itemClass: ItemClass) -> ItemSchema {
        switch itemClass {
        case .genericPassword: genericPassword
        case .internetPassword: internetPassword
        case .certificate, .identity: certificate
        case .key: key
        }
    }

    // MARK: Tables

    /// Attributes that every class has.
    private static let common: [AttributeDescriptor] = [
        .init("agrp", .string, primaryKey: true),
        .init("sync", .bool, primaryKey: true),
        .init("cdat", .date, managed: true),
        .init("mdat", .date, managed: true),
    ]

    /// Attributes that both password classes have.
    private static let password: [AttributeDescriptor] = [
        .init("desc", .blob),
        .init("icmt", .blob),
        .init("crtr", .number),
        .init("type", .number),
        .init("labl", .blob),
        .init("invi", .number),
        .init("nega", .number),
        .init("acct", .blob, primaryKey: true),
    ]

    static let genericPassword = ItemSchema(
        .genericPassword,
        common + password + [
            .init("svce", .blob, primaryKey: true),
            .init("gena", .blob),
        ]
    )

    static let internetPassword = ItemSchema(
        .internetPassword,
        common + password + [
            .init("sdmn", .blob, primaryKey: true),
            .init("srvr", .blob, primaryKey: true),
            .init("ptcl", .number, primaryKey: true),
            .init("atyp", .blob, primaryKey: true),
            .init("port", .number, primaryKey: true),
            .init("path", .blob, primaryKey: true),
        ]
    )

    static let certificate = ItemSchema(
        .certificate,
        common + [
            .init("ctyp", .number, primaryKey: true),
            .init("cenc", .number),
            .init("labl", .blob),
            .init("alis", .blob),
            .init("subj", .data),
            .init("issr", .data, primaryKey: true),
            .init("slnr", .data, primaryKey: true),
            .init("skid", .data),
            .init("pkhh", .data),
        ]
    )

    static let key = ItemSchema(
        .key,
        common + [
            .init("kcls", .number, primaryKey: true),
            .init("labl", .blob),
            .init("klbl", .data, primaryKey: true),
            .init("atag", .blob, primaryKey: true),
            .init("crtr", .number, primaryKey: true),
            .init("type", .number, primaryKey: true),
            .init("bsiz", .number, primaryKey: true),
            .init("esiz", .number, primaryKey: true),
            .init("sdat", .date, primaryKey: true),
            .init("edat", .date, primaryKey: true),
            .init("perm", .bool),
            .init("sens", .bool),
            .init("extr", .bool),
            .init("encr", .bool),
            .init("decr", .bool),
            .init("drve", .bool),
            .init("sign", .bool),
            .init("vrfy", .bool),
            .init("wrap", .bool),
            .init("unwp", .bool),
            .init("tkid", .string),
        ]
    )
}
