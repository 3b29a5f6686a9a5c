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

/// Why an item of the keychain was left out of a backup.
public enum BackupOmission: String, Sendable, Codable, CaseIterable, Comparable {
    /// A `…ThisDeviceOnly` item: Apple's rule keeps these on the device.
    case thisDeviceOnly
    /// A Secure Enclave key: its private key never leaves the engine.
    case enclaveKey
    /// An item bound to the fingers enrolled now (`biometryCurrentSet`): another device's set is
    /// another set, which Apple's rule makes the item unreadable on.
    case biometrySetBound
    /// An item whose access control the backup's authentication did not satisfy (biometry alone,
    /// an application password): its secret could not be read to be copied.
    case needsAuthentication
    /// An item that does not decrypt: damaged, or sealed to a lock that was replaced.
    case undecryptable
    /// An item larger than a backup record holds.
    case tooLarge

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// What a backup wrote and what it left out.
public struct BackupSummary: Sendable, Codable, Hashable {
    /// The items written to the file.
    public var written: Int
    /// The items left out, by reason.
    public var omitted: [BackupOmission: Int]

    package init(written: Int = 0, omitted: [BackupOmission: Int] = [:]) {
        self.written = written
        self.omitted = omitted
    }
}

/// Why an item of a backup was not restored.
public enum RestoreRefusal: String, Sendable, Codable, CaseIterable, Comparable {
    /// Its access control cannot be created in this keychain: it needs a passcode or enrolled
    /// biometry that this keychain does not have.
    case accessControlUnavailable
    /// Its record is not an item this keychain can hold (written by a tool that broke the format's rules).
    case invalidItem

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// What a restore did with each item of the file.
public struct RestoreSummary: Sendable, Codable, Hashable {
    /// Items that did not exist and were added.
    public var added: Int
    /// Items that existed with an older modification date and were replaced by the file's.
    public var replaced: Int
    /// Items that existed with the same or a newer modification date and were kept as they were.
    public var kept: Int
    /// Items not restored, by reason.
    public var refused: [RestoreRefusal: Int]

    package init(added: Int = 0, replaced: Int = 0, kept: Int = 0, refused: [RestoreRefusal: Int] = [:]) {
        self.added = added
        self.replaced = replaced
        self.kept = kept
        self.refused = refused
    }

    /// Every item the file holds.
    public var total: Int { added + replaced + kept + refused.values.reduce(0, +) }
}
