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

/// A keychain item class.
///
/// The raw value is Apple's `kSecClass…` value and the name of its table.
package enum ItemClass: String, CaseIterable, Hashable, Sendable, Codable {
    case genericPassword = "genp"
    case internetPassword = "inet"
    case certificate = "cert"
    case key = "keys"
    case identity = "idnt"

    /// The classes that have a table of their own (an identity is a certificate joined with its key).
    package static let storedClasses: [ItemClass] = [.genericPassword, .internetPassword, .certificate, .key]

    /// The table that stores this class.
    package var tableName: String { rawValue }

    /// The protection a new item gets when the add names none: `WhenUnlocked`, and `Always` for certificates.
    package var defaultProtection: ProtectionClass {
        self == .certificate ? .always : .whenUnlocked
    }
}
