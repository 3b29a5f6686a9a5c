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

/// A record to push: the item's name and version in the clear (the server keeps the greater
/// version of each item) and the signed, sealed body.
package struct RelayRecord: Sendable, Equatable {
    package var itemID: Data
    package var version: SyncVersion
    package var body: Data

    package init(itemID: Data, version: SyncVersion, body: Data) {
        self.itemID = itemID
        self.version = version
        self.body = body
    }
}

/// The server a circle's devices meet at: a store of opaque, signed messages that it can lose,
/// withhold or replay, but never read or forge.
///
/// Every call may fail (the server away, restarting, refusing); the caller retries. Nothing the
/// relay returns is trusted: the exchange checks each message's signature and circle.
package protocol SyncRelay: Sendable {
    /// Creates the server's tables, or migrates them, as the circle's role (no superuser).
    func prepare() async throws

    /// The circles the server holds, for a device joining without naming one.
    func circles() async throws -> [CircleID]

    /// Adds a version of a circle's device list (an existing version is kept).
    func publish(list: Data, version: UInt64, circle: CircleID) async throws

    /// The versions of the device list after `version`, oldest first.
    func lists(after version: UInt64, circle: CircleID) async throws -> [(version: UInt64, body: Data)]

    /// Stores a device's keys of one generation.
    func publish(grant: Data, recipient: DeviceID, generation: UInt32, circle: CircleID) async throws

    /// The grants for `recipient` of generations up to `generation`, newest first.
    func grants(for recipient: DeviceID, upTo generation: UInt32, circle: CircleID) async throws -> [Data]

    /// Posts a join request, replacing the device's earlier one.
    func publish(joinRequest: Data, device: DeviceID, circle: CircleID) async throws

    /// The pending join requests.
    func joinRequests(circle: CircleID) async throws -> [(device: DeviceID, body: Data)]

    /// Answers a join request; the request is removed in the same transaction.
    func publish(approval: Data, device: DeviceID, circle: CircleID) async throws

    /// The answer to `device`'s join request, if there is one.
    func approval(for device: DeviceID, circle: CircleID) async throws -> Data?

    /// Pushes records in one transaction: each replaces the server's row of its item only if its
    /// version is greater; the circle's listeners are notified when it commits.
    func push(_ records: [RelayRecord], circle: CircleID) async throws

    /// Records written after `cursor`, in the server's commit order, at most `limit`: only records
    /// of transactions that can no longer be followed by an earlier one, so that a device reading
    /// in cursor order misses none.
    func records(
        after cursor: RelayCursor,
        limit: Int,
        circle: CircleID
    ) async throws
        -> [(cursor: RelayCursor, body: Data)]

    /// Removes an item's row if it still holds `version` (a tombstone old enough to forget).
    func remove(itemID: Data, version: SyncVersion, circle: CircleID) async throws

    /// Waits until the circle has news or `timeout` passes; returns whether news came.
    ///
    /// The news may be spurious, and some may be missed (the connection dropped): callers also
    /// catch up on a timer.
    func waitForChanges(circle: CircleID, timeout: Duration) async throws -> Bool
}

/// Where a device is in the server's stream of a circle's records.
package struct RelayCursor: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nothing read yet.
    package static let start = RelayCursor(transaction: 0, sequence: 0)

    /// The server's transaction id of the records read (PostgreSQL's `xid8`).
    package var transaction: UInt64
    /// The server's counter within it.
    package var sequence: Int64

    package init(transaction: UInt64, sequence: Int64) {
        self.transaction = transaction
        self.sequence = sequence
    }

    /// `TRANSACTION.SEQUENCE`, as the device stores it.
    package var description: String { "\(transaction).\(sequence)" }

    package init?(_ text: String) {
        let parts = text.split(separator: ".")
        guard parts.count == 2, let transaction = UInt64(parts[0]), let sequence = Int64(parts[1]) else { return nil }
        self.init(transaction: transaction, sequence: sequence)
    }

    package static func < (lhs: RelayCursor, rhs: RelayCursor) -> Bool {
        (lhs.transaction, lhs.sequence) < (rhs.transaction, rhs.sequence)
    }
}
