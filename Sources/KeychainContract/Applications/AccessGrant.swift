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

package import KeychainCore

/// What the far side of the engine boundary lets one client's item requests use: the access
/// groups it grants, and the group that stands for the client's own `"default"`.
///
/// A client asks for the groups it is configured with (`ItemQuery/accessGroups`); the server
/// replaces them with ``scope(_:)`` before the engine sees them, so a client can give groups up
/// but never gain one. The daemon grants an unsandboxed program everything but sandboxed apps'
/// groups (access groups separate cooperating programs of the user), and a Flatpak app its own
/// group and those the user granted it (``ApplicationRegistry``).
package struct AccessGrant: Sendable, Hashable {
    /// The groups granted; `"*"` grants every group.
    package var groups: AccessGroups
    /// The group a request for `"default"` means (an app's own, followed by the others it is
    /// granted, as an iOS app's default groups are all its entitled ones), if not `"default"` itself.
    package var ownGroup: String?

    package init(groups: AccessGroups, ownGroup: String? = nil) {
        self.groups = groups
        self.ownGroup = ownGroup
    }

    /// Whatever the client asks for.
    package static let everything = AccessGrant(groups: AccessGroups([AccessGroups.wildcard]))
    /// Nothing: every item request is refused (`errSecMissingEntitlement`).
    package static let nothing = AccessGrant(groups: AccessGroups([]))

    /// The groups a request that asked for `requested` (`nil`: the engine's own, or `"default"`
    /// when the grant has exceptions) may use.
    ///
    /// ```swift
    /// let app = AccessGrant(groups: AccessGroups(["org.example.Notes", "default"]), ownGroup: "org.example.Notes")
    /// app.scope(AccessGroups(["default"]))        // ["org.example.Notes", "default"]
    /// app.scope(AccessGroups(["mail"]))           // [] — refused
    /// AccessGrant.everything.scope(AccessGroups(["mail"]))  // ["mail"]
    /// ```
    package func scope(_ requested: AccessGroups?) -> AccessGroups? {
        // Nothing asked: what a client configured with nothing asks for.
        guard let requested else { return groups.grantsEverything ? nil : scope(AccessGroups.standard) }
        var result: [String] = []
        for asked in requested.groups where asked != AccessGroups.wildcard {
            let meant = asked == AccessGroups.defaultGroup && ownGroup != nil ? groups.groups : [asked]
            for group in meant where groups.permits(group) && !result.contains(group) { result.append(group) }
        }
        if requested.grantsAll {
            result += groups.grantsAll ? [AccessGroups.wildcard] : groups.groups.filter { !result.contains($0) }
        }
        return AccessGroups(result, excluding: groups.excluded)
    }
}
