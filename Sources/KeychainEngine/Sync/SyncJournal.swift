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
import GRDB
import KeychainCore
import KeychainSync

/// The keychain's record of its synchronizable items' changes, for the circle it is in.
///
/// Every add, update or delete of an item marked `kSecAttrSynchronizable` writes, in its own
/// transaction, the item's row identifier and a version from the device's hybrid logical clock
/// (`sync_journal`): the change is then sent whenever the circle is reached, even after a crash
/// or a month offline, and it carries the time it was made. A keychain in no circle writes
/// nothing. The clock is read from the database once, then kept here.
final class SyncJournal: Sendable {
    private enum State {
        case unknown
        case off
        case on(HybridLogicalClock)
    }

    /// The exchange's nudge, boxed: a closure kept directly as a generic lock's value is wrapped
    /// in two more reabstraction thunks at every `withLock` that reads it (`inout` across the
    /// generic boundary), so after n changes a call went through 2n thunks.
    private final class Listener: Sendable {
        let call: @Sendable () -> Void
        init(_ call: @escaping @Sendable () -> Void) { self.call = call }
    }

    private let state = LockedState(State.unknown)
    private let listener = LockedState<Listener?>(nil)

    /// Calls `body` after every transaction that journaled a change (the exchange's nudge).
    func onChange(_ body: (@Sendable () -> Void)?) {
        let boxed = body.map(Listener.init)
        listener.withLock { $0 = boxed }
    }

    /// Tells the listener, once `db`'s transaction commits, that a change was journaled.
    func noteChange(in db: Database) {
        guard let listener = listener.withLock({ $0 }) else { return }
        db.afterNextTransaction { _ in listener.call() }
    }

    /// A version for a change made now, or `nil` when the keychain is in no circle.
    func stamp(now: Date, in db: Database) throws(KeychainError) -> SyncVersion? {
        try load(db)
        return state.withLock { state -> SyncVersion? in
            guard case .on(var clock) = state else { return nil }
            let version = clock.tick(now: now)
            state = .on(clock)
            return version
        }
    }

    /// Takes in a version another device made, so that this device's next change is after it.
    func observe(_ version: SyncVersion, now: Date) {
        state.withLock { state in
            guard case .on(var clock) = state else { return }
            clock.observe(version, now: now)
            state = .on(clock)
        }
    }

    /// The device's id in its circle, `nil` when it is in none.
    func device(in db: Database) throws(KeychainError) -> DeviceID? {
        try load(db)
        return state.withLock { state in
            if case .on(let clock) = state { return clock.device }
            return nil
        }
    }

    /// Starts journaling as `device` (joining or making a circle), or stops (`nil`: leaving it,
    /// which forgets every journaled change and known item).
    func setDevice(_ device: DeviceID?, in db: Database) throws(KeychainError) {
        try Self.run("cannot record the keychain's circle") {
            if let device {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO sync_device (id, device) VALUES (1, ?)",
                    arguments: [device.rawValue]
                )
            } else {
                try db.execute(sql: "DELETE FROM sync_device; DELETE FROM sync_journal; DELETE FROM sync_items")
            }
        }
        state.withLock { $0 = .unknown }
        try load(db)
    }

    private func load(_ db: Database) throws(KeychainError) {
        guard state.withLock({ if case .unknown = $0 { return true } else { return false } }) else { return }
        let loaded = try Self.run("cannot read the keychain's circle") { () -> State in
            guard let raw = try Data.fetchOne(db, sql: "SELECT device FROM sync_device WHERE id = 1"),
                let device = try? DeviceID(rawValue: raw)
            else { return .off }
            var clock = HybridLogicalClock(device: device)
            let latest = try Data.fetchOne(
                db,
                sql:
                    "SELECT max(version) FROM (SELECT version FROM sync_journal UNION ALL SELECT version FROM sync_items)"
            )
            if let latest, let version = try? SyncVersion(encoded: latest) {
                clock.observe(version, now: Date())
            }
            return .on(clock)
        }
        state.withLock { state in
            if case .unknown = state { state = loaded }
        }
    }

    static func run<T>(_ message: String, _ body: () throws -> T) throws(KeychainError) -> T {
        do {
            return try body()
        } catch let error as KeychainError {
            throw error
        } catch {
            throw SQLiteItemStore.translate(error, message)
        }
    }
}
