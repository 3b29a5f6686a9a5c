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
import KeychainEngine
import KeychainSync
import KeychainSyncRelay
import KeychainTestSupport
import Logging

/// One device of a test's circle: a keychain of its own in a temporary folder, its connection to
/// the server, and its exchange once it is in the circle.
final class SyncedDevice: Sendable {
    let name: String
    let directory: URL
    let keychain: Keychain
    let relay: StagedRelay
    let identity: DeviceIdentity
    let server: String
    private let exchangeState = LockedState<SyncExchange?>(nil)

    /// A device named `name` on `server`, its keychain made in `tpm` when given (and with it the
    /// identity's membership and agreement keys); `clock` is its keychain's.
    ///
    /// - Throws: When the keychain cannot be made or the server's URL is not one.
    init(
        _ name: String,
        server: String,
        tpm: SoftwareTPM? = nil,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        self.name = name
        self.server = server
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kc-sync-\(name)-\(UUID().uuidString.prefix(8))"
        )
        self.directory = directory
        let logger = Logger(label: "sync-test.\(name)")
        keychain = try Keychain(
            directory: directory,
            accessGroups: .standard,
            passcodeKDF: .testing,
            clock: clock,
            secrets: tpm.map { SecretStores.candidates(in: directory, tpm: .tcti($0.tcti), logger: logger) }
        )
        relay = StagedRelay(PostgresSyncRelay(address: try RelayAddress(server), logger: logger))
        identity = try DeviceIdentity(name: name, store: keychain.deviceKeyStore)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    var exchange: SyncExchange {
        get throws {
            guard let exchange = exchangeState.withLock({ $0 }) else { throw SyncTestError("\(name) is in no circle") }
            return exchange
        }
    }

    private func enter(_ state: CircleState) throws {
        let record = SyncCircleRecord(state: state, server: server)
        try keychain.saveCircle(record)
        try keychain.journalEveryItemThatMayTravel()
        exchangeState.withLock {
            $0 = SyncExchange(keychain: keychain, relay: relay, record: record, compactionInterval: 0)
        }
    }

    /// Makes a circle with this device alone.
    func create() async throws {
        try enter(try await CircleMembership(relay: relay).create(as: identity))
    }

    /// Joins the circle `approver` is in, approved there with the code.
    func join(approvedBy approver: SyncedDevice) async throws {
        let membership = CircleMembership(relay: relay)
        let (circle, code) = try await membership.requestToJoin(nil, as: identity)
        let approverExchange = try approver.exchange
        let (approved, _) = try await CircleMembership(relay: approver.relay)
            .approve(code: code, in: await approverExchange.circle.state)
        try await approverExchange.adopt(approved)
        guard let state = try await membership.completeJoin(circle, as: identity, code: code) else {
            throw SyncTestError("\(name) was not let in")
        }
        try enter(state)
    }

    /// One round of exchange.
    func sync() async throws { try await exchange.round() }

    // MARK: Items

    func add(_ service: String, _ secret: String, synchronizable: Bool = true, accessible: String = "ak") throws {
        let query = try QueryParser.parse(
            [
                "class": "genp", "svce": service, "acct": "user", "v_Data": Data(secret.utf8), "sync": synchronizable,
                "pdmn": accessible,
            ],
            for: .add
        )
        try keychain.add(query)
    }

    func update(_ service: String, _ secret: String) throws {
        let query = try QueryParser.parse(["class": "genp", "svce": service, "sync": true], for: .update)
        let changes = try QueryParser.parseUpdate(["v_Data": Data(secret.utf8)], itemClass: .genericPassword)
        try keychain.update(query, with: changes)
    }

    func delete(_ service: String) throws {
        try keychain.delete(try QueryParser.parse(["class": "genp", "svce": service, "sync": true], for: .delete))
    }

    /// The synchronizable items' secrets, by service.
    func items() throws -> [String: String] {
        let query = try QueryParser.parse(
            ["class": "genp", "sync": true, "m_Limit": "m_LimitAll", "r_Data": true, "r_Attributes": true],
            for: .copyMatching
        )
        var items: [String: String] = [:]
        let results: [ItemResult]
        do throws(KeychainError) {
            results = try keychain.search(query)
        } catch {
            guard error.code == .itemNotFound else { throw error }
            results = []
        }
        for result in results {
            guard case .string(let service)? = result.attributes["svce"], let data = result.data else { continue }
            items[service] = String(decoding: data, as: UTF8.self)
        }
        return items
    }
}

struct SyncTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
