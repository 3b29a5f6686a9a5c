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

    /// The home's problem, if it has one now.
    func problem() -> KeychainCoreError? {
        var status = stat()
        guard lstat(home.path, &status) == 0 else {
            return KeychainCoreError(.notAvailable, "the keychain home \(home.path) is gone")
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
