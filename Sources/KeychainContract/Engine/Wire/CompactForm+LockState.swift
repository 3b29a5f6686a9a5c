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

// The compact form of the lock state, which every process asks for when it opens the keychain:
// three flags, the failed attempts, and when the next attempt is allowed (if not now).

extension CompactWriter {
    mutating func lockState(_ state: LockState) {
        bool(state.hasPasscode)
        bool(state.isUnlocked)
        bool(state.hasBeenUnlocked)
        signed(Int64(state.failedAttempts))
        optional(state.nextAttempt) { $0.double($1.timeIntervalSinceReferenceDate) }
        string(state.secretStore)
    }
}

extension CompactReader {
    mutating func lockState() throws(WireValue.Malformed) -> LockState {
        let hasPasscode = try bool()
        let isUnlocked = try bool()
        let hasBeenUnlocked = try bool()
        let failedAttempts = try int()
        let nextAttempt = try optional { reader throws(WireValue.Malformed) in
            Date(timeIntervalSinceReferenceDate: try reader.double())
        }
        let secretStore = try string()
        return LockState(
            hasPasscode: hasPasscode,
            isUnlocked: isUnlocked,
            hasBeenUnlocked: hasBeenUnlocked,
            failedAttempts: failedAttempts,
            nextAttempt: nextAttempt,
            secretStore: secretStore
        )
    }
}
