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

/// A question the engine asks a person for a client: what for, why, and who asks.
package struct PromptQuestion: Sendable, Hashable, Codable {
    package var purpose: PasscodePrompt.Purpose
    /// The localized reason the application gave.
    package var reason: String

    package init(purpose: PasscodePrompt.Purpose, reason: String) {
        self.purpose = purpose
        self.reason = reason
    }
}
