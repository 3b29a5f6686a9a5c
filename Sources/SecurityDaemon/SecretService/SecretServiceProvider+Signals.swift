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

/// The provider's signals, each sent to the connections of one group alone: a program learns of
/// the collections and items it can reach, and nothing of another group's (a Flatpak app does not
/// see the desktop's programs store their passwords, nor they the app).
///
/// A connection hears of changes once it has called the provider (libsecret, secretstorage and
/// Seahorse all open a session first); a program that only listens, without ever calling, hears nothing.
extension SecretServiceProvider {
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Sends `member` of `interface` at `path` to every connection of `group`.
    func announce(_ member: String, of interface: String, at path: String, _ arguments: [BusValue], to group: String) {
        for (sender, caller) in callers where caller.group == group {
            bus.emit(path: path, interface: interface, member: member, arguments, to: sender)
        }
    }

    /// `PropertiesChanged` at `path`: the new values of `changed`, and the names of properties
    /// whose values are to be read again (`Items`, `Collections`: a list is not sent on every change).
    func announceChanges(
        at path: String,
        of interface: String,
        _ changed: [String: BusValue],
        invalidated: [String] = [],
        to group: String
    ) {
        announce(
            "PropertiesChanged",
            of: Self.propertiesInterface,
            at: path,
            [.string(interface), .properties(changed), .array(element: "s", invalidated.map { .string($0) })],
            to: group
        )
    }

    /// An item's signal on its collection (`ItemCreated`, `ItemDeleted`, or with the item's new
    /// values, `ItemChanged`), with the collection's and item's properties that changed with it.
    func announceItem(
        _ member: String,
        collection id: String,
        item itemID: String,
        changed item: SecretItem? = nil,
        to group: String
    ) {
        let collection = SecretPath.collection(id).path
        let path = SecretPath.item(collection: id, id: itemID).path
        announce(member, of: Self.collectionInterface, at: collection, [.objectPath(path)], to: group)
        if let item {
            announceChanges(
                at: path,
                of: Self.itemInterface,
                [
                    "Label": .string(item.label),
                    "Attributes": .dictionary(item.attributes.mapValues { .string($0) }, valueSignature: "s"),
                    "Modified": Self.seconds(item.modified),
                ],
                to: group
            )
        } else {
            announceChanges(at: collection, of: Self.collectionInterface, [:], invalidated: ["Items"], to: group)
        }
    }

    /// A collection's signal on the service (`CollectionCreated`, `CollectionDeleted`,
    /// `CollectionChanged`), with the properties that changed with it.
    func announceCollection(_ member: String, _ id: String, changed: [String: BusValue] = [:], to group: String) {
        let path = SecretPath.collection(id).path
        announce(member, of: Self.serviceInterface, at: SecretPath.root, [.objectPath(path)], to: group)
        if member == "CollectionChanged" {
            announceChanges(at: path, of: Self.collectionInterface, changed, to: group)
        } else {
            announceChanges(
                at: SecretPath.root,
                of: Self.serviceInterface,
                [:],
                invalidated: ["Collections"],
                to: group
            )
        }
    }

    /// Reads the lock state anew (it changed during this call, or outside any call) and tells the
    /// connections if it changed.
    func noticeLockState() {
        lockedDuringCall = nil
        _ = isLocked
        lockedDuringCall = nil
    }

    /// Tells every group's connections that their stored collections locked or unlocked (the
    /// keychain's lock, by `Lock`, a prompt, `security lock` or the session's lock): noticed when a
    /// call reads the lock state, not at the moment it changes.
    func announceLockChange(locked: Bool) {
        for group in Set(callers.values.compactMap(\.group)) {
            for id in Set(knownCollections[group] ?? []).union([SecretStore.login]).sorted()
            where id != Self.memoryCollection {
                announceCollection("CollectionChanged", id, changed: ["Locked": .boolean(locked)], to: group)
            }
        }
    }
}
