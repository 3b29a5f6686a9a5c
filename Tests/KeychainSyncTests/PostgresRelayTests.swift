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
import KeychainSyncRelay
import KeychainTestSupport
import Logging
import PostgresNIO
import Testing

/// The relay against a real PostgreSQL server the test starts: what it stores, in what order it
/// hands records back, whom it wakes, and how it survives the server going away.
@Suite(.serialized) struct PostgresRelayTests {
    let logger = Logger(label: "relay-test")

    private func device(_ byte: UInt8) throws -> DeviceID { try DeviceID(rawValue: Data(repeating: byte, count: 16)) }

    private func record(_ item: UInt8, _ milliseconds: UInt64, by device: DeviceID, body: String) -> RelayRecord {
        RelayRecord(
            itemID: Data(repeating: item, count: 32),
            version: SyncVersion(milliseconds: milliseconds, counter: 0, device: device),
            body: Data(body.utf8)
        )
    }

    @Test func theServerKeepsEachItemsGreatestVersionAndHandsRecordsBackInOrder() async throws {
        let server = try PostgresServer()
        let relay = PostgresSyncRelay(address: try RelayAddress(server.url), logger: logger)
        try await relay.prepare()
        try await relay.prepare()
        // The tables belong to the circle's role, which is no superuser.
        #expect(try server.sql("SELECT rolsuper FROM pg_roles WHERE rolname = 'keychain'") == "f\n")
        #expect(try server.sql("SELECT tableowner FROM pg_tables WHERE tablename = 'swkc_records'") == "keychain\n")

        let circle = CircleID.make()
        let other = CircleID.make()
        let a = try device(1)
        let b = try device(2)
        try await relay.push(
            [record(1, 100, by: a, body: "one@100"), record(2, 100, by: a, body: "two@100")],
            circle: circle
        )
        try await relay.push([record(1, 50, by: b, body: "one@50")], circle: circle)  // older: kept out
        try await relay.push([record(1, 200, by: b, body: "one@200")], circle: circle)
        try await relay.push([record(1, 999, by: b, body: "elsewhere")], circle: other)

        let all = try await relay.records(after: .start, limit: 100, circle: circle)
        #expect(all.map { String(decoding: $0.body, as: UTF8.self) } == ["two@100", "one@200"])
        #expect(all.map(\.cursor) == all.map(\.cursor).sorted())
        let rest = try await relay.records(after: all[0].cursor, limit: 100, circle: circle)
        #expect(rest.map { String(decoding: $0.body, as: UTF8.self) } == ["one@200"])
        #expect(try await relay.records(after: all[1].cursor, limit: 100, circle: circle).isEmpty)

        // A tombstone is removed only while it is still the item's version.
        let hundred = SyncVersion(milliseconds: 100, counter: 0, device: a)
        try await relay.remove(itemID: Data(repeating: 2, count: 32), version: hundred, circle: circle)
        try await relay.remove(itemID: Data(repeating: 1, count: 32), version: hundred, circle: circle)
        let left = try await relay.records(after: .start, limit: 100, circle: circle)
        #expect(left.map { String(decoding: $0.body, as: UTF8.self) } == ["one@200"])

        #expect(Set(try await relay.circles()) == [])  // no device list published yet
        try await relay.publish(list: Data("list-1".utf8), version: 1, circle: circle)
        try await relay.publish(list: Data("list-2".utf8), version: 2, circle: circle)
        try await relay.publish(list: Data("forged-1".utf8), version: 1, circle: circle)  // an existing version stays
        #expect(
            try await relay.lists(after: 0, circle: circle).map(\.body) == [Data("list-1".utf8), Data("list-2".utf8)]
        )
        #expect(try await relay.lists(after: 1, circle: circle).map(\.version) == [2])
        #expect(try await relay.circles() == [circle])
    }

    @Test func joinsAndGrantsAreKeptPerDevice() async throws {
        let server = try PostgresServer()
        let relay = PostgresSyncRelay(address: try RelayAddress(server.url), logger: logger)
        try await relay.prepare()
        let circle = CircleID.make()
        let newcomer = try device(7)
        try await relay.publish(joinRequest: Data("request".utf8), device: newcomer, circle: circle)
        #expect(try await relay.joinRequests(circle: circle).map(\.body) == [Data("request".utf8)])
        #expect(try await relay.approval(for: newcomer, circle: circle) == nil)
        try await relay.publish(approval: Data("approval".utf8), device: newcomer, circle: circle)
        #expect(try await relay.joinRequests(circle: circle).isEmpty)
        #expect(try await relay.approval(for: newcomer, circle: circle) == Data("approval".utf8))
        try await relay.publish(grant: Data("g1".utf8), recipient: newcomer, generation: 1, circle: circle)
        try await relay.publish(grant: Data("g2".utf8), recipient: newcomer, generation: 2, circle: circle)
        #expect(try await relay.grants(for: newcomer, upTo: 2, circle: circle) == [Data("g2".utf8), Data("g1".utf8)])
        #expect(try await relay.grants(for: try device(8), upTo: 2, circle: circle).isEmpty)
    }

    @Test func aPushWakesTheOtherDevicesListener() async throws {
        let server = try PostgresServer()
        let address = try RelayAddress(server.url)
        let writer = PostgresSyncRelay(address: address, logger: logger)
        let listener = PostgresSyncRelay(address: address, logger: logger)
        try await writer.prepare()
        let circle = CircleID.make()
        #expect(try await listener.waitForChanges(circle: circle, timeout: .milliseconds(200)) == false)
        // A wait that ends by its time-out answers false, so true is the news itself. No clock is read:
        // in a full run this suite's tasks wait seconds for a thread, and the time-out is wide for that.
        async let woken = listener.waitForChanges(circle: circle, timeout: .seconds(120))
        try await Task.sleep(for: .milliseconds(300))
        try await writer.push([record(1, 1, by: try device(1), body: "x")], circle: circle)
        #expect(try await woken == true)
        // Another circle's news wakes nobody here.
        try await writer.push([record(1, 1, by: try device(1), body: "x")], circle: CircleID.make())
        #expect(try await listener.waitForChanges(circle: circle, timeout: .milliseconds(500)) == false)
    }

    @Test func theRelayReconnectsWhenTheServerComesBack() async throws {
        let server = try PostgresServer()
        let relay = PostgresSyncRelay(address: try RelayAddress(server.url), logger: logger)
        try await relay.prepare()
        let circle = CircleID.make()
        try await relay.push([record(1, 1, by: try device(1), body: "before")], circle: circle)
        server.stop()
        await #expect(throws: RelayFailure.self) {
            try await relay.push([self.record(2, 2, by: try self.device(1), body: "during")], circle: circle)
        }
        try server.start()
        try await relay.push([record(3, 3, by: try device(1), body: "after")], circle: circle)
        let bodies = try await relay.records(after: .start, limit: 10, circle: circle).map {
            String(decoding: $0.body, as: UTF8.self)
        }
        #expect(bodies == ["before", "after"])
    }

    // A call that never ends (postgres-nio alone waits forever here) fails the test at its time
    // limit; how soon the call fails is `CallDeadlineTests`' (a starved test process stretches any
    // clock read here). The calls meant to succeed have 15 s, as the server's statement time-out
    // is a part of the call's.
    @Test(.timeLimit(.minutes(10)))
    func aServerThatStopsAnsweringFailsTheCallInTimeAndTheNextOneReconnects() async throws {
        let server = try PostgresServer()
        let relay = PostgresSyncRelay(address: try RelayAddress(server.url), logger: logger, callTimeout: .seconds(15))
        try await relay.prepare()
        let circle = CircleID.make()
        try await relay.push([record(1, 1, by: try device(1), body: "before")], circle: circle)
        // The relay's server process stops without a word, as behind a link that went down.
        let backends = try server.sql(
            "SELECT pid FROM pg_stat_activity WHERE usename = 'keychain'",
            database: "postgres"
        )
        .split(separator: "\n").compactMap { Int32($0) }
        #expect(backends.count == 1)
        for backend in backends { kill(backend, SIGSTOP) }
        await #expect(throws: RelayFailure.self) {
            try await relay.push([self.record(2, 2, by: try self.device(1), body: "during")], circle: circle)
        }
        for backend in backends { kill(backend, SIGCONT) }
        try await relay.push([record(3, 3, by: try device(1), body: "after")], circle: circle)
        let bodies = try await relay.records(after: .start, limit: 10, circle: circle).map {
            String(decoding: $0.body, as: UTF8.self)
        }
        #expect(bodies == ["before", "after"])
    }

    @Test func aStatementOnAConnectionClosedUnderItFailsAtOnce() async throws {
        // postgres-nio alone never answers a statement written to a closed connection.
        let server = try PostgresServer()
        let connection = try await PostgresConnection.connect(
            configuration: .init(
                host: server.host,
                port: server.port,
                username: PostgresServer.role,
                password: PostgresServer.password,
                database: "keychain",
                tls: .disable
            ),
            id: 1,
            logger: logger
        )
        try await connection.statement("SELECT 1", logger: logger)
        try await connection.close()
        await #expect(throws: RelayFailure.self) { try await connection.statement("SELECT 1", logger: self.logger) }
        await #expect(throws: RelayFailure.self) {
            try await connection.inTransaction(logger: self.logger) { _ in }
        }
    }

    @Test func aWrongPasswordIsReportedWithoutIt() async throws {
        let server = try PostgresServer()
        let url = server.url.replacingOccurrences(of: PostgresServer.password, with: "not-the-password")
        let address = try RelayAddress(url)
        #expect(!address.redacted.contains("not-the-password"))
        let relay = PostgresSyncRelay(address: address, logger: logger)
        do {
            try await relay.prepare()
            Issue.record("a wrong password was accepted")
        } catch {
            #expect(!String(describing: error).contains("not-the-password"))
        }
    }

    @Test func serverURLsAreReadAsLibpqWritesThem() throws {
        let tcp = try RelayAddress("postgres://me:secret@db.example.org:6543/keys")
        #expect(tcp.endpoint == .tcp(host: "db.example.org", port: 6543) && tcp.requiresTLS)
        #expect(tcp.redacted == "postgres://me:***@db.example.org:6543/keys")
        let loopback = try RelayAddress("postgresql://me@localhost/keys")
        #expect(loopback.endpoint == .tcp(host: "localhost", port: 5432) && !loopback.requiresTLS)
        let socket = try RelayAddress("postgres://me@/keys?host=/run/postgresql")
        #expect(socket.endpoint == .unixSocket(path: "/run/postgresql/.s.PGSQL.5432"))
        #expect(try RelayAddress("postgres://me@db/keys?sslmode=disable").requiresTLS == false)
        for bad in [
            "http://me@db/keys", "postgres://db/keys", "postgres://me@db/", "postgres://me@db/k?x=1",
            "postgres://me@db:99999/k", "postgres://me@db/k?sslmode=allow",
        ] {
            #expect(throws: RelayAddressError.self) { try RelayAddress(bad) }
        }
    }
}
