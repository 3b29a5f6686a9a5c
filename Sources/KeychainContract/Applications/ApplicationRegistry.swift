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

/// The daemon's record of sandboxed apps and of the groups the user granted them, kept as items
/// of its own in the keychain it serves.
///
/// A sandboxed app's own group (`flatpak:` and its app id, ``ClientIdentity/ownGroup``) is closed
/// to every other client: another sandboxed app reaches it only when the user granted it that
/// group (`security access-group grant`), an unsandboxed program only after the user proved
/// presence (see ``PresenceLedger``). The records are items of the group ``recordsGroup``, which
/// no client can name or reach with `"*"`, protected `AfterFirstUnlockThisDeviceOnly`: someone
/// who can write the database but does not know the passcode cannot forge a grant; before the
/// first unlock they cannot be read (apps then have their own groups only).
package final class ApplicationRegistry: Sendable {
    /// The group of the registry's own items.
    package static let recordsGroup = "swift-keychain.applications"
    private static let appService = "app"
    private static let grantPrefix = "grant:"

    private struct State {
        var loaded = false
        /// When reading them last failed (locked): not tried again for a second.
        var lastFailure: ContinuousClock.Instant?
        /// Sandboxed apps seen, whose app ids are their own groups.
        var apps: Set<String> = []
        /// Groups granted, by app id.
        var grants: [String: Set<String>] = [:]
        /// Apps seen but not yet written (the keychain was locked).
        var unsaved: Set<String> = []
        /// Counts grants and revocations: a load that read the records before one of them is stale.
        var generation = 0
    }

    private let engine: any Engine
    private let state = LockedState(State())
    /// The contexts in which the user proved presence.
    package let presence = PresenceLedger()

    package init(engine: any Engine) {
        self.engine = engine
    }

    // MARK: What a client may use

    /// What `client`'s item requests may use; `present` when the request's context proved the
    /// user's presence.
    package func grant(for client: ClientIdentity, present: Bool) -> AccessGrant {
        switch client {
        case .flatpak(let appID):
            // Only an app's grants need the records: the user's programs' requests never read them.
            let ownGroup = ClientIdentity.flatpakGroupPrefix + appID
            let own = [ownGroup] + (snapshot().grants[appID] ?? []).sorted().filter { $0 != ownGroup }
            return AccessGrant(
                groups: AccessGroups(own, excluding: [Self.recordsGroup, AccessGroups.synchronizationGroup]),
                ownGroup: ownGroup
            )
        case .unsandboxed:
            let closed = present ? [] : [ClientIdentity.flatpakGroupPrefix + AccessGroups.wildcard]
            return AccessGrant(
                groups: AccessGroups(
                    [AccessGroups.wildcard],
                    excluding: [Self.recordsGroup, AccessGroups.synchronizationGroup] + closed
                )
            )
        case .unverifiable:
            return .nothing
        }
    }

    /// The sandboxed apps known, with the groups granted to each.
    package func applications() -> [String: [String]] {
        let (apps, grants) = snapshot()
        var result: [String: [String]] = [:]
        for app in apps { result[app] = [] }
        for (app, groups) in grants { result[app] = groups.sorted() }
        return result
    }

    // MARK: Changes

    /// Notes that sandboxed app `appID` connected: its group is closed to others from now on.
    package func noteSandboxedApp(_ appID: String) {
        let isNew = state.withLock { state in
            guard !state.apps.contains(appID) else { return false }
            state.apps.insert(appID)
            state.unsaved.insert(appID)
            return true
        }
        if isNew { saveUnsaved() }
    }

    /// Grants `groups` to sandboxed app `appID` (the caller has checked the user's passcode).
    package func grant(_ groups: [String], to appID: String) throws(KeychainError) {
        try Self.checkNames(groups + [appID])
        noteSandboxedApp(appID)
        for group in groups {
            do {
                _ = try engine.add(record(service: Self.grantPrefix + group, account: appID))
            } catch  where error.code == .duplicateItem {
                // Granted before.
            }
        }
        state.withLock { state in
            state.grants[appID, default: []].formUnion(groups)
            state.generation += 1
        }
    }

    /// Takes `groups` back from `appID`.
    package func revoke(_ groups: [String], from appID: String) throws(KeychainError) {
        try Self.checkNames(groups + [appID])
        for group in groups {
            do {
                try engine.delete(record(service: Self.grantPrefix + group, account: appID))
            } catch  where error.code == .itemNotFound {
                // Never granted.
            }
        }
        state.withLock { state in
            state.grants[appID]?.subtract(groups)
            state.generation += 1
        }
    }

    // MARK: Records

    private func snapshot() -> (apps: Set<String>, grants: [String: Set<String>]) {
        let due = state.withLock { state in
            !state.loaded && state.lastFailure.map { ContinuousClock.now - $0 > .seconds(1) } ?? true
        }
        if due { load() }
        return state.withLock { ($0.apps, $0.grants) }
    }

    /// Reads the records, once the keychain can open them.
    private func load() {
        let generation = state.withLock { $0.generation }
        var query = record(service: nil, account: nil)
        query.matchLimit = .all
        query.returnTypes = .attributes
        let found: [ItemResult]
        do {
            found = try engine.search(query)
        } catch  where error.code == .itemNotFound {
            found = []
        } catch {
            state.withLock { $0.lastFailure = .now }  // locked since the daemon started: try again later
            return
        }
        state.withLock { state in
            // A grant or revocation since the records were read: read them again next time.
            guard state.generation == generation else { return }
            for item in found {
                guard case .string(let service)? = item.attributes["svce"],
                    case .string(let account)? = item.attributes["acct"]
                else {
                    continue
                }
                if service == Self.appService {
                    state.apps.insert(account)
                } else if service.hasPrefix(Self.grantPrefix) {
                    state.apps.insert(account)
                    state.grants[account, default: []].insert(String(service.dropFirst(Self.grantPrefix.count)))
                }
            }
            state.loaded = true
        }
        saveUnsaved()
    }

    private func saveUnsaved() {
        let unsaved = state.withLock { $0.unsaved }
        for appID in unsaved {
            do {
                _ = try engine.add(record(service: Self.appService, account: appID))
            } catch  where error.code == .duplicateItem {
                // Written by an earlier run.
            } catch {
                continue  // locked: written once it opens
            }
            state.withLock { _ = $0.unsaved.remove(appID) }
        }
    }

    /// A query for the registry's records (`service`/`account` `nil`: any).
    private func record(service: String?, account: String?) -> ItemQuery {
        var query = ItemQuery(itemClass: .genericPassword)
        query.accessGroups = AccessGroups([Self.recordsGroup])
        query.attributes[QueryKey.accessGroup] = .string(Self.recordsGroup)
        if let service { query.attributes["svce"] = .string(service) }
        if let account { query.attributes["acct"] = .string(account) }
        query.protection = .afterFirstUnlockThisDeviceOnly
        return query
    }

    /// App ids and group names: non-empty, no controls, not the registry's own group.
    private static func checkNames(_ names: [String]) throws(KeychainError) {
        for name in names {
            guard !name.isEmpty, name.utf8.count <= 255,
                !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
                name != recordsGroup, name != AccessGroups.synchronizationGroup, name != AccessGroups.wildcard
            else {
                throw KeychainError(.invalidParameter, "not an app id or access group name")
            }
        }
    }
}
