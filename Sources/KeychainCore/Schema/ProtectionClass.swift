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

/// A data-protection class: when an item's secret can be decrypted.
///
/// Each class has its own class key in the keybag. The raw values are Apple's
/// `kSecAttrAccessible…` values.
package enum ProtectionClass: String, CaseIterable, Hashable, Sendable, Codable {
    /// Readable while the device is unlocked (`kSecAttrAccessibleWhenUnlocked`).
    case whenUnlocked = "ak"
    /// Readable after the first unlock until the process restarts (`kSecAttrAccessibleAfterFirstUnlock`).
    case afterFirstUnlock = "ck"
    /// Always readable (`kSecAttrAccessibleAlways`, deprecated by Apple).
    case always = "dk"
    /// Readable while unlocked, never migrated (`kSecAttrAccessibleWhenUnlockedThisDeviceOnly`).
    case whenUnlockedThisDeviceOnly = "aku"
    /// Readable after the first unlock, never migrated (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`).
    case afterFirstUnlockThisDeviceOnly = "cku"
    /// Always readable, never migrated (`kSecAttrAccessibleAlwaysThisDeviceOnly`).
    case alwaysThisDeviceOnly = "dku"
    /// Readable while unlocked and only while a passcode is set (`kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly`).
    case whenPasscodeSetThisDeviceOnly = "akpu"

    // MARK: Lock behaviour

    /// When a class key is available, as the device locks and unlocks.
    package enum Availability: Sendable {
        /// Forgotten whenever the device locks (`ak`, `aku`, `akpu`).
        case whenUnlocked
        /// Kept from the first unlock until the process ends (`ck`, `cku`).
        case afterFirstUnlock
        /// Never locked (`dk`, `dku`).
        case always
    }

    /// When this class's key is available.
    package var availability: Availability {
        switch self {
        case .whenUnlocked, .whenUnlockedThisDeviceOnly, .whenPasscodeSetThisDeviceOnly: .whenUnlocked
        case .afterFirstUnlock, .afterFirstUnlockThisDeviceOnly: .afterFirstUnlock
        case .always, .alwaysThisDeviceOnly: .always
        }
    }

    /// Whether the class key is wrapped by the passcode when one is set.
    package var isPasscodeProtected: Bool { availability != .always }

    /// Whether items of this class may never leave this device (the `…ThisDeviceOnly` classes).
    package var isThisDeviceOnly: Bool {
        switch self {
        case .whenUnlockedThisDeviceOnly, .afterFirstUnlockThisDeviceOnly, .alwaysThisDeviceOnly,
            .whenPasscodeSetThisDeviceOnly:
            true
        case .whenUnlocked, .afterFirstUnlock, .always: false
        }
    }

    /// Apple's constant name, for messages and the command-line tool.
    package var appleName: String {
        switch self {
        case .whenUnlocked: "kSecAttrAccessibleWhenUnlocked"
        case .afterFirstUnlock: "kSecAttrAccessibleAfterFirstUnlock"
        case .always: "kSecAttrAccessibleAlways"
        case .whenUnlockedThisDeviceOnly: "kSecAttrAccessibleWhenUnlockedThisDeviceOnly"
        case .afterFirstUnlockThisDeviceOnly: "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly"
        case .alwaysThisDeviceOnly: "kSecAttrAccessibleAlwaysThisDeviceOnly"
        case .whenPasscodeSetThisDeviceOnly: "kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly"
        }
    }

    /// Looks a class up by Apple's constant name (`kSecAttrAccessibleWhenUnlocked`) or short name (`WhenUnlocked`).
    package init?(appleName: String) {
        let match = Self.allCases.first {
            $0.appleName == appleName || $0.appleName == "kSecAttrAccessible" + appleName || $0.rawValue == appleName
        }
        guard let match else { return nil }
        self = match
    }
}
