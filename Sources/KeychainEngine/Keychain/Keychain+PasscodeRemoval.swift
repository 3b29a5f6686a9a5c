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

import GRDB
package import KeychainCore

extension Keychain {
    /// How many items removing the passcode would destroy, for the question asked before it is
    /// removed: the `WhenPasscodeSetThisDeviceOnly` items, and the items every alternative of whose
    /// access control needs the passcode or biometry (those keys die with the passcode, as on iOS).
    ///
    /// An application password alone, or beside such a constraint in an `or`, keeps an item.
    ///
    /// Only counts: nothing is opened but the items' metadata, and nothing is changed.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the keychain is locked.
    package func itemsLostWithPasscode() throws(KeychainError) -> Int {
        try store.read { db throws(KeychainError) in
            let tiers = try refreshLookupTiers(in: db)
            var count = 0
            for itemClass in ItemClass.storedClasses {
                try forEachMatch(of: ItemQuery(itemClass: itemClass), in: db, limit: nil, tiers: tiers) { _, item in
                    let alternatives = AccessPolicy(item.accessControl).alternatives
                    let needsThePasscode = !alternatives.isEmpty && !alternatives.contains(where: \.isEmpty)
                    if item.protection == .whenPasscodeSetThisDeviceOnly || needsThePasscode { count += 1 }
                    return false
                }
            }
            return count
        }
    }
}
