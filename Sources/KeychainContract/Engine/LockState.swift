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

package import Foundation

/// What the keybag's lock state looks like to one engine.
package struct LockState: Sendable, Hashable, Codable {
    /// Whether a passcode is set.
    package var hasPasscode: Bool
    /// Whether the `WhenUnlocked` classes are readable.
    package var isUnlocked: Bool
    /// Whether the `AfterFirstUnlock` classes are readable (the passcode was entered once).
    package var hasBeenUnlocked: Bool
    /// Consecutive wrong passcodes.
    package var failedAttempts: Int
    /// When the next passcode attempt is allowed, `nil` for now.
    package var nextAttempt: Date?
    /// Where the device secret lives: "TPM 2.0 (maker, firmware)" or "file (no TPM: reason)".
    package var secretStore: String

    package init(
        hasPasscode: Bool,
        isUnlocked: Bool,
        hasBeenUnlocked: Bool,
        failedAttempts: Int,
        nextAttempt: Date?,
        secretStore: String = "file"
    ) {
        self.secretStore = secretStore
        self.hasPasscode = hasPasscode
        self.isUnlocked = isUnlocked
        self.hasBeenUnlocked = hasBeenUnlocked
        self.failedAttempts = failedAttempts
        self.nextAttempt = nextAttempt
    }
}
