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
import KeychainCore
import KeychainEngine
import KeychainSync
import KeychainSyncRelay
import KeychainTestSupport
import Logging
import Testing

/// Keychains of one circle exchanging through a real PostgreSQL server: what reaches whom, how
/// conflicts end, what the server holds, and what it cannot make a device do.
@Suite(.serialized) struct SyncExchangeTests {
    let server: PostgresServer

    init() throws { server = try PostgresServer() }

    /// Three devices in one circle, the first of which made it.
    private func circleOfThree() async throws -> (SyncedDevice, SyncedDevice, SyncedDevice) {
        let laptop = try SyncedDevice("laptop", server: server.url)
        let phone = try SyncedDevice("phone", server: server.url)
        let tablet = try SyncedDevice("tablet", server: server.url)
        try await laptop.create()
        try await phone.join(approvedBy: laptop)
        try await tablet.join(approvedBy: laptop)
        return (laptop, phone, tablet)
    }

    private func syncAll(_ devices: SyncedDevice..., rounds: Int = 2) async throws {
        for _ in 0..<rounds {
            for device in devices { try await device.sync() }
        }
    }

    @Test func addsUpdatesAndDeletesReachEveryDevice() async throws {
        let (laptop, phone, tablet) = try await circleOfThree()
        try laptop.add("mail", "laptop-secret")
        try phone.add("bank", "phone-secret", accessible: "ck")
        try tablet.add("wifi", "tablet-secret")
        try await syncAll(laptop, phone, tablet)
        let expected = ["mail": "laptop-secret", "bank": "phone-secret", "wifi": "tablet-secret"]
        for device in [laptop, phone, tablet] { #expect(try device.items() == expected, "\(device.name)") }

        try phone.update("mail", "changed-on-the-phone")
        try tablet.delete("bank")
        try await syncAll(laptop, phone, tablet)
        for device in [laptop, phone, tablet] {
            #expect(try device.items() == ["mail": "changed-on-the-phone", "wifi": "tablet-secret"], "\(device.name)")
        }
        #expect(await (try laptop.exchange).status.refused.isEmpty)
    }

    @Test func aKeychainOfSeveralBatchesReachesAnotherDeviceWhole() async throws {
        let laptop = try SyncedDevice("laptop", server: server.url)
        let phone = try SyncedDevice("phone", server: server.url)
        try await laptop.create()
        try await phone.join(approvedBy: laptop)
        // More than two batches: the phone opens each next batch while it applies the one before.
        let count = 2 * SyncExchange.batch + 37
        var expected: [String: String] = [:]
        for index in 0..<count {
            try laptop.add("item-\(index)", "secret-\(index)")
            expected["item-\(index)"] = "secret-\(index)"
        }
        try await laptop.sync()
        #expect(await (try laptop.exchange).status.sent == count)
        try await phone.sync()
        #expect(try phone.items() == expected)
        let status = await (try phone.exchange).status
        #expect(status.received == count)
        #expect(status.refused.isEmpty)
        // A change after the whole keychain arrives alone: the phone's place in the stream was kept.
        try laptop.update("item-0", "changed")
        try await laptop.sync()
        try await phone.sync()
        #expect(try phone.items()["item-0"] == "changed")
        #expect(await (try phone.exchange).status.received == count + 1)
    }

    @Test func aRoundCancelledWhileItReceivesStopsAndTheNextTakesInTheRest() async throws {
        let laptop = try SyncedDevice("laptop", server: server.url)
        let phone = try SyncedDevice("phone", server: server.url)
        try await laptop.create()
        try await phone.join(approvedBy: laptop)
        let count = 4 * SyncExchange.batch
        for index in 0..<count { try laptop.add("item-\(index)", "secret-\(index)") }
        try await laptop.sync()
        // Leaving the circle or stopping the daemon cancels the round under way: it ends there,
        // not after the rest of the server's stream. Cancelled once the first batch is in, seen
        // from a thread of its own (a full test run can starve the tasks' threads for minutes).
        let round = Task { try await phone.sync() }
        let watcher = Thread {
            let deadline = Date().addingTimeInterval(120)
            while ((try? phone.items().count) ?? 0) == 0, Date() < deadline { usleep(10_000) }
            round.cancel()
        }
        watcher.start()
        await #expect(throws: (any Error).self) { try await round.value }
        #expect(try phone.items().count < count)
        try await phone.sync()
        #expect(try phone.items().count == count)
        #expect(await (try phone.exchange).status.refused.isEmpty)
    }

    @Test func concurrentChangesEndTheSameEverywhere() async throws {
        let (laptop, phone, tablet) = try await circleOfThree()
        try laptop.add("shared", "first")
        try await syncAll(laptop, phone, tablet)
        // Both change the item before either hears of the other; then one deletes another item
        // while a third device updates it.
        try laptop.update("shared", "from-the-laptop")
        try phone.update("shared", "from-the-phone")
        try laptop.add("contested", "v1")
        try await syncAll(laptop, phone, tablet)
        try tablet.delete("contested")
        try phone.update("contested", "v2")
        try await syncAll(tablet, phone, laptop, rounds: 3)
        let ends = try [laptop, phone, tablet].map { try $0.items() }
        #expect(ends[0] == ends[1] && ends[1] == ends[2])
        // The phone changed "shared" last, and its version is the greater.
        #expect(ends[0]["shared"] == "from-the-phone")
        #expect(ends[0]["contested"] == "v2")
    }

    @Test func whatStaysOnTheDeviceNeverReachesTheServer() async throws {
        let (laptop, phone, _) = try await circleOfThree()
        try laptop.add("travels", "synced-secret-1f3a")
        try laptop.add("stays-device-only", "device-only-secret-9c2e", accessible: "aku")
        try laptop.add("stays-local", "local-secret-77b1", synchronizable: false)
        try await syncAll(laptop, phone)
        #expect(try phone.items() == ["travels": "synced-secret-1f3a"])

        let dump = try server.sql(
            """
            SELECT string_agg(encode(circle || item || version || device || body, 'hex'), '') FROM swkc_records
            UNION ALL SELECT string_agg(encode(body, 'hex'), '') FROM swkc_lists
            UNION ALL SELECT string_agg(encode(body, 'hex'), '') FROM swkc_grants
            """
        )
        #expect(!dump.isEmpty)
        for secret in [
            "synced-secret-1f3a", "device-only-secret-9c2e", "local-secret-77b1", "stays-device-only",
            "stays-local", "travels",
        ] {
            #expect(!dump.contains(Data(secret.utf8).map { String(format: "%02x", $0) }.joined()), "\(secret)")
        }
        // One record for the one synchronised item: nothing else leaves, not even as ciphertext.
        #expect(try server.sql("SELECT count(*) FROM swkc_records") == "1\n")
        // The rows hold a size bucket, not a length.
        let sizes = try server.sql("SELECT DISTINCT length(body) FROM swkc_records")
        try laptop.add("travels-too", String(repeating: "x", count: 3))
        try await laptop.sync()
        #expect(try server.sql("SELECT DISTINCT length(body) FROM swkc_records") == sizes)
    }

    @Test func aRemovedDeviceReadsNothingWrittenAfterwards() async throws {
        let (laptop, phone, tablet) = try await circleOfThree()
        try laptop.add("before", "known-to-all")
        try await syncAll(laptop, phone, tablet)
        let oldTabletState = await (try tablet.exchange).circle.state

        let removed = try await CircleMembership(relay: laptop.relay)
            .remove(tablet.identity.id, from: await (try laptop.exchange).circle.state)
        try await (try laptop.exchange).adopt(removed)
        try laptop.add("after", "not-for-the-tablet")
        try phone.update("before", "changed-after-removal")
        try await syncAll(laptop, phone, tablet)
        #expect(try phone.items() == ["before": "changed-after-removal", "after": "not-for-the-tablet"])
        #expect(try tablet.items() == ["before": "known-to-all"])
        #expect(await (try tablet.exchange).status.isRemoved)

        // With its own old keys, the tablet opens none of the rows written after its removal.
        let rows = try await tablet.relay.records(after: .start, limit: 100, circle: oldTabletState.circle)
        #expect(rows.count == 2)
        for (_, body) in rows {
            let record = try SyncRecord(decoding: body, circle: oldTabletState.circle, trusted: removed.list)
            #expect(record.generation == 2)
            for keys in oldTabletState.keys.values {
                #expect(throws: SyncError.self) { try record.payload(with: keys) }
            }
        }
    }

    @Test func newsThatComesDuringARoundIsFollowedBeforeItsRecordsAreTakenIn() async throws {
        let laptop = try SyncedDevice("laptop", server: server.url)
        let phone = try SyncedDevice("phone", server: server.url)
        let tablet = try SyncedDevice("tablet", server: server.url)
        try await laptop.create()
        try await phone.join(approvedBy: laptop)
        try await phone.sync()

        // Between the phone's following of the circle and its receiving, a tablet joins and writes:
        // its record is signed by a device the phone's list does not hold yet.
        phone.relay.beforeNextRead {
            try await tablet.join(approvedBy: laptop)
            try tablet.add("from-the-tablet", "new-device-secret")
            try await tablet.sync()
        }
        try await phone.sync()
        #expect(try phone.items() == ["from-the-tablet": "new-device-secret"])
        #expect(await (try phone.exchange).circle.state.list.contains(tablet.identity.id))
        #expect(await (try phone.exchange).status.refused.isEmpty)

        // The same with keys: the tablet is removed and the laptop writes under the next
        // generation, which the phone learns of only after its round followed the circle.
        phone.relay.beforeNextRead {
            let removed = try await CircleMembership(relay: laptop.relay)
                .remove(tablet.identity.id, from: await (try laptop.exchange).circle.state)
            try await (try laptop.exchange).adopt(removed)
            try laptop.add("after-the-removal", "second-generation-secret")
            try await laptop.sync()
        }
        try await phone.sync()
        #expect(
            try phone.items() == [
                "from-the-tablet": "new-device-secret", "after-the-removal": "second-generation-secret",
            ]
        )
        let state = await (try phone.exchange).circle.state
        #expect(state.keys.keys.max() == 2)
        #expect(!state.list.contains(tablet.identity.id))
        #expect(await (try phone.exchange).status.refused.isEmpty)
        // Kept: a daemon started afresh reads the circle as the round left it.
        let saved = try #require(try phone.keychain.loadCircle())
        #expect(saved.state.keys.keys.max() == 2)
    }

