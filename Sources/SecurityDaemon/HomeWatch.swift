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
import KeychainCore
import KeychainEngine

/// The daemon's check, before each request, that its keychain home is still private.
///
/// A process opens its keychain after checking the home (``PrivateDirectory``); the daemon keeps
/// it open for the whole session, so it looks again each time: a home that has become writable by
/// others, or another user's, is refused with the error a new process would get, until it is
/// private again.
struct HomeWatch: Sendable {
    let home: URL
    /// The home the daemon opened.
    private let identity: PrivateFile.Identity?

    /// Watches `home` as it is now (the daemon has just opened its keychain there).
    init(home: URL) {
        self.home = home
        identity = PrivateFile.identity(of: home.path)
    }

    /// Whether the folder at the home's path is still the one the daemon opened.
    var holdsHome: Bool {
        guard let identity else { return false }
        return PrivateFile.identity(of: home.path) == identity
    }

    /// The home's problem, if it has one now.
    func problem() -> KeychainError? {
        guard let status = PrivateFile.status(home.path, followingLinks: false),
            let current = PrivateFile.identity(of: home.path)
        else {
            return KeychainError(.notAvailable, "the keychain home \(home.path) is gone; its daemon is stopping")
        }
        // Another folder made at the same path is not the keychain this daemon holds open: serving
        // it would put writes in files nobody will open again.
        guard let identity, identity == current else {
            return KeychainError(.notAvailable, "the keychain home \(home.path) was replaced; its daemon is stopping")
        }
        // The quick test; the full one (ancestors, links) names what is wrong.
        guard status.owner != geteuid() || status.mode & 0o022 != 0 || status.kind != .directory else {
            return nil
        }
        do throws(KeychainError) {
            try PrivateDirectory.prepare(home)
            return nil
        } catch {
            return error
        }
    }
}
