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
package import KeychainSync

/// A change of one item of the circle, as a device sends or receives it: the item's new state
/// (everything to re-create it, as a backup record) or its deletion, and the version that orders
/// it against every other change of the same item.
package struct SyncItemChange: Sendable {
    package enum Content: Sendable {
        /// The item's encoded record (``BackupItem``'s form) and its protection class.
        case item(record: Data, syncClass: SyncClass)
        case deleted
    }

    /// The circle's name of the item (``SyncRecord/itemID(of:naming:)`` of its class and primary key).
    package var itemID: Data
    package var version: SyncVersion
    package var content: Content

    package init(itemID: Data, version: SyncVersion, content: Content) {
        self.itemID = itemID
        self.version = version
        self.content = content
    }

    /// The class key a change travels under: deletions under `afterFirstUnlock`, whose items
    /// say nothing.
    package var syncClass: SyncClass {
        if case .item(_, let syncClass) = content { return syncClass }
        return .afterFirstUnlock
    }

    private static let itemKind: UInt8 = 1
    private static let deletedKind: UInt8 = 0

    /// The plaintext a record seals: the kind, then the item's record, padded to a bucket so
    /// that the server learns a size class, not a length.
    package var payload: Data {
        var plain = Data()
        switch content {
        case .item(let record, _):
            plain.append(Self.itemKind)
            plain.append(record)
        case .deleted:
            plain.append(Self.deletedKind)
        }
        return LengthPadding.pad(plain, smallest: LengthPadding.metadataBucket)
    }

    /// Reads the change a record held.
    ///
    /// - Throws: ``KeychainError/Code/decode`` when the payload is not one ``payload`` makes.
    package init(payload: Data, itemID: Data, version: SyncVersion, syncClass: SyncClass) throws(KeychainError) {
        let plain = try LengthPadding.unpad(payload)
        guard let kind = plain.first else { throw KeychainError(.decode, "a synchronised change is empty") }
        switch kind {
        case Self.itemKind: content = .item(record: Data(plain.dropFirst()), syncClass: syncClass)
        case Self.deletedKind where plain.count == 1: content = .deleted
        default: throw KeychainError(.decode, "a synchronised change of an unknown kind")
        }
        self.itemID = itemID
        self.version = version
    }
}

/// Journaled changes read for sending: what to push, and which journal entries it settles.
package struct PendingSyncChanges: Sendable {
    /// The journal entries read (table, row identifier, version) and the changes each makes.
    var entries: [(table: String, identifier: Data, version: SyncVersion, changes: [SyncItemChange])] = []

    /// The changes to push, in journal order.
    package var changes: [SyncItemChange] { entries.flatMap(\.changes) }
    /// Items the journal named that could not be read yet (the keychain locked meanwhile).
    package var deferred = 0

    package var isEmpty: Bool { entries.isEmpty }
}

/// What applying a received change did.
package enum SyncApplyOutcome: Sendable, Equatable {
    /// Written (added, replaced or deleted).
    case applied
    /// This device holds that version or a greater one already.
    case stale
    /// A change made here, not sent yet, is newer: it stays, and will win everywhere.
    case keptNewer
    /// Not an item a circle may carry (a `…ThisDeviceOnly` item, one with access control
    /// constraints, a reserved group, a name that does not match its content): ignored.
    case refused
}
