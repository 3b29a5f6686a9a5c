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

/// An item's access control: its protection class and the conditions on its use.
///
/// The flags are Apple's `SecAccessControlCreateFlags` bits. The mirror's `SecAccessControl`
/// carries one of these; the engine stores it in the item's encrypted metadata.
package struct AccessControl: Hashable, Sendable, Codable {
    // MARK: Flags (Apple's bit values)

    package static let userPresence: UInt = 1 << 0
    package static let biometryAny: UInt = 1 << 1
    package static let biometryCurrentSet: UInt = 1 << 3
    package static let devicePasscode: UInt = 1 << 4
    package static let companion: UInt = 1 << 5
    package static let or: UInt = 1 << 14
    package static let and: UInt = 1 << 15
    package static let privateKeyUsage: UInt = 1 << 30
    package static let applicationPassword: UInt = 1 << 31

    /// The flags that put a condition on reading the item.
    package static let constraintFlags: UInt =
        userPresence | biometryAny | biometryCurrentSet | devicePasscode | companion | applicationPassword

    // MARK: Properties

    /// When the item's class key is available.
    package var protection: ProtectionClass
    /// Apple's `SecAccessControlCreateFlags` raw value.
    package var flags: UInt

    package init(protection: ProtectionClass, flags: UInt = 0) {
        self.protection = protection
        self.flags = flags
    }

    /// Whether reading the item requires more than its class key (biometry, passcode, application
    /// password): its secret key is then sealed to constraint keys (``ConstraintEnvelope``).
    package var hasConstraints: Bool { flags & Self.constraintFlags != 0 }

    // MARK: Stored form

    /// The stored form: the protection class and the flags, `"ak:0"`.
    package var storedRepresentation: String { "\(protection.rawValue):\(flags)" }

    package init?(storedRepresentation: String) {
        let parts = storedRepresentation.split(separator: ":")
        guard parts.count == 2, let protection = ProtectionClass(rawValue: String(parts[0])),
            let flags = UInt(parts[1])
        else { return nil }
        self.init(protection: protection, flags: flags)
    }
}
