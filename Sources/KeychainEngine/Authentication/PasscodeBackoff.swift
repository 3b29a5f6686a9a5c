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
import KeychainCore

/// Apple's schedule of delays after wrong passcodes.
///
/// Attempts one to four are free; after the fifth consecutive failure the next attempt waits one
/// minute, after the sixth five minutes, after the seventh and eighth fifteen minutes, and after the
/// ninth and every later one an hour. The count persists in the database, so it holds across
/// processes; a correct passcode resets it.
package struct PasscodeBackoff: Hashable, Sendable {
    /// Consecutive wrong passcodes so far.
    package var failures: Int
    /// When the last wrong passcode was entered.
    package var lastFailure: Date?

    package init(failures: Int = 0, lastFailure: Date? = nil) {
        self.failures = failures
        self.lastFailure = lastFailure
    }

    /// The delay that must pass after `failures` consecutive wrong passcodes.
    package static func delay(afterFailures failures: Int) -> TimeInterval {
        switch failures {
        case ..<5: 0
        case 5: 60
        case 6: 5 * 60
        case 7, 8: 15 * 60
        default: 60 * 60
        }
    }

    /// When the next attempt is allowed, or `nil` if it is allowed now.
    package func nextAttemptAllowed(at now: Date) -> Date? {
        let delay = Self.delay(afterFailures: failures)
        guard delay > 0, let lastFailure else { return nil }
        let allowed = lastFailure.addingTimeInterval(delay)
        return allowed > now ? allowed : nil
    }
}
