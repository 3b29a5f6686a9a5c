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
import KeychainContract
import KeychainCore
import KeychainTestSupport
import Testing

/// A circle of daemons, each in a network namespace of its own, reaching one PostgreSQL server the
/// test starts: what the README promises a user who synchronises their devices.
@Suite(.serialized) struct SyncCircleTests {
    /// A device: its namespace, its daemon, and its URL of the server.
    final class Machine {
        let name: String
        let network: NetworkNamespace
        let daemon: PrivateDaemon
        let server: String

        init(_ name: String, index: Int, postgres: PostgresServer) throws {
            self.name = name
            network = try NetworkNamespace(index: index)
            daemon = try PrivateDaemon(networkNamespace: network.name)
            server = postgres.url(host: network.hostAddress)
        }

        deinit { daemon.stop() }

        func security(_ arguments: [String], input: String = "") throws -> ProgramOutput {
            try daemon.tool(arguments, input: input, starting: false)
        }

        func request(_ request: EngineRequest) throws -> EngineResponse {
            let socket = try RawClient.connect(daemon.endpoint.socketPath)
            defer { close(socket) }
            return try RawClient.exchange(request, on: socket)
        }

        func add(_ service: String, _ secret: String, synchronizable: Bool = true, accessible: String = "ak") throws {
            let query = try QueryParser.parse(
                [
                    "class": "genp", "svce": service, "acct": name, "v_Data": Data(secret.utf8),
                    "sync": synchronizable, "pdmn": accessible,
                ],
                for: .add
            )
            guard case .item = try request(.add(query)) else {
                throw SyncCircleError("\(name) could not add \(service)")
            }
        }

        func update(_ service: String, _ secret: String) throws {
            let query = try QueryParser.parse(["class": "genp", "svce": service, "sync": true], for: .update)
            let changes = try QueryParser.parseUpdate(["v_Data": Data(secret.utf8)], itemClass: .genericPassword)
            guard case .done = try request(.update(query, changes)) else {
                throw SyncCircleError("\(name) could not update \(service)")
            }
        }

        func delete(_ service: String) throws {
            let query = try QueryParser.parse(["class": "genp", "svce": service, "sync": true], for: .delete)
            guard case .done = try request(.delete(query)) else { throw SyncCircleError("\(name) could not delete") }
        }

        /// The synchronizable items' secrets, by service.
        func items() throws -> [String: String] {
            let query = try QueryParser.parse(
                ["class": "genp", "sync": true, "m_Limit": "m_LimitAll", "r_Data": true, "r_Attributes": true],
                for: .copyMatching
            )
            guard case .items(let results) = try request(.search(query)) else { return [:] }
            var items: [String: String] = [:]
            for result in results {
                guard case .string(let service)? = result.attributes["svce"], let data = result.data else { continue }
                items[service] = String(decoding: data, as: UTF8.self)
            }
            return items
        }

        /// Joins the circle `approver` is in, with the code `security sync join` prints.
        func join(approvedBy approver: Machine) throws {
            let asked = try security(["sync", "join", "--server", server, "--name", name, "--no-wait"])
            guard asked.status == 0,
                let line = asked.stdout.split(separator: "\n").first(where: { $0.contains("approve") }),
                let code = line.split(separator: " ").last
            else { throw SyncCircleError("\(name) could not ask to join: \(asked.stderr)") }
            let approved = try approver.security(["sync", "approve", String(code)])
            guard approved.status == 0 else { throw SyncCircleError("approving \(name): \(approved.stderr)") }
            let deadline = Date().addingTimeInterval(180)
            while Date() < deadline {
                if try security(["sync", "status"]).stdout.hasPrefix("circle ") { return }
                Thread.sleep(forTimeInterval: 0.2)
            }
            throw SyncCircleError("\(name) was not let in: \(try security(["sync", "status"]).stdout)")
        }
    }

