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

import Crypto
import Foundation
import KeychainBus
import KeychainContract
import KeychainCore

/// Finding objects: collections, aliases, items and the locked index.
extension SecretServiceProvider {
    static let memoryCollection = "session"

    /// The collections `caller` has: `login`, `session`, and those it created.
    func collections(of caller: SecretCaller) throws(BusError) -> [SecretCollection] {
        guard let group = caller.group else { return [] }
        var found: [SecretCollection] = []
        if !isLocked {
            do { found = try store.collections(group: group) } catch { throw busError(error) }
            knownCollections[group] = found.map(\.id)
        }
        let epoch = Date(timeIntervalSince1970: 0)
        if !found.contains(where: { $0.id == SecretStore.login }) {
            found.append(SecretCollection(id: SecretStore.login, label: "Login", created: epoch, modified: epoch))
        }
        found.append(SecretCollection(id: Self.memoryCollection, label: "Session", created: epoch, modified: epoch))
        return found.sorted { $0.id < $1.id }
    }

    /// The collection a collection or alias path stands for.
    func collectionID(_ path: SecretPath, caller: SecretCaller) throws(BusError) -> String {
        switch path {
        case .collection(let id):
            let recorded = try collections(of: caller).contains { $0.id == id }
            guard id == SecretStore.login || id == Self.memoryCollection || recorded else {
                throw SecretError.noSuchObject("no collection \(id)")
            }
            return id
        case .alias(let name):
            guard let id = try alias(name, caller: caller) else { throw SecretError.noSuchObject("no alias \(name)") }
            return id
        default:
            throw SecretError.noSuchObject("\(path.path) is not a collection")
        }
    }

    /// The collection `name` points at (`default` → `login` until set otherwise).
    func alias(_ name: String, caller: SecretCaller) throws(BusError) -> String? {
        guard let group = caller.group else { return nil }
        var aliases: [String: String] = [:]
        if !isLocked {
            do { aliases = try store.aliases(group: group) } catch { throw busError(error) }
        }
        if let target = aliases[name] { return target }
        switch name {
        case "default", SecretStore.login: return SecretStore.login
        case Self.memoryCollection: return Self.memoryCollection
        default: return nil
        }
    }

    /// Whether `path` names an object `caller` may see.
    func exists(_ path: SecretPath, caller: SecretCaller) throws(BusError) -> Bool {
        switch path {
        case .service, .folder: return true
        case .collection, .alias: return (try? collectionID(path, caller: caller)) != nil
        case .item(let collection, let id):
            guard let group = caller.group else { return false }
            if collection == Self.memoryCollection { return memory[group]?[id] != nil }
            if isLocked {
                indexes[group]?.forgetMetadata()
                return indexes[group]?.pairs[path.path] != nil
            }
            try refreshIndex(of: group)
            return indexes[group]?.items[path.path] != nil
        case .session(let id): return sessions[id]?.owner == caller.peer.name
        case .prompt(let id): return prompts[id]?.owner == caller.peer.name
        }
    }

    /// Item `path` of `caller`, with its secret when asked; IsLocked when the keychain is.
    func item(at path: SecretPath, caller: SecretCaller, withSecret: Bool) throws(BusError) -> (SecretItem, Data?) {
        guard case .item(let collection, let id) = path, let group = caller.group else {
            throw SecretError.noSuchObject("\(path.path) is not an item")
        }
        if collection == Self.memoryCollection {
            guard let kept = memory[group]?[id] else { throw SecretError.noSuchObject("no item \(path.path)") }
            return (kept.item, withSecret ? kept.secret : nil)
        }
        if isLocked { throw SecretError.isLocked("the keychain is locked") }
        try refreshIndex(of: group)
        guard let found = indexes[group]?.items[path.path] else {
            throw SecretError.noSuchObject("no item \(path.path)")
        }
        guard withSecret else { return (found, nil) }
        do {
            let isProtected = try protection(of: collection, group: group) != 0
            return (found, try store.secret(of: id, in: collection, group: group, isProtected: isProtected))
        } catch {
            throw busError(error)
        }
    }

    /// The access control flags of `collection`'s new items, read once per index.
    func protection(of collection: String, group: String) throws(KeychainError) -> UInt {
        if let known = indexes[group]?.protections[collection] { return known }
        let flags = try store.protection(of: collection, group: group)
        indexes[group]?.protections[collection] = flags
        return flags
    }

