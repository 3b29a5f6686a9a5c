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
import KeychainCore

/// One item as a backup file holds it: everything needed to re-create it in another keychain, in
/// the clear inside the file's encrypted chunks.
///
/// A record is the engine's attribute encoding (``MetadataCodec``) of the item's attributes, with
/// four entries of the backup's own: its class, its identifier (so that persistent references
/// find it again), its access control and its secret. Decoding is strict: a record that names
/// an unknown class, attribute or access control, or misses a date, is refused, whoever sealed it.
struct BackupItem {
    var itemClass: ItemClass
    /// The identifier the item's persistent reference carries.
    var identifier: Data
    var accessControl: AccessControl
    /// Every attribute, by Apple code, with `agrp`, `cdat` and `mdat`, and the engine's mark of an
    /// item without data.
    var attributes: [String: AttributeValue]
    var secret: Data

    private static let classKey = "@backup.class"
    private static let identifierKey = "@backup.identifier"
    private static let accessControlKey = "@backup.accessControl"
    private static let secretKey = "@backup.secret"
    private static let identifierLength = 16

    /// The record's bytes.
    func encoded() -> Data {
        var entries = attributes
        entries[Self.classKey] = .string(itemClass.rawValue)
        entries[Self.identifierKey] = .data(identifier)
        entries[Self.accessControlKey] = .string(accessControl.storedRepresentation)
        entries[Self.secretKey] = .data(secret)
        return MetadataCodec.encode(entries)
    }

    /// Reads a record.
    ///
    /// - Parameter record: The record's bytes.
    /// - Throws: ``KeychainError/Code/decode`` when the bytes are not an item this keychain can hold.
    init(decoding record: Data) throws(KeychainError) {
        var entries = try MetadataCodec.decode(record)
        guard case .string(let className)? = entries.removeValue(forKey: Self.classKey),
            let itemClass = ItemClass(rawValue: className), itemClass != .identity,
            case .data(let identifier)? = entries.removeValue(forKey: Self.identifierKey),
            identifier.count == Self.identifierLength,
            case .string(let stored)? = entries.removeValue(forKey: Self.accessControlKey),
            let accessControl = AccessControl(storedRepresentation: stored),
            case .data(let secret)? = entries.removeValue(forKey: Self.secretKey)
        else { throw KeychainError(.decode, "a backup record is not an item") }
        let schema = ItemSchema.of(itemClass)
        for (code, value) in entries {
            if code == StoredItem.absentDataMark {
                guard value == .bool(true) else { throw KeychainError(.decode, "a backup record's mark is damaged") }
                continue
            }
            // A token key is made in the engine, never brought: no record may claim to be one.
            guard let descriptor = schema.attribute(code), code != QueryKey.tokenID,
                Self.fits(value, descriptor.kind)
            else { throw KeychainError(.decode, "a backup record holds an attribute its class does not have") }
        }
        guard case .date(let created)? = entries["cdat"], case .date(let modified)? = entries["mdat"],
            created.timeIntervalSince1970.isFinite, modified.timeIntervalSince1970.isFinite,
            case .string? = entries["agrp"]
        else { throw KeychainError(.decode, "a backup record misses its dates or its access group") }
        self.itemClass = itemClass
        self.identifier = identifier
        self.accessControl = accessControl
        self.attributes = entries
        self.secret = secret
    }

    init(
        itemClass: ItemClass,
        identifier: Data,
        accessControl: AccessControl,
        attributes: [String: AttributeValue],
        secret: Data
    ) {
        self.itemClass = itemClass
        self.identifier = identifier
        self.accessControl = accessControl
        self.attributes = attributes
        self.secret = secret
    }

    /// When the item was last changed.
    var modificationDate: Date {
        if case .date(let date)? = attributes["mdat"] { return date }
        return .distantPast
    }

    /// Whether `value` can stand for an attribute of `kind`: dates are dates, and nothing else is
    /// (the store keeps the other kinds as the caller gave them).
    private static func fits(_ value: AttributeValue, _ kind: AttributeDescriptor.Kind) -> Bool {
        if case .date = value { return kind == .date }
        return kind != .date
    }
}
