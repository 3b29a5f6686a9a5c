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
import KeychainBus
import KeychainContract
import KeychainCore

/// `org.freedesktop.Secret.Collection` and `org.freedesktop.Secret.Item`.
extension SecretServiceProvider {
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let itemInterface = "org.freedesktop.Secret.Item"

    func collection(_ call: BusCall, path: SecretPath, caller: SecretCaller) throws(BusError) -> [BusValue] {
        let id = try collectionID(path, caller: caller)
        switch call.member {
        case "SearchItems":
            let found = try search(try attributeMap(try arguments(call, "a{ss}")[0]), in: id, caller: caller)
            return [.paths(found.unlocked + found.locked)]
        case "CreateItem":
            let arguments = try arguments(call, "a{sv}(oayays)b")
            let properties = arguments[0].stringDictionary ?? [:]
            let label = properties["org.freedesktop.Secret.Item.Label"]?.unwrapped.string ?? ""
            let attributes =
                try properties["org.freedesktop.Secret.Item.Attributes"].map {
                    (value: BusValue) throws(BusError) in try attributeMap(value.unwrapped)
                } ?? [:]
            guard label.utf8.count <= Self.labelLimit else {
                throw BusError.invalidArguments("a label is at most \(Self.labelLimit) bytes")
            }
            let (secret, contentType) = try received(arguments[1], caller: caller)
            let itemPath = try createItem(
                in: id,
                label: label,
                attributes: attributes,
                secret: secret,
                contentType: contentType,
                replace: arguments[2].boolean ?? false,
                caller: caller
            )
            return [.objectPath(itemPath), .objectPath(SecretPath.none)]
        case "Delete":
            _ = try arguments(call, "")
            try deleteCollection(id, caller: caller)
            return [.objectPath(SecretPath.none)]
        default:
            throw BusError.unknownMethod("\(Self.collectionInterface) has no method \(call.member)")
        }
    }

    func item(_ call: BusCall, path: SecretPath, caller: SecretCaller) throws(BusError) -> [BusValue] {
        guard case .item(let collection, let id) = path, let group = caller.group else {
            throw SecretError.noSuchObject("no item")
        }
        switch call.member {
        case "GetSecret":
            let session = try session(try arguments(call, "o")[0].objectPath ?? "", caller: caller)
            let (item, secret) = try item(at: path, caller: caller, withSecret: true)
            return [try transfer(secret ?? Data(), contentType: item.contentType, session: session)]
        case "SetSecret":
            let (secret, contentType) = try received(try arguments(call, "(oayays)")[0], caller: caller)
            var (item, _) = try item(at: path, caller: caller, withSecret: false)
            item.contentType = contentType
            claim(&item, by: caller)
            try save(item, secret: secret, group: group)
            return []
        case "Delete":
            _ = try arguments(call, "")
            if collection == Self.memoryCollection {
                guard memory[group]?.removeValue(forKey: id) != nil else { throw SecretError.noSuchObject("no item") }
            } else {
                if isLocked { throw SecretError.isLocked("the keychain is locked") }
                do { try store.delete(id, in: collection, group: group) } catch { throw busError(error) }
                forget(path.path, group: group)
            }
            announceItem("ItemDeleted", collection: collection, item: id, to: group)
            return [.objectPath(SecretPath.none)]
        default:
            throw BusError.unknownMethod("\(Self.itemInterface) has no method \(call.member)")
        }
    }

    /// Writes `item` (and `secret`, when given) back, and says so on the bus.
    func save(_ item: SecretItem, secret: Data?, group: String) throws(BusError) {
        var item = item
        item.modified = Date()
        if item.collection == Self.memoryCollection {
            guard let kept = memory[group]?[item.id] else { throw SecretError.noSuchObject("no item") }
            memory[group]?[item.id] = (item, secret ?? kept.secret)
        } else {
            if isLocked { throw SecretError.isLocked("the keychain is locked") }
            do { try store.update(item, secret: secret, group: group) } catch { throw busError(error) }
            remember(item, group: group)
        }
        announceItem("ItemChanged", collection: item.collection, item: item.id, changed: item, to: group)
    }

    private func createItem(
        in collection: String,
        label: String,
        attributes: [String: String],
        secret: Data,
        contentType: String,
        replace: Bool,
        caller: SecretCaller
    ) throws(BusError) -> String {
        guard let group = caller.group else { throw BusError.accessDenied("no group") }
        if collection != Self.memoryCollection, isLocked { throw SecretError.isLocked("the keychain is locked") }
        if replace {
            let existing = try search(attributes, in: collection, caller: caller).unlocked.lazy
                .compactMap { SecretPath($0) }
                .compactMap { try? self.item(at: $0, caller: caller, withSecret: false).0 }
                .first { $0.attributes == attributes }
            if var item = existing {
                item.label = label
                item.contentType = contentType
                claim(&item, by: caller)
                try save(item, secret: secret, group: group)
                return SecretPath.item(collection: collection, id: item.id).path
            }
        }
        let now = Date()
        let item = SecretItem(
            id: Self.newItemID(),
            collection: collection,
            label: label,
            attributes: attributes,
            contentType: contentType,
            created: now,
            modified: now,
            creator: caller.program,
            trusted: caller.executable.map { [$0] } ?? []
        )
        if collection == Self.memoryCollection {
            let kept = memory[group] ?? [:]
            guard kept.count < Self.memoryItemLimit,
                kept.values.reduce(secret.count, { $0 + $1.secret.count }) <= Self.memoryByteLimit
            else {
                throw BusError.limitsExceeded("the session collection holds as much as it may")
            }
            memory[group, default: [:]][item.id] = (item, secret)
        } else {
            do {
                // A protected collection's new items are protected as its others.
                let flags = try protection(of: collection, group: group)
                try store.add(item, secret: secret, group: group, flags: flags)
            } catch {
                throw busError(error)
            }
            remember(item, group: group)
        }
        announceItem("ItemCreated", collection: collection, item: item.id, to: group)
        return SecretPath.item(collection: collection, id: item.id).path
    }

    private func deleteCollection(_ id: String, caller: SecretCaller) throws(BusError) {
        guard let group = caller.group else { throw BusError.accessDenied("no group") }
        if id == Self.memoryCollection {
            memory[group] = nil
        } else {
            if isLocked { throw SecretError.isLocked("the keychain is locked") }
            do {
                try store.delete(nil, in: id, group: group)
                try store.deleteCollection(id, group: group)
                for (alias, target) in try store.aliases(group: group) where target == id {
                    try store.setAlias(alias, to: nil, group: group)
                }
            } catch {
                throw busError(error)
            }
            indexes[group]?.removeAll(under: SecretPath.collection(id).path + "/")
            indexes[group]?.protections[id] = nil
        }
        knownCollections[group]?.removeAll { $0 == id }
        announceCollection("CollectionDeleted", id, to: group)
    }

    /// A random item id: 32 hexadecimal digits.
    static func newItemID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", generator.next() as UInt8) }.joined()
    }
}
