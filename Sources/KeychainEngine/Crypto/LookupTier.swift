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

/// The look-up hashes of one key tier.
///
/// Rows of the classes that stay readable without the passcode (`dk`, `dku`) are hashed with the
/// device tier's key, which the device secret opens. Rows of the passcode-protected classes are
/// hashed with the protected tier's key, sealed by the `cku` class key: someone holding the
/// database and the device secret but not the passcode can neither confirm a guessed service or
/// account of such an item nor tell its class. The protected tier's class tag also covers the
/// row's identifier, so protected rows of different classes look alike.
///
/// Keychains written before the tiers existed hash every class with the device key (``Kind/shared``)
/// until their first unlock re-hashes them.
package struct LookupTier: Sendable {
    /// Which classes a tier hashes, and how its class tags are formed.
    package enum Kind: Sendable, Equatable {
        /// The device tier: `dk` and `dku`, with one tag per class.
        case device
        /// The protected tier: the passcode-protected classes, with a tag per row.
        case protected
        /// A keychain from before the tiers: every class, with one tag per class.
        case shared
    }

    package private(set) var kind: Kind
    package let hasher: LookupHasher
    /// Class tags by table (device and shared tiers, whose tags do not depend on the row).
    private let tags: [String: [ProtectionClass: Data]]
    /// The same tags the other way round: every candidate row of a search is told its class.
    private let classesByTag: [String: [Data: ProtectionClass]]
    /// Hashes of `false` and `true` for each boolean primary-key column, by `table.column`: every
    /// search names `sync`, so its hash is worth keeping.
    private let booleanHashes: [String: (false: Data, true: Data)]
    /// The `agrp` hashes of the process's access groups, by table: searches filter on them.
    private let accessGroupHashes: [String: [Data]]
    private let accessGroups: [String]

    package init(kind: Kind, hasher: LookupHasher, accessGroups: [String] = []) {
        self.kind = kind
        self.hasher = hasher
        var tags: [String: [ProtectionClass: Data]] = [:]
        var booleanHashes: [String: (false: Data, true: Data)] = [:]
        var accessGroupHashes: [String: [Data]] = [:]
        for itemClass in ItemClass.storedClasses {
            let table = itemClass.tableName
            if let descriptor = ItemSchema.of(itemClass).attribute("agrp") {
                accessGroupHashes[table] = accessGroups.map {
                    hasher.hash(
                        table: table,
                        column: descriptor.code,
                        value: AttributeValue.string($0).canonicalBytes(for: descriptor.kind)
                    )
                }
            }
            if kind != .protected {
                for protection in ProtectionClass.allCases {
                    tags[table, default: [:]][protection] = hasher.hash(
                        table: table,
                        column: "pdmn",
                        value: Array(protection.rawValue.utf8)
                    )
                }
            }
            for descriptor in ItemSchema.of(itemClass).primaryKey where descriptor.kind == .bool {
                let hash = { (flag: Bool) in
                    hasher.hash(
                        table: table,
                        column: descriptor.code,
                        value: AttributeValue.bool(flag).canonicalBytes(for: .bool)
                    )
                }
                booleanHashes[table + "." + descriptor.code] = (hash(false), hash(true))
            }
        }
        self.tags = tags
        classesByTag = tags.mapValues { byClass in
            Dictionary(byClass.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
        self.booleanHashes = booleanHashes
        self.accessGroupHashes = accessGroupHashes
        self.accessGroups = accessGroups
    }

    /// The same key and precomputed hashes, covering the classes of `kind` (device and shared
    /// tiers differ only in which classes they cover).
    package func covering(_ kind: Kind) -> LookupTier {
        var tier = self
        tier.kind = kind
        return tier
    }

    // MARK: Membership

    /// Whether this tier hashes the rows of `protection`.
    package func covers(_ protection: ProtectionClass) -> Bool {
        switch kind {
        case .device: !protection.isPasscodeProtected
        case .protected: protection.isPasscodeProtected
        case .shared: true
        }
    }

    /// Whether the class tag of a row depends on the row (so it cannot be searched for).
    package var tagsPerRow: Bool { kind == .protected }

    // MARK: Hashes

    /// The tag stored in the `pdmn` column of a row of `protection` with `identifier`.
    package func protectionTag(_ protection: ProtectionClass, table: String, identifier: Data) -> Data {
        if !tagsPerRow, let tag = tags[table]?[protection] {
            return tag
        }
        if tagsPerRow {
            return hasher.hash(
                table: table,
                column: "pdmn",
                values: [Array(protection.rawValue.utf8), Array(identifier)]
            )
        }
        return hasher.hash(table: table, column: "pdmn", value: Array(protection.rawValue.utf8))
    }

    /// The tag every row of `protection` has in `table`; `nil` in the protected tier, whose tags differ per row.
    package func sharedTag(_ protection: ProtectionClass, table: String) -> Data? {
        guard !tagsPerRow else { return nil }
        return protectionTag(protection, table: table, identifier: Data())
    }

    /// The class of this tier whose tag a row with `identifier` carries, if any.
    package func protection(forTag tag: Data, table: String, identifier: Data) -> ProtectionClass? {
        if !tagsPerRow, let byTag = classesByTag[table] {
            guard let protection = byTag[tag], covers(protection) else { return nil }
            return protection
        }
        return ProtectionClass.allCases.first {
            covers($0) && protectionTag($0, table: table, identifier: identifier) == tag
        }
    }

    /// The keyed hash of one attribute value, as stored in its column.
    package func columnHash(_ value: AttributeValue, descriptor: AttributeDescriptor, table: String) -> Data {
        if descriptor.kind == .bool, case .bool(let flag) = value,
            let hashes = booleanHashes[table + "." + descriptor.code]
        {
            return flag ? hashes.true : hashes.false
        }
        return hasher.hash(table: table, column: descriptor.code, value: value.canonicalBytes(for: descriptor.kind))
    }

    /// The `agrp` hashes of `groups` in `table`: precomputed when they are the process's own access groups.
    package func accessGroupHashes(_ groups: [String], descriptor: AttributeDescriptor, table: String) -> [Data] {
        if groups == accessGroups, let cached = accessGroupHashes[table] { return cached }
        return groups.map { columnHash(.string($0), descriptor: descriptor, table: table) }
    }

    /// The keyed hash of a whole primary key (canonical bytes of each attribute, in schema order).
    package func primaryKeyHash(table: String, values: [[UInt8]]) -> Data {
        hasher.hash(table: table, column: "pkey", values: values)
    }
}