    /// The items of `caller` matching `attributes` (in `collection`, or all): unlocked and locked paths.
    func search(
        _ attributes: [String: String],
        in collection: String?,
        caller: SecretCaller
    ) throws(BusError) -> (unlocked: [String], locked: [String]) {
        guard let group = caller.group else { return ([], []) }
        var unlocked: [String] = []
        if collection == nil || collection == Self.memoryCollection {
            for (id, kept) in memory[group] ?? [:] where kept.item.matches(attributes) {
                unlocked.append(SecretPath.item(collection: Self.memoryCollection, id: id).path)
            }
        }
        guard collection != Self.memoryCollection else { return (unlocked.sorted(), []) }
        let wanted = Set(attributes.map { hashedPair($0.key, $0.value) })
        let prefix = collection.map { SecretPath.collection($0).path + "/" }
        if isLocked {
            // Labels and attributes are not kept while the keychain is locked; their hashes are.
            indexes[group]?.forgetMetadata()
            let locked = (indexes[group]?.candidates(wanted) ?? []).filter { prefix.map($0.hasPrefix) ?? true }
            return (unlocked.sorted(), locked.sorted())
        }
        try refreshIndex(of: group)
        // The pairs narrow (hashes), the items' attributes decide.
        for path in indexes[group]?.candidates(wanted) ?? [] where prefix.map(path.hasPrefix) ?? true {
            if indexes[group]?.items[path]?.matches(attributes) == true { unlocked.append(path) }
        }
        return (unlocked.sorted(), [])
    }

    /// Reads `group`'s items again when a client of the daemon's socket changed items since the
    /// index was built.
    func refreshIndex(of group: String) throws(BusError) {
        let now = DaemonWrites.count
        guard indexes[group]?.generation != now else { return }
        let items: [SecretItem]
        do { items = try store.items(in: nil, group: group) } catch { throw busError(error) }
        var index = SecretIndex()
        index.generation = now
        indexes[group] = index
        for item in items { remember(item, group: group) }
    }

    /// Notes `item`'s attributes in its group's index.
    func remember(_ item: SecretItem, group: String) {
        let path = SecretPath.item(collection: item.collection, id: item.id).path
        indexes[group, default: SecretIndex()].insert(
            path,
            item,
            Set(item.attributes.map { hashedPair($0.key, $0.value) })
        )
    }

    func forget(_ path: String, group: String) {
        indexes[group]?.remove(path)
    }

    private func hashedPair(_ name: String, _ value: String) -> Data {
        var message = Data(name.utf8)
        message.append(0)
        message.append(contentsOf: value.utf8)
        return Data(HMAC<SHA256>.authenticationCode(for: message, using: indexKey))
    }

    /// The secret as a client reads it in `session`: `(oayays)`.
    func transfer(_ secret: Data, contentType: String, session: SecretSession) throws(BusError) -> BusValue {
        guard let sealed = session.seal(Array(secret)) else { throw BusError.failed("the secret cannot be encrypted") }
        return .structure([
            .objectPath(session.path), .bytes(sealed.parameters), .bytes(sealed.value), .string(contentType),
        ])
    }

    /// A secret a client sent (`(oayays)`): its bytes and content type, opened with its session.
    func received(_ value: BusValue, caller: SecretCaller) throws(BusError) -> (Data, String) {
        guard case .structure(let fields) = value, fields.count == 4, let sessionPath = fields[0].objectPath,
            case .bytes(let parameters) = fields[1], case .bytes(let sealed) = fields[2],
            let contentType = fields[3].string
        else { throw BusError.invalidArguments("a secret is (oayays)") }
        let session = try session(sessionPath, caller: caller)
        guard sealed.count <= Self.secretLimit + 16 else {
            throw BusError.invalidArguments("a secret is at most \(Self.secretLimit) bytes")
        }
        guard contentType.utf8.count <= Self.contentTypeLimit else {
            throw BusError.invalidArguments("a content type is at most \(Self.contentTypeLimit) bytes")
        }
        guard let secret = session.open(parameters: parameters, value: sealed) else {
            throw BusError.invalidArguments("the secret cannot be decrypted with the session's key")
        }
        return (Data(secret), contentType)
    }

    /// The session at `path`, which must be `caller`'s.
    func session(_ path: String, caller: SecretCaller) throws(BusError) -> SecretSession {
        guard case .session(let id)? = SecretPath(path), let session = sessions[id], session.owner == caller.peer.name
        else { throw SecretError.noSession("no session \(path) of this connection") }
        return session
    }
}
