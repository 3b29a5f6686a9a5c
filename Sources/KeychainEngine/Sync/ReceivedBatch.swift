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

import Foundation
import KeychainSync

/// One batch of the server's records, fetched and opened — signatures checked, payloads
/// decrypted — away from the exchange, so that the next batch is opened while this one is applied.
struct ReceivedBatch: Sendable {
    /// Where the batch ends in the server's stream; `nil` for an empty batch.
    var last: RelayCursor?
    /// How many records the server gave (the stream may have more when it gave a full batch).
    var count = 0
    /// The changes to apply, in the server's order.
    var changes: [SyncItemChange] = []
    /// Records refused, each with why.
    var refusals: [SyncError] = []
    /// A record came from a device or under keys this device does not know yet: the circle
    /// should be followed before the batch is taken in (only when asked to stop there).
    var awaitsNews = false

    /// Fetches the records after `cursor` and opens them with what `state` knows.
    ///
    /// - Parameters:
    ///   - relay: The circle's server.
    ///   - cursor: Where this device is in the server's stream.
    ///   - limit: The most records to fetch.
    ///   - state: The circle as this device follows it: its list, keys and identity.
    ///   - stopAtNews: Stops at the first record that the circle's news might explain (an
    ///     unknown signer, an unknown generation), with ``awaitsNews`` set; otherwise such a
    ///     record is refused like any other.
    /// - Returns: The batch; records refused are in ``refusals``, not thrown.
    /// - Throws: What the relay throws (the server away, refusing).
    static func fetch(
        from relay: any SyncRelay,
        after cursor: RelayCursor,
        limit: Int,
        state: CircleState,
        stopAtNews: Bool
    ) async throws -> ReceivedBatch {
        let records = try await relay.records(after: cursor, limit: limit, circle: state.circle)
        var batch = ReceivedBatch(last: records.last?.cursor, count: records.count)
        let own = state.identity.id
        for (_, body) in records {
            // Its own changes, back from the server: passed over before their signature is checked.
            if SyncRecord.claimedDevice(of: body) == own { continue }
            do throws(SyncError) {
                let sealed: SyncRecord
                do throws(SyncError) {
                    sealed = try SyncRecord(decoding: body, circle: state.circle, trusted: state.list)
                } catch {
                    if stopAtNews, error.reason == .untrusted { return batch.awaitingNews() }
                    throw error
                }
                guard let keys = state.keys[sealed.generation] else {
                    if stopAtNews { return batch.awaitingNews() }
                    throw SyncError(.undecryptable, "a record of a generation this device does not hold")
                }
                let payload = try sealed.payload(with: keys)
                guard
                    let change = try? SyncItemChange(
                        payload: payload,
                        itemID: sealed.itemID,
                        version: sealed.version,
                        syncClass: sealed.syncClass
                    )
                else { throw SyncError(.malformed, "a record's payload is not a change") }
                batch.changes.append(change)
            } catch {
                batch.refusals.append(error)
            }
        }
        return batch
    }

    private func awaitingNews() -> ReceivedBatch {
        var batch = self
        batch.awaitsNews = true
        return batch
    }
}
