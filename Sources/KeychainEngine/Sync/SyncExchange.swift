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
package import KeychainSync
import Logging

/// A device's exchange with its circle: sends the changes its keychain journaled, takes in the
/// others', and follows the circle's lists and keys — in rounds, woken by the server's
/// notifications, by the keychain's own changes, and by a timer.
///
/// Nothing here is on the path of `SecItem*`: a change is journaled in its own transaction and
/// the exchange is only nudged. The server failing (away, restarting, refusing) ends a round with
/// an error that the next round, after a back-off, retries; it is shown in ``status``, never
/// returned to an item call. A locked keychain ends rounds the same way until it is unlocked.
package actor SyncExchange {
    /// Journal entries and records handled per transaction.
    package static let batch = 500
    /// The catch-up timer: a round at least this often, whatever the notifications say.
    static let catchUp: Duration = .seconds(30)
    /// The longest wait between two failed rounds: a connection attempt every few seconds costs a
    /// server nothing, and a device back online should not wait a minute.
    static let longestBackOff: Duration = .seconds(8)
    /// How long a round waits after being woken, for the changes that follow the first.
    static let gathering: Duration = .milliseconds(20)
    /// The longest a round waits while changes keep coming (a loop of `SecItemAdd`, an import).
    static let longestGathering: Duration = .milliseconds(250)

    private let keychain: Keychain
    /// The circle's server.
    package nonisolated let relay: any SyncRelay
    private let membership: CircleMembership
    private var record: SyncCircleRecord
    private let logger: Logger
    package private(set) var status = SyncStatus()
    private var lastCompaction: Date?
    /// Whether the circle changed since it was last written to the keychain.
    private var needsSaving = false
    /// Where this device is in the server's stream (read from the keychain at the first pull).
    private var cursorState: RelayCursor?
    private var cursor: RelayCursor {
        get { cursorState ?? .start }
        set { cursorState = newValue }
    }
    private let wake: AsyncStream<Void>.Continuation
    private let wakes: AsyncStream<Void>

    /// How often old deletions are looked for.
    private let compactionInterval: TimeInterval

    package init(
        keychain: Keychain,
        relay: any SyncRelay,
        record: SyncCircleRecord,
        compactionInterval: TimeInterval = 3600
    ) {
        self.compactionInterval = compactionInterval
        self.keychain = keychain
        self.relay = relay
        self.membership = CircleMembership(relay: relay)
        self.record = record
        self.logger = keychain.logger
        (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// The circle as this device holds it now.
    package var circle: SyncCircleRecord { record }

    /// Takes in a state a membership step made here (an approval, a removal) and keeps it.
    package func adopt(_ state: CircleState) throws {
        record.state = state
        try keychain.saveCircle(record)
    }

    /// Asks for a round soon (a local change, an unlock).
    package nonisolated func nudge() { wake.yield() }

    /// Runs rounds until the task is cancelled.
    package func run() async {
        let wake = wake
        let changes = LockedState(0)
        keychain.onSynchronizableChange {
            changes.withLock { $0 &+= 1 }
            wake.yield()
        }
        let listening = Task { [relay, circle = record.state.circle] in
            while !Task.isCancelled {
                do {
                    _ = try await relay.waitForChanges(circle: circle, timeout: Self.catchUp)
                } catch {
                    try? await Task.sleep(for: .seconds(1))
                }
                wake.yield()
            }
        }
        defer {
            listening.cancel()
            keychain.onSynchronizableChange(nil)
        }
        var delay: Duration = .milliseconds(500)
        wake.yield()
        for await _ in wakes {
            if Task.isCancelled { break }
            // A burst of changes (an import, a loop of SecItemAdd) makes one round, not one each:
            // the round waits while they keep coming, for a while.
            var gathered = Duration.zero
            while gathered < Self.longestGathering {
                let seen = changes.withLock { $0 }
                try? await Task.sleep(for: Self.gathering)
                gathered += Self.gathering
                if changes.withLock({ $0 }) == seen { break }
            }
            do {
                try await round()
                delay = .milliseconds(500)
            } catch {
                status.lastError = Self.describe(error)
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, Self.longestBackOff)
                wake.yield()
            }
        }
    }

    /// One round: follow the circle, send what is pending, take in what is new.
    package func round() async throws {
        // Counted before the server is reached: a device offline still shows what waits to be sent.
        if let unsent = try? keychain.unsentSyncChangeCount() { status.pending = unsent }
        // Keys read while the keychain was locked lack their whenUnlocked part: read again.
        if record.state.keys.values.contains(where: { !$0.hasWhenUnlocked }),
            let stored = try? keychain.loadCircle()
        {
            for (generation, keys) in stored.state.keys where keys.hasWhenUnlocked {
                record.state.keys[generation] = keys
            }
        }
        if needsSaving {
            try keychain.saveCircle(record)
            needsSaving = false
        }
        var state = record.state
        let listVersion = state.list.version
        let generations = state.keys.count
        try await membership.follow(&state)
        for (reason, count) in state.refused { status.refused[reason, default: 0] += count }
        state.refused = [:]
        if state.list.version != listVersion || state.keys.count != generations {
            record.state = state
            // Kept even if writing fails (locked): written at a later round.
            needsSaving = true
            try keychain.saveCircle(record)
            needsSaving = false
        }
        status.isRemoved = !state.isMember
        guard state.isMember else {
            status.lastError = "this device was removed from the circle"
            return
        }
        guard let keys = state.currentKeys else {
            status.awaitsKeys = true
            return
        }
        status.awaitsKeys = false
        try await push(with: keys, state: state)
        try await pull(state: state)
        try await compact(state: state)
        status.lastExchange = Date()
        status.lastError = nil
    }

    // MARK: Sending

    private func push(with keys: CircleKeys, state: CircleState) async throws {
        let naming = keys.naming
        while true {
            let pending = try keychain.pendingSyncChanges(limit: Self.batch) {
                SyncRecord.itemID(of: $0, naming: naming)
            }
            status.pending = pending.changes.count + pending.deferred
            guard !pending.isEmpty else { return }
            var records: [RelayRecord] = []
            for change in pending.changes {
                let sealed = try SyncRecord(
                    payload: change.payload,
                    itemID: change.itemID,
                    version: change.version,
                    syncClass: change.syncClass,
                    keys: keys,
                    circle: state.circle,
                    signedBy: state.identity
                )
                records.append(RelayRecord(itemID: change.itemID, version: change.version, body: sealed.encoded))
            }
            try await relay.push(records, circle: state.circle)
            try keychain.settleSyncChanges(pending)
            status.sent += records.count
            status.pending = 0
            if pending.entries.count < Self.batch { return }
        }
    }

    // MARK: Receiving

    private func pull(state initial: CircleState) async throws {
        if cursorState == nil { cursorState = try keychain.syncCursor() }
        var state = initial
        guard let naming = state.currentKeys?.naming else { return }
        // A record from a device that joined, or under keys that came, after this round followed the
        // circle: followed once more before such a record is given up (the cursor would pass it).
        var followedAgain = false
        // The next batch is fetched and opened (signatures, decryption) while this one is applied;
        // a round cancelled (leaving the circle, the daemon stopping) cancels it, whose relay call
        // then gives up its connection at once.
        var next: Task<ReceivedBatch, any Error>? = fetch(after: cursor, state: state, stopAtNews: true)
        defer { next?.cancel() }
        while let fetching = next {
            let batch = try await withTaskCancellationHandler {
                try await fetching.value
            } onCancel: {
                fetching.cancel()
            }
            next = nil
            try Task.checkCancellation()
            if batch.awaitsNews {
                followedAgain = true
                try await membership.follow(&state)
                state.refused = [:]
                record.state.list = state.list
                for (generation, keys) in state.keys { record.state.keys[generation] = keys }
                needsSaving = true
                try keychain.saveCircle(record)
                needsSaving = false
                // The same records again, with what was new.
                next = fetch(after: cursor, state: state, stopAtNews: false)
                continue
            }
            guard let last = batch.last else { return }
            if batch.count >= Self.batch { next = fetch(after: last, state: state, stopAtNews: !followedAgain) }
            for error in batch.refusals { refuse(error) }
            let outcomes = try keychain.applySyncChanges(batch.changes) { SyncRecord.itemID(of: $0, naming: naming) }
            for outcome in outcomes {
                switch outcome {
                case .applied: status.received += 1
                case .stale: refuse(SyncError(.stale, "a change older than the item held"), quietly: true)
                case .keptNewer: break
                case .refused: refuse(SyncError(.misplaced, "a change of an item no circle may carry"))
                }
            }
            cursor = last
            try keychain.setSyncCursor(cursor)
        }
    }

    /// Starts fetching and opening the batch after `cursor`, off the exchange.
    private nonisolated func fetch(
        after cursor: RelayCursor,
        state: CircleState,
        stopAtNews: Bool
    ) -> Task<ReceivedBatch, any Error> {
        Task { [relay] in
            try await ReceivedBatch.fetch(
                from: relay,
                after: cursor,
                limit: Self.batch,
                state: state,
                stopAtNews: stopAtNews
            )
        }
    }

    // MARK: Forgetting deletions

    /// Removes, at most once per ``compactionInterval``, the server's rows of deletions older than
    /// ``Keychain/deletionLifetime`` (only while they still hold that deletion), then forgets them here.
    private func compact(state: CircleState) async throws {
        let now = Date()
        if let last = lastCompaction, now.timeIntervalSince(last) < compactionInterval { return }
        let old = try keychain.deletions(olderThan: now.addingTimeInterval(-Keychain.deletionLifetime))
        for deletion in old {
            try await relay.remove(itemID: deletion.itemID, version: deletion.version, circle: state.circle)
        }
        try keychain.forgetDeletions(old)
        if old.count < 1000 { lastCompaction = now }
    }

    private func refuse(_ error: SyncError, quietly: Bool = false) {
        status.refused[error.reason, default: 0] += 1
        if !quietly {
            logger.warning("ignored a message from the sync server", metadata: ["sync.refused": "\(error)"])
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? KeychainError {
            return error.code == .interactionNotAllowed ? "the keychain is locked" : error.message
        }
        return String(describing: error)
    }
}
