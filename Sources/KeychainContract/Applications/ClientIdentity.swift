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

/// Which application a client process of the daemon is, as far as the daemon can verify it.
///
/// The daemon reads it from `/proc/PID/` of the `SO_PEERCRED` process when the connection opens
/// (`SecurityDaemon`'s `ClientIdentity.of(processID:)`). What it is worth: a sandboxed app cannot
/// pass for another app or for an unsandboxed program; an unsandboxed program can run anything as
/// the user (and, with user namespaces, even fake a `/.flatpak-info`), so for it access groups stay
/// a convention between cooperating programs.
package enum ClientIdentity: Sendable, Hashable {
    /// No sandbox: the program asks for its groups.
    case unsandboxed
    /// A Flatpak app: its own group is ``ownGroup``, `flatpak:` and its app id.
    case flatpak(appID: String)
    /// The process's root cannot be read (it is not dumpable) and it runs more confined than every
    /// process here (`no_new_privs`, seccomp filters), as sandboxes do: it gets nothing, since it
    /// could be an app hiding its id.
    case unverifiable

    /// The sandboxed app's id, if the client is one.
    package var appID: String? {
        if case .flatpak(let appID) = self { return appID }
        return nil
    }

    /// What begins the group of every Flatpak app: `flatpak:` and the app id.
    ///
    /// No other client can name such a group, so an app cannot be given items planted before it
    /// first connected, and no app can claim a group the user's programs use by choosing its id.
    package static let flatpakGroupPrefix = "flatpak:"

    /// The app's own access group (its `"default"`), if the client is a sandboxed app.
    package var ownGroup: String? {
        appID.map { Self.flatpakGroupPrefix + $0 }
    }

    /// Whether `group` is a sandboxed app's own.
    package static func isAppGroup(_ group: String) -> Bool {
        group.hasPrefix(flatpakGroupPrefix)
    }
}
