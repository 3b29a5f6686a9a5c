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

/// The keychain access groups a process may use: Linux's stand-in for the `keychain-access-groups` entitlement.
///
/// The first group is where an add without `kSecAttrAccessGroup` puts the item; a query without an
/// access group searches every group in the list; the group `"*"` grants every group. On Linux
/// any process of the user can open the keychain files, so access groups separate applications
/// that cooperate; they are not a boundary against a hostile process of the same user.
package struct AccessGroups: Hashable, Sendable, Codable {
    /// The wildcard that grants every group.
    package static let wildcard = "*"

    /// The group of items added without an explicit group, when nothing else is configured.
    package static let defaultGroup = "default"

    /// The groups, in order; the first concrete one receives new items.
    package var groups: [String]
    /// Groups never granted, not even by `"*"` (the daemon's own records, sandboxed apps' groups);
    /// an entry ending in `*` excludes every group that begins with what precedes it.
    package var excluded: [String]

    package init(_ groups: [String], excluding excluded: [String] = []) {
        self.groups = groups
        self.excluded = excluded
    }

    /// The configuration of a process that sets nothing: its own default group only.
    package static let standard = AccessGroups([defaultGroup])

    /// Reads `KEYCHAIN_ACCESS_GROUPS` (comma-separated), falling back to `fallback`.
    package static func fromEnvironment(_ environment: [String: String], fallback: AccessGroups) -> AccessGroups {
        guard let value = environment["KEYCHAIN_ACCESS_GROUPS"] else { return fallback }
        let groups = value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return AccessGroups(groups)
    }

    private enum CodingKeys: String, CodingKey {
        case groups, excluded
    }

    /// Decodes what clients of earlier versions send too, which has no exclusions.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        groups = try container.decode([String].self, forKey: .groups)
        excluded = try container.decodeIfPresent([String].self, forKey: .excluded) ?? []
    }

    /// Whether every group is granted.
    package var grantsAll: Bool { groups.contains(Self.wildcard) }

    /// The group an add without `kSecAttrAccessGroup` uses.
    package var groupForNewItems: String? {
        groups.first { $0 != Self.wildcard }
    }

    /// Whether the process may name `group` explicitly.
    package func permits(_ group: String) -> Bool {
        (grantsAll || groups.contains(group)) && !isExcluded(group)
    }

    private func isExcluded(_ group: String) -> Bool {
        excluded.contains { $0.hasSuffix(Self.wildcard) ? group.hasPrefix($0.dropLast()) : $0 == group }
    }

    /// Groups a process may read but never write: Apple's `kSecAttrAccessGroupToken`, whose items
    /// a token driver provides (`SecurityClientCopyWritableAccessGroups` in `SecItemServer.c`).
    package static let readOnly = ["com.apple.token"]
    /// The group of the daemon's synchronisation records (the device's identity in its circle, the
    /// circle's keys): no client names or reaches it.
    package static let synchronizationGroup = "swift-keychain.sync"

    /// The groups this process may add, change and delete items in: its groups without the
    /// read-only ones, which not even `"*"` grants for writing (Apple's does; refusing is the safer choice).
    package var writable: AccessGroups {
        AccessGroups(groups.filter { !Self.readOnly.contains($0) }, excluding: excluded + Self.readOnly)
    }

    /// Whether every group is granted with no exception: nothing to check item by item.
    package var grantsEverything: Bool { grantsAll && excluded.isEmpty }
}