    struct SyncCircleError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Waits until every machine holds the same secret for `service`, and returns it.
    private func agreement(_ machines: [Machine], on service: String, seconds: Double = 180) throws -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            let secrets = try machines.map { try $0.items()[service] }
            if Set(secrets).count == 1 { return secrets[0] }
            Thread.sleep(forTimeInterval: 0.2)
        } while Date() < deadline
        throw SyncCircleError("the machines do not agree on \(service)")
    }

    /// Waits until every machine holds `expected` (generous deadlines: the whole suite runs beside
    /// these daemons on two cores; a passing run takes seconds).
    private func converge(_ machines: [Machine], to expected: [String: String], seconds: Double = 180) throws {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try machines.allSatisfy({ try $0.items() == expected }) { return }
            Thread.sleep(forTimeInterval: 0.2)
        }
        for machine in machines {
            let items = try machine.items()
            let differing = Set(items.keys).union(expected.keys).filter { items[$0] != expected[$0] }.sorted()
            // The services that differ, never the secrets.
            #expect(differing.isEmpty, "\(machine.name) differs on \(differing)")
        }
    }

    @Test func threeDevicesAndALateOneEndWithTheSameItems() throws {
        let postgres = try PostgresServer(listening: "*")
        let laptop = try Machine("laptop", index: 1, postgres: postgres)
        let phone = try Machine("phone", index: 2, postgres: postgres)
        let tablet = try Machine("tablet", index: 3, postgres: postgres)

        let made = try laptop.security(["sync", "create", "--server", laptop.server, "--name", "laptop"])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(!made.stdout.contains(PostgresServer.password) && made.stdout.contains("***"))
        try phone.join(approvedBy: laptop)
        try tablet.join(approvedBy: laptop)

        try laptop.add("mail", "from-laptop")
        try phone.add("bank", "from-phone", accessible: "ck")
        try tablet.add("wifi", "from-tablet")
        var expected = ["mail": "from-laptop", "bank": "from-phone", "wifi": "from-tablet"]
        try converge([laptop, phone, tablet], to: expected)

        try phone.update("mail", "changed-by-phone")
        try tablet.delete("bank")
        expected = ["mail": "changed-by-phone", "wifi": "from-tablet"]
        try converge([laptop, phone, tablet], to: expected)

        // Two devices change one item at once: every device ends with the same one.
        try laptop.update("wifi", "laptop-says")
        try phone.update("wifi", "phone-says")
        // Once all three agree the agreement is final: a writer takes the other's change only if it wins.
        let wifi = try agreement([laptop, phone, tablet], on: "wifi")
        #expect(wifi == "laptop-says" || wifi == "phone-says")
        expected["wifi"] = wifi
        try converge([laptop, phone, tablet], to: expected)

        // The tablet goes offline; the others change things, and so does the tablet; then it is back.
        try tablet.network.setOnline(false)
        try laptop.add("while-away", "added-meanwhile")
        try phone.delete("mail")
        try tablet.add("offline-note", "written-offline")
        // The tablet's status counts its change as waiting, though it cannot reach the server.
        let waiting = Date().addingTimeInterval(60)
        while Date() < waiting, try !tablet.security(["sync", "status"]).stdout.contains("pending changes: 1;") {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(try tablet.security(["sync", "status"]).stdout.contains("pending changes: 1;"))
        Thread.sleep(forTimeInterval: 2)
        #expect(try tablet.items()["while-away"] == nil)
        #expect(try laptop.items()["offline-note"] == nil)
        try tablet.network.setOnline(true)
        expected["while-away"] = "added-meanwhile"
        expected["mail"] = nil
        expected["offline-note"] = "written-offline"
        try converge([laptop, phone, tablet], to: expected, seconds: 300)

        // What stays on a device never reaches the server, not even as ciphertext.
        try laptop.add("device-only", "device-only-secret-5d1c", accessible: "aku")
        try laptop.add("not-synchronised", "local-secret-0b7e", synchronizable: false)
        try converge([phone, tablet], to: expected)
        var onTheLaptop = expected
        onTheLaptop["device-only"] = "device-only-secret-5d1c"
        try converge([laptop], to: onTheLaptop)
        let dump = try postgres.sql(
            "SELECT string_agg(encode(item || version || device || body, 'hex'), '') FROM swkc_records"
        )
        for secret in [
            "device-only-secret-5d1c", "local-secret-0b7e", "device-only", "not-synchronised", "added-meanwhile",
        ] {
            #expect(!dump.contains(Data(secret.utf8).map { String(format: "%02x", $0) }.joined()), "\(secret)")
        }

        // A device that joins later receives everything.
        let desktop = try Machine("desktop", index: 4, postgres: postgres)
        try desktop.join(approvedBy: phone)
        try converge([phone, tablet, desktop], to: expected)
        let status = try desktop.security(["sync", "status"]).stdout
        for name in ["laptop", "phone", "tablet", "desktop  (this device)"] {
            #expect(status.contains(name), "\(status)")
        }
        #expect(status.contains("pending changes: 0"))
    }

    @Test func aRemovedDeviceReceivesNothingMore() throws {
        let postgres = try PostgresServer(listening: "*")
        let laptop = try Machine("laptop", index: 5, postgres: postgres)
        let phone = try Machine("phone", index: 6, postgres: postgres)
        // The password typed, not written in the command line.
        let withoutPassword = laptop.server.replacingOccurrences(of: ":\(PostgresServer.password)@", with: "@")
        #expect(withoutPassword != laptop.server)
        let made = try laptop.security(
            ["sync", "create", "--server", withoutPassword],
            input: PostgresServer.password + "\n"
        )
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stderr.contains("password for keychain on "))
        try phone.join(approvedBy: laptop)
        try laptop.add("shared", "before")
        try converge([laptop, phone], to: ["shared": "before"])

        let status = try laptop.security(["sync", "status"]).stdout
        let phoneLine = try #require(status.split(separator: "\n").first { $0.contains("phone") })
        let phoneID = String(phoneLine.trimmingCharacters(in: .whitespaces).prefix(8))
        let removed = try laptop.security(["sync", "remove", phoneID])
        #expect(removed.status == 0, "\(removed.stderr)")
        try laptop.add("after", "not-for-the-phone")
        // The phone's daemon learns of its removal at its next round, and takes in nothing more
        // (the laptop's change on the server first: else the phone might not have been offered it).
        let pushed = Date().addingTimeInterval(180)
        while Date() < pushed, try postgres.sql("SELECT count(*) FROM swkc_records") != "2\n" {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(try postgres.sql("SELECT count(*) FROM swkc_records") == "2\n")
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline, try !phone.security(["sync", "status"]).stdout.contains("removed from the circle") {
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(try phone.security(["sync", "status"]).stdout.contains("removed from the circle"))
        #expect(try phone.items() == ["shared": "before"])
        // Nor can it approve anyone or remove anyone any more.
        #expect(try phone.security(["sync", "approve", "0000-0000-0000"]).status != 0)
    }

    @Test func syncNeedsADaemonAndNamesTheServerWithoutItsPassword() throws {
        let runner = SecurityToolRunner()
        defer { runner.remove() }
        let output = try runner.run(["sync", "status"], environment: ["KEYCHAIN_ENGINE": "embedded"])
        #expect(output.status != 0 && output.stderr.contains("securityd"))
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        #expect(try daemon.tool(["sync", "status"]).stdout.contains("in no circle"))
        let refused = try daemon.tool(["sync", "create", "--server", "http://example.org/db"])
        #expect(refused.status != 0 && refused.stderr.contains("postgres://"))
        let unreachable = try daemon.tool(["sync", "create", "--server", "postgres://me:hunter2@127.0.0.1:1/db"])
        #expect(unreachable.status != 0 && !unreachable.stderr.contains("hunter2"))
        // Asked for when the URL has none, and never shown.
        let asked = try daemon.tool(["sync", "create", "--server", "postgres://me@127.0.0.1:1/db"], input: "hunter3\n")
        #expect(asked.status != 0 && asked.stderr.contains("password for me on 127.0.0.1"))
        #expect(!asked.stderr.contains("hunter3") && !asked.stdout.contains("hunter3"))
    }
}
