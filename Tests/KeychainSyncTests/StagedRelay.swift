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
import KeychainSync
import KeychainSyncRelay

/// A device's connection to the test's PostgreSQL server, through which a test stages what others
/// do at a chosen moment of a round: the next read of records first runs a scene of the test's.
final class StagedRelay: SyncRelay {
    let server: PostgresSyncRelay
    private let scene = LockedState<Scene?>(nil)

    /// A test's actions, run once.
    final class Scene: Sendable {
        let run: @Sendable () async throws -> Void
        init(_ run: @escaping @Sendable () async throws -> Void) { self.run = run }
    }

    init(_ server: PostgresSyncRelay) { self.server = server }

    /// Runs `scene` before the next read of records answers, between the round's following of the
    /// circle and its receiving.
    func beforeNextRead(_ scene: @escaping @Sendable () async throws -> Void) {
        self.scene.withLock { $0 = Scene(scene) }
    }

    func records(
        after cursor: RelayCursor,
        limit: Int,
        circle: CircleID
    ) async throws
        -> [(cursor: RelayCursor, body: Data)]
    {
        if let scene = scene.withLock({ current in
            defer { current = nil }
            return current
        }) {
            try await scene.run()
        }
        return try await server.records(after: cursor, limit: limit, circle: circle)
    }

    // MARK: Passed on as they are

    func prepare() async throws { try await server.prepare() }

    func circles() async throws -> [CircleID] { try await server.circles() }

    func publish(list: Data, version: UInt64, circle: CircleID) async throws {
        try await server.publish(list: list, version: version, circle: circle)
    }

    func lists(after version: UInt64, circle: CircleID) async throws -> [(version: UInt64, body: Data)] {
        try await server.lists(after: version, circle: circle)
    }

    func publish(grant: Data, recipient: DeviceID, generation: UInt32, circle: CircleID) async throws {
        try await server.publish(grant: grant, recipient: recipient, generation: generation, circle: circle)
    }

    func grants(for recipient: DeviceID, upTo generation: UInt32, circle: CircleID) async throws -> [Data] {
        try await server.grants(for: recipient, upTo: generation, circle: circle)
    }

    func publish(joinRequest: Data, device: DeviceID, circle: CircleID) async throws {
        try await server.publish(joinRequest: joinRequest, device: device, circle: circle)
    }

    func joinRequests(circle: CircleID) async throws -> [(device: DeviceID, body: Data)] {
        try await server.joinRequests(circle: circle)
    }

    func publish(approval: Data, device: DeviceID, circle: CircleID) async throws {
        try await server.publish(approval: approval, device: device, circle: circle)
    }

    func approval(for device: DeviceID, circle: CircleID) async throws -> Data? {
        try await server.approval(for: device, circle: circle)
    }

    func push(_ records: [RelayRecord], circle: CircleID) async throws {
        try await server.push(records, circle: circle)
    }

    func remove(itemID: Data, version: SyncVersion, circle: CircleID) async throws {
        try await server.remove(itemID: itemID, version: version, circle: circle)
    }

    func waitForChanges(circle: CircleID, timeout: Duration) async throws -> Bool {
        try await server.waitForChanges(circle: circle, timeout: timeout)
    }
}
