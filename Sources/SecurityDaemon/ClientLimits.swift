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

import KeychainContract

/// What one client process, and one user, may hold in a daemon at once.
///
/// A client past a limit is refused with a status of its own (`errSecQuotaExceeded` for contexts
/// and connections, `LAError.systemCancel` for evaluations) while every other client, and in
/// system mode every other user, keeps being served (issue 34, findings 4 and 5).
struct ClientLimits: Sendable {
    /// Connections one process may have open (a client keeps at most 32 in flight, and pools them).
    var connectionsPerProcess = 64
    /// Connections one user's processes may have open together: a share of the descriptors
    /// (65,536) that leaves room for 63 more such users.
    var connectionsPerUser = 1_024
    /// Connections open at once in all: the daemon's descriptors less some for its files.
    var connectionsInAll = max(256, Int(DescriptorLimit.current) - 256)
    /// Authentication contexts one process may hold (`LAContext`s not yet invalidated).
    var contextsPerProcess = 1_024
    /// Authentication contexts one user's processes may hold together, well under the engine's own
    /// limit per keychain (100,000): processes forked to multiply the share stop here.
    var contextsPerUser = 16_384
    /// Evaluations one process may have waiting for a person at once.
    var evaluationsPerProcess = 4
    /// Evaluations one user's processes may have waiting together.
    var evaluationsPerUser = 12
    /// Evaluations waiting at once in all: the rest of the daemon's threads stay free for item
    /// requests, however many prompts nobody answers.
    var evaluationsInAll = 12
    /// Bytes of frames still arriving that one user's connections may make the daemon hold: two
    /// of the largest frames and change.
    var unfinishedFrameBytesPerUser = 2 * EngineFrame.maximumLength + (1 << 20)

    /// The limits of a daemon that serves one user.
    static let singleUser = ClientLimits()

    /// The limits of a system-mode daemon, which serves every user: one user's waiting
    /// evaluations leave room for the others'.
    static let everyUser = ClientLimits(evaluationsPerUser: 4)
}
