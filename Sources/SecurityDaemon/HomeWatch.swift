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
import KeychainServer

/// The daemon's check, before each request, that its keychain home is still private.
///
/// A process opens its keychain after checking the home (``PrivateDirectory``); the daemon keeps
/// it open for the whole session, so it looks again each time: a home that has become writable by
/// others, or another user's, is refused with the error a new process would get, until it is
/// private again.
struct HomeWatch: Sendable {
    let home: URL
    /// The device and inode of the home the daemon opened.
    private let identity: (device: UInt64, inode: UInt64)?

    /// Watches `home` as it is now (the daemon has just opened its keychain there).
    init(home: URL) {
        self.home = home
        var status = stat()
        identity = lstat(home.path, &status) == 0 ? (UInt64(status.st_dev), UInt64(status.st_ino)) : nil
    }

    /// Whether the folder at the home's path is still the one the daemon opened.
    var holdsHome: Bool {
        var status = stat()
        guard let identity, lstat(home.path, &status) == 0 else { return false }
        return identity == (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// The home's problem, if it has one now.
    func problem() -> KeychainCoreError? {
        var status = stat()
        guard lstat(home.path, &status) == 0 else {
            return KeychainCoreError(.notAvailable, "the keychain home \(home.path) is gone; its daemon is stopping")
        }
        // Another folder made at the same path is not the keychain this daemon holds open: serving
        // it would put writes in files nobody will open again.
        guard let identity, identity == (UInt64(status.st_dev), UInt64(status.st_ino)) else {
            return KeychainCoreError(.notAvailable, "the keychain home \(home.path) was replaced; its daemon is stopping")
        }
        // The quick test; the full one (ancestors, links) names what is wrong.
        guard status.st_uid != geteuid() || status.st_mode & (S_IWGRP | S_IWOTH) != 0 || (status.st_mode & S_IFMT) != S_IFDIR else {
            return nil
        }
        do throws(KeychainCoreError) {
            try PrivateDirectory.prepare(home)
            return nil
        } catch {
            return error
        }
    }
}
