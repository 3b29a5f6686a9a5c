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

/// The Secret Service's items, collections and aliases, kept in the keychain through the engine,
/// in one access group per kind of caller: ``sharedGroup`` for the user's unconfined programs, one
/// group per Flatpak app (`securityd`'s provider chooses).
///
/// Items are generic passwords protected `WhenUnlocked`: locking the keychain locks them.
package struct SecretStore: Sendable {
    package let engine: any Engine

    /// The `svce` of collection records; collection ids never begin with `@`.
    package static let collectionService = "@collection"
    /// The `svce` of alias records (`acct` the alias, `gena` the collection id).
    package static let aliasService = "@alias"
    /// The `svce` of protection records (`acct` the collection id, `gena` the access control's
    /// flags): what a new item of the collection is protected with.
    package static let protectionService = "@protection"
    /// The `svce` of the record whose presence makes every read of a secret by a program the item
    /// does not trust wait for the user's consent (`security secret-service confirm on`).
    package static let confirmService = "@confirm"
    /// The access controls a collection can be protected with, by the names Apple gives them.
    package static let protectionFlags: [String: UInt] = [
        "userPresence": AccessControl.userPresence, "devicePasscode": AccessControl.devicePasscode,
        "biometryAny": AccessControl.biometryAny,
    ]
    /// The persistent collection that every caller has.
    package static let login = "login"
    /// The group of the Secret Service items of every unconfined program of the user: its `login`
    /// collection is shared, as on every Linux keyring.
    package static let sharedGroup = "org.freedesktop.secrets"

    package init(engine: any Engine) {
        self.engine = engine
    }

    /// A collection id made of `label`'s letters and digits (others become `_`), as gnome-keyring
    /// names collections: one element of an object path.
    package static func collectionID(forLabel label: String) -> String {
        let mapped = String(
            label.lowercased().unicodeScalars.prefix(64).map { scalar -> Character in
                scalar.isASCII && CharacterSet.alphanumerics.contains(scalar) ? Character(scalar) : "_"
            }
        )
        return mapped.isEmpty ? "unnamed" : mapped
    }

    // MARK: Items

    /// The items of `group`, in `collection` or in all.
    package func items(in collection: String?, group: String) throws(KeychainError) -> [SecretItem] {
        var query = Self.query(group: group)
        if let collection { query.attributes["svce"] = .string(collection) }
        query.matchLimit = .all
        query.returnTypes = .attributes
        // A protected item's secret is a record of its own, which a listing never opens.
        query.authenticationUI = .skip
        return try found(query).compactMap(Self.item)
    }

    /// The item `id` of `collection`.
    package func item(_ id: String, in collection: String, group: String) throws(KeychainError) -> SecretItem? {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(collection)
        query.attributes["acct"] = .string(id)
        query.returnTypes = .attributes
        query.authenticationUI = .skip
        return try found(query).first.flatMap(Self.item)
    }

    /// The secret of item `id`; a protected item's needs `context` to have authenticated
    /// (`authenticationNeeded` otherwise, with what is missing).
    package func secret(
        of id: String,
        in collection: String,
        group: String,
        context: ContextReference? = nil,
        isProtected: Bool = true
    ) throws(KeychainError) -> Data {
        // A protected item's secret first (unless the caller knows there is none); the engine asks
        // for the authentication it needs.
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.secretService(collection))
        query.attributes["acct"] = .string(id)
        query.returnTypes = .data
        query.credentialReference = context
        if isProtected, let protected = try found(query).first { return protected.data ?? Data() }
        query.attributes["svce"] = .string(collection)
        guard let result = try engine.search(query).first else {
            throw KeychainError(.itemNotFound, "no such item")
        }
        return result.data ?? Data()
    }

    /// The `svce` of the protected secrets of `collection`'s items (`acct` the item's id): a
    /// record of its own, with the collection's access control, beside the item, whose
    /// attributes are read without authentication as on every keyring.
    package static func secretService(_ collection: String) -> String {
        "@secret:" + collection
    }

    /// Adds `item` with `secret`, protected by `flags` (an access control's) when given.
    package func add(_ item: SecretItem, secret: Data, group: String, flags: UInt = 0) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(item.collection)
        query.attributes["acct"] = .string(item.id)
        query.attributes["labl"] = .string(item.label)
        query.attributes["gena"] = .data(try Self.details(of: item))
        query.valueData = flags == 0 ? secret : Data()
        _ = try engine.add(query)
        if flags != 0 { try addProtectedSecret(secret, of: item.id, in: item.collection, group: group, flags: flags) }
    }

    private func addProtectedSecret(
        _ secret: Data,
        of id: String,
        in collection: String,
        group: String,
        flags: UInt
    ) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.secretService(collection))
        query.attributes["acct"] = .string(id)
        // The access control carries the class (both together are refused, as on Apple's).
        query.accessControl = AccessControl(protection: .whenUnlocked, flags: flags)
        query.protection = nil
        query.valueData = secret
        _ = try engine.add(query)
    }

    /// Changes what `changes` gives of item `id`: label and details, and the secret.
    package func update(_ item: SecretItem, secret: Data?, group: String) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(item.collection)
        query.attributes["acct"] = .string(item.id)
        var changes = ItemUpdate()
        changes.attributes["labl"] = .string(item.label)
        changes.attributes["gena"] = .data(try Self.details(of: item))
        let flags = secret == nil ? 0 : try protection(of: item.collection, group: group)
        changes.valueData = flags == 0 ? secret : nil
        try engine.update(query, with: changes)
        if let secret, flags != 0 {
            try deleteProtectedSecrets(item.id, in: item.collection, group: group)
            try addProtectedSecret(secret, of: item.id, in: item.collection, group: group, flags: flags)
        }
    }

    private func deleteProtectedSecrets(_ id: String?, in collection: String, group: String) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.secretService(collection))
        if let id { query.attributes["acct"] = .string(id) }
        query.matchLimit = .all
        do { try engine.delete(query) } catch  where error.code == .itemNotFound {}
    }

    /// Deletes item `id`, or every item of `collection` with `id` `nil`.
    package func delete(_ id: String?, in collection: String, group: String) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(collection)
        if let id { query.attributes["acct"] = .string(id) }
        query.matchLimit = .all
        do {
            try engine.delete(query)
        } catch  where error.code == .itemNotFound {
            if id != nil { throw error }
        }
        try deleteProtectedSecrets(id, in: collection, group: group)
    }

    // MARK: Collections and aliases

    /// The collections recorded in `group` (the login collection is there once anything wrote it).
    package func collections(group: String) throws(KeychainError) -> [SecretCollection] {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.collectionService)
        query.matchLimit = .all
        query.returnTypes = .attributes
        return try found(query).compactMap { result in
            guard case .string(let id)? = result.attributes["acct"], Self.isPathElement(id) else { return nil }
            return SecretCollection(
                id: id,
                label: Self.string(result.attributes["labl"]) ?? id,
                created: Self.date(result.attributes["cdat"]),
                modified: Self.date(result.attributes["mdat"])
            )
        }
    }

    /// Records collection `id` with `label` (or relabels it).
    package func saveCollection(_ id: String, label: String, group: String) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.collectionService)
        query.attributes["acct"] = .string(id)
        var changes = ItemUpdate()
        changes.attributes["labl"] = .string(label)
        do {
            try engine.update(query, with: changes)
        } catch  where error.code == .itemNotFound {
            query.attributes["labl"] = .string(label)
            _ = try engine.add(query)
        }
    }

    /// Forgets collection `id`'s record.
    package func deleteCollection(_ id: String, group: String) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.collectionService)
        query.attributes["acct"] = .string(id)
        do { try engine.delete(query) } catch  where error.code == .itemNotFound {}
        query.attributes["svce"] = .string(Self.protectionService)
        do { try engine.delete(query) } catch  where error.code == .itemNotFound {}
    }

    /// The access control flags new items of `collection` get; 0 for none.
    package func protection(of collection: String, group: String) throws(KeychainError) -> UInt {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.protectionService)
        query.attributes["acct"] = .string(collection)
        query.returnTypes = .attributes
        guard case .data(let flags)? = try found(query).first?.attributes["gena"] else { return 0 }
        return UInt(String(decoding: flags, as: UTF8.self)) ?? 0
    }

    /// Protects `collection` with the access control `flags` (0 lifts the protection).
    ///
    /// Its items' secrets, and those of items added later, are then released only after the user
    /// authenticates. Each secret moves to a record of its own with that access control; reading
    /// one that is protected already needs the authentication it asks for, on `context`.
    package func protect(
        _ collection: String,
        flags: UInt,
        group: String,
        context: ContextReference? = nil
    ) throws(KeychainError) {
        for item in try items(in: collection, group: group) {
            let secret = try self.secret(of: item.id, in: collection, group: group, context: context)
            var query = Self.query(group: group)
            query.attributes["svce"] = .string(collection)
            query.attributes["acct"] = .string(item.id)
            var changes = ItemUpdate()
            changes.valueData = flags == 0 ? secret : Data()
            try engine.update(query, with: changes)
            try deleteProtectedSecrets(item.id, in: collection, group: group)
            if flags != 0 { try addProtectedSecret(secret, of: item.id, in: collection, group: group, flags: flags) }
        }
        var record = Self.query(group: group)
        record.attributes["svce"] = .string(Self.protectionService)
        record.attributes["acct"] = .string(collection)
        do { try engine.delete(record) } catch  where error.code == .itemNotFound {}
        if flags != 0 {
            record.attributes["gena"] = .data(Data(String(flags).utf8))
            _ = try engine.add(record)
        }
    }

    /// Whether reads of `group`'s secrets by programs an item does not trust are confirmed by the user.
    package func confirmsReads(group: String) throws(KeychainError) -> Bool {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.confirmService)
        query.returnTypes = .attributes
        return !(try found(query).isEmpty)
    }

    /// Turns the confirmation of reads on or off for `group`.
    package func setConfirmsReads(_ confirms: Bool, group: String) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.confirmService)
        query.attributes["acct"] = .string(Self.confirmService)
        do { try engine.delete(query) } catch  where error.code == .itemNotFound {}
        if confirms { _ = try engine.add(query) }
    }

    /// The aliases of `group`: alias → collection id.
    package func aliases(group: String) throws(KeychainError) -> [String: String] {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.aliasService)
        query.matchLimit = .all
        query.returnTypes = .attributes
        var aliases: [String: String] = [:]
        for result in try found(query) {
            guard case .string(let alias)? = result.attributes["acct"],
                case .data(let target)? = result.attributes["gena"]
            else { continue }
            aliases[alias] = String(decoding: target, as: UTF8.self)
        }
        return aliases
    }

    /// Points `alias` at `collection`, or removes it with `nil`.
    package func setAlias(_ alias: String, to collection: String?, group: String) throws(KeychainError) {
        var query = Self.query(group: group)
        query.attributes["svce"] = .string(Self.aliasService)
        query.attributes["acct"] = .string(alias)
        guard let collection else {
            do { try engine.delete(query) } catch  where error.code == .itemNotFound {}
            return
        }
        var changes = ItemUpdate()
        changes.attributes["gena"] = .data(Data(collection.utf8))
        do {
            try engine.update(query, with: changes)
        } catch  where error.code == .itemNotFound {
            query.attributes["gena"] = .data(Data(collection.utf8))
            _ = try engine.add(query)
        }
    }

    // MARK: Queries

    /// A query of `group`'s generic passwords, protected `WhenUnlocked`, never synchronised.
    private static func query(group: String) -> ItemQuery {
        var query = ItemQuery(itemClass: .genericPassword)
        query.accessGroups = AccessGroups([group])
        query.attributes[QueryKey.accessGroup] = .string(group)
        query.protection = .whenUnlocked
        query.authenticationUI = .fail
        return query
    }

    private func found(_ query: ItemQuery) throws(KeychainError) -> [ItemResult] {
        do {
            return try engine.search(query)
        } catch  where error.code == .itemNotFound {
            return []
        }
    }

    private static func item(_ result: ItemResult) -> SecretItem? {
        // Anything of the group that is not an item the provider could have written (another
        // program's SecItem call can write there) is left out rather than break a reply.
        guard let id = string(result.attributes["acct"]), let collection = string(result.attributes["svce"]),
            isPathElement(id), isPathElement(collection)
        else { return nil }
        var details = SecretItemDetails(
            attributes: [:],
            contentType: "text/plain",
            creator: nil,
            created: nil,
            modified: nil
        )
        if case .data(let encoded)? = result.attributes["gena"],
            let decoded = try? JSONDecoder().decode(SecretItemDetails.self, from: encoded)
        {
            details = decoded
        }
        return SecretItem(
            id: id,
            collection: collection,
            label: string(result.attributes["labl"]) ?? "",
            attributes: details.attributes,
            contentType: details.contentType,
            created: details.created.flatMap(seconds) ?? date(result.attributes["cdat"]),
            modified: details.modified.flatMap(seconds) ?? date(result.attributes["mdat"]),
            creator: details.creator,
            trusted: details.trusted ?? []
        )
    }

    private static func details(of item: SecretItem) throws(KeychainError) -> Data {
        let details = SecretItemDetails(
            attributes: item.attributes,
            contentType: item.contentType,
            creator: item.creator,
            created: item.created.timeIntervalSince1970,
            modified: item.modified.timeIntervalSince1970,
            trusted: item.trusted.isEmpty ? nil : item.trusted
        )
        do {
            return try JSONEncoder().encode(details)
        } catch {
            throw KeychainError(.invalidParameter, "the item's attributes cannot be encoded")
        }
    }

    /// Whether `text` may be one element of an object path (`[A-Za-z0-9_]+`).
    package static func isPathElement(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 255
            && text.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x5F
            }
    }

    private static func string(_ value: AttributeValue?) -> String? {
        if case .string(let text)? = value { return text }
        return nil
    }

    /// A date from seconds since 1970 kept in an item's details, within what a date property can carry.
    private static func seconds(_ value: Double) -> Date? {
        guard value.isFinite, value >= 0, value < 1e15 else { return nil }
        return Date(timeIntervalSince1970: value)
    }

    private static func date(_ value: AttributeValue?) -> Date {
        if case .date(let date)? = value { return date }
        return Date(timeIntervalSince1970: 0)
    }
}
