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
    /// A Flatpak app: its own group is its app id.
    case flatpak(appID: String)
    /// The process's root cannot be read (it is not dumpable) and it runs more confined than the
    /// daemon (`no_new_privs`, seccomp filters), as sandboxes do: it gets nothing, since it could be
    /// an app hiding its id.
    case unverifiable

    /// The sandboxed app's id, if the client is one.
    package var appID: String? {
        if case .flatpak(let appID) = self { return appID }
        return nil
    }
}