    @Test func rowsTamperedWithAtTheServerAreIgnoredAndCounted() async throws {
        let (laptop, phone, _) = try await circleOfThree()
        try laptop.add("target", "original")
        try await syncAll(laptop, phone)
        let oldBody = try server.sql("SELECT encode(body, 'hex') FROM swkc_records")
        try laptop.update("target", "newer")
        try laptop.add("other", "x")
        try await laptop.sync()

        // One byte of a ciphertext flipped, and the older row replayed over the newer one.
        try server.sql(
            """
            UPDATE swkc_records SET body = overlay(body placing '\\xff'::bytea from length(body) - 80 for 1),
                xact = pg_current_xact_id() WHERE body <> decode('\(oldBody.trimmingCharacters(in: .whitespacesAndNewlines))', 'hex')
                AND item = (SELECT item FROM swkc_records ORDER BY sequence DESC LIMIT 1)
            """
        )
        try await phone.sync()
        let status = await (try phone.exchange).status
        #expect(try phone.items()["other"] == nil)
        #expect(status.refused[.untrusted, default: 0] + status.refused[.undecryptable, default: 0] >= 1)

        try server.sql(
            """
            UPDATE swkc_records SET body = decode('\(oldBody.trimmingCharacters(in: .whitespacesAndNewlines))', 'hex'),
                xact = pg_current_xact_id(), sequence = nextval('swkc_sequence')
            WHERE item = (SELECT item FROM swkc_records ORDER BY sequence LIMIT 1)
            """
        )
        try await phone.sync()
        #expect(try phone.items()["target"] == "newer")

        // A row moved into another circle: that circle's devices refuse it.
        let stranger = try SyncedDevice("stranger", server: server.url)
        try await stranger.create()
        let strangerCircle = await (try stranger.exchange).circle.state.circle
        try server.sql(
            """
            INSERT INTO swkc_records (circle, item, version, device, xact, sequence, body)
            SELECT decode('\(strangerCircle)', 'hex'), item, version, device, pg_current_xact_id(),
                nextval('swkc_sequence'), body FROM swkc_records
            WHERE circle = decode('\(await (try laptop.exchange).circle.state.circle)', 'hex')
            """
        )
        try await stranger.sync()
        #expect(try stranger.items().isEmpty)
        #expect(await (try stranger.exchange).status.refused[.misplaced, default: 0] >= 2)
    }

