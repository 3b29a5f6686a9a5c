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
package import KeychainCore

/// The look-up tiers a process can hash with now: the device tier always, the protected tier from
/// the first unlock on (see ``LookupTier``).
package struct LookupTiers: Sendable {
    /// Hashes the rows of `dk` and `dku` (of every class in a keychain from before the tiers).
    package let device: LookupTier
    /// Hashes the rows of the passcode-protected classes; `nil` before the first unlock.
    package let protected: LookupTier?

    package init(device: LookupTier, protected: LookupTier?) {
        self.device = device
        self.protected = protected
    }

    /// A keychain from before the tiers: one tier for every class.
    package init(shared: LookupTier) {
        device = shared
        protected = shared
    }

    /// Whether passcode-protected rows have a tier of their own.
    package var areSeparate: Bool { device.kind != .shared }

    /// The tier that hashes the rows of `protection`, or `nil` while it is locked.
    package func tier(for protection: ProtectionClass) -> LookupTier? {
        device.covers(protection) ? device : protected
    }

    /// The distinct tiers available, device tier first.
    package var available: [LookupTier] {
        guard areSeparate, let protected else { return [device] }
        return [device, protected]
    }

    /// Whether rows of passcode-protected classes exist that this process cannot hash for (before the first unlock).
    package var protectedTierIsLocked: Bool { areSeparate && protected == nil }

    /// The tags of `dk` and `dku` rows in `table`: every other row is passcode-protected (or damaged).
    package func deviceTags(table: String) -> [Data] {
        ProtectionClass.allCases.filter { !$0.isPasscodeProtected }.compactMap { device.sharedTag($0, table: table) }
    }

    /// The class of a row from its tag, trying each available tier.
    package func protection(forTag tag: Data, table: String, identifier: Data) -> ProtectionClass? {
        for tier in available {
            if let protection = tier.protection(forTag: tag, table: table, identifier: identifier) {
                return protection
            }
        }
        return nil
    }
}
