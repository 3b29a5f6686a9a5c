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
import KeychainContract
import KeychainCore

/// Which engine serves a client, by the user the kernel says it runs as: the daemon's one keychain
/// for its own user (user mode), or each user's own keychain (system mode, ``SystemKeychains``).
struct EngineRoster: Sendable {
    /// The responder for a client of `userID`; `nil` refuses the client, a failure is the error its
    /// requests are answered with (that user's keychain cannot be opened).
    let responder: @Sendable (_ userID: UInt32) -> Result<EngineResponder, KeychainError>?
    /// What a client whose root the daemon cannot see into must exceed to be judged sandboxed;
    /// `nil`: what confines every process here (see ``ClientIdentity/isConfined(processID:proc:baseline:)``).
    var confinementBaseline: ClientIdentity.Confinement?

    /// One keychain, for the daemon's own user only.
    static func single(_ responder: EngineResponder) -> EngineRoster {
        let owner = getuid()
        return EngineRoster(responder: { userID in userID == owner ? .success(responder) : nil })
    }
}