    @Test func changesMadeWhileTheServerIsDownArriveWhenItIsBack() async throws {
        let laptop = try SyncedDevice("laptop", server: server.url)
        let phone = try SyncedDevice("phone", server: server.url)
        try await laptop.create()
        try await phone.join(approvedBy: laptop)
        let laptopRun = Task { await (try? laptop.exchange)?.run() }
        let phoneRun = Task { await (try? phone.exchange)?.run() }
        defer {
            laptopRun.cancel()
            phoneRun.cancel()
        }
        var expected: [String: String] = [:]
        for index in 0..<60 {
            if index == 20 { server.stop() }
            if index == 40 { try server.start() }
            try laptop.add("item-\(index)", "secret-\(index)")
            expected["item-\(index)"] = "secret-\(index)"
            try await Task.sleep(for: .milliseconds(20))
        }
        // Generous: the whole suite runs beside it on two cores (a passing run takes seconds).
        let deadline = ContinuousClock.now + .seconds(300)
        // The laptop's count of pending changes is set once its push returns, after the phone may
        // already hold them.
        while ContinuousClock.now < deadline {
            if try phone.items() == expected, await (try laptop.exchange).status.pending == 0 { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(try phone.items() == expected)
        #expect(await (try laptop.exchange).status.pending == 0)
    }

    @Test func deletionsOlderThanTheirLifetimeAreForgottenHereAndOnTheServer() async throws {
        // The laptop's clock is 200 days behind: its deletion is older than the lifetime at once.
        let laptop = try SyncedDevice("laptop", server: server.url) { Date().addingTimeInterval(-200 * 86_400) }
        let phone = try SyncedDevice("phone", server: server.url)
        try await laptop.create()
        try await phone.join(approvedBy: laptop)
        try laptop.add("old", "deleted-long-ago")
        try laptop.add("kept", "still-here")
        try await syncAll(laptop, phone)
        try laptop.delete("old")
        try await laptop.sync()
        // The laptop forgot the deletion and removed its row; the phone had not read it yet.
        #expect(try server.sql("SELECT count(*) FROM swkc_records") == "1\n")
        #expect(try laptop.keychain.deletions(olderThan: Date()).isEmpty)
        try await phone.sync()
        // So the phone keeps the item: what a device away for longer than the lifetime sees.
        #expect(try phone.items() == ["old": "deleted-long-ago", "kept": "still-here"])

        // A recent deletion stays on the server for the others to read. (The laptop, whose clock
        // is 200 days behind, refuses it: a version more than a day ahead of a device's clock would
        // win every later change there.)
        try phone.delete("kept")
        try await syncAll(phone, laptop)
        #expect(try laptop.items() == ["kept": "still-here"])
        #expect(await (try laptop.exchange).status.refused[.misplaced, default: 0] >= 1)
        // The row of "kept", now the phone's deletion; "old"'s row is gone.
        #expect(try server.sql("SELECT count(*) FROM swkc_records") == "1\n")
        #expect(try phone.keychain.deletions(olderThan: Date()).count == 1)
    }
}
