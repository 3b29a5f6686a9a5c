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
import Testing

/// Making, joining and leaving a circle through a real PostgreSQL server, and what a server
/// that lies can and cannot do to it.
@Suite(.serialized) struct CircleMembershipTests {
    let server: PostgresServer
    let address: RelayAddress

    init() throws {
        server = try PostgresServer()
        address = try RelayAddress(server.url)
    }

    /// A device's own connection to the server.
    private func membership() -> CircleMembership {
        CircleMembership(relay: PostgresSyncRelay(address: address, logger: Logger(label: "membership-test")))
    }

    private func join(
        _ identity: DeviceIdentity,
        approvedBy approver: CircleState
    ) async throws -> (joined: CircleState, approver: CircleState, code: JoinCode) {
        let joining = membership()
        let (circle, code) = try await joining.requestToJoin(nil, as: identity)
        #expect(circle == approver.circle)
        #expect(try await joining.completeJoin(circle, as: identity, code: code) == nil)
        let (approved, record) = try await membership().approve(code: code, in: approver)
        #expect(record == identity.record)
        let joined = try #require(try await joining.completeJoin(circle, as: identity, code: code))
        return (joined, approved, code)
    }

    @Test func aDeviceJoinsWithTheCodeAndReceivesTheCirclesKeys() async throws {
        let laptop = try DeviceIdentity(name: "laptop")
        let phone = try DeviceIdentity(name: "phone")
        let created = try await membership().create(as: laptop)
        #expect(created.list.devices.map(\.id) == [laptop.id] && created.currentKeys?.generation == 1)

        let (joined, approver, code) = try await join(phone, approvedBy: created)
        #expect(joined.list == approver.list && joined.list.contains(phone.id) && joined.list.contains(laptop.id))
        let mine = try #require(joined.currentKeys)
        let theirs = try #require(approver.currentKeys)
        #expect(mine.generation == theirs.generation)
        #expect(key(mine.whenUnlocked) == key(theirs.whenUnlocked) && key(mine.naming) == key(theirs.naming))
        #expect(joined.refused.isEmpty)

        // The code is used up: approving it again finds no request.
        await #expect(throws: MembershipError.self) { try await membership().approve(code: code, in: approver) }
    }

    @Test func aWrongCodeApprovesNothing() async throws {
        let laptop = try DeviceIdentity(name: "laptop")
        let stranger = try DeviceIdentity(name: "stranger")
        let created = try await membership().create(as: laptop)
        let (circle, code) = try await membership().requestToJoin(created.circle, as: stranger)
        await #expect(throws: MembershipError.self) {
            try await membership().approve(code: JoinCode.make(), in: created)
        }
        #expect(try await membership().completeJoin(circle, as: stranger, code: code) == nil)
    }

    @Test func aRemovedDeviceGetsNoNewKeysAndFollowsNoMore() async throws {
        let laptop = try DeviceIdentity(name: "laptop")
        let phone = try DeviceIdentity(name: "phone")
        let tablet = try DeviceIdentity(name: "tablet")
        var laptopState = try await membership().create(as: laptop)
        var phoneState: CircleState
        (phoneState, laptopState, _) = try await join(phone, approvedBy: laptopState)
        var tabletState: CircleState
        (tabletState, laptopState, _) = try await join(tablet, approvedBy: laptopState)

        // The phone missed the tablet's joining: it walks both lists, in order.
        try await membership().follow(&phoneState)
        #expect(phoneState.list == laptopState.list && phoneState.refused.isEmpty)

        laptopState = try await membership().remove(tablet.id, from: laptopState)
        #expect(laptopState.currentKeys?.generation == 2 && !laptopState.list.contains(tablet.id))
        try await membership().follow(&phoneState)
        #expect(phoneState.currentKeys?.generation == 2)
        #expect(
            key(try #require(phoneState.currentKeys).whenUnlocked)
                == key(try #require(laptopState.currentKeys).whenUnlocked)
        )

        try await membership().follow(&tabletState)
        // Off the list, and holding generation 1 alone: it cannot write, nor read what follows.
        #expect(!tabletState.isMember && tabletState.currentKeys == nil && Array(tabletState.keys.keys) == [1])
        // The generation-2 grants on the server are not the tablet's to open.
        let relay = PostgresSyncRelay(address: address, logger: Logger(label: "membership-test"))
        for grant in try await relay.grants(for: phone.id, upTo: 9, circle: laptopState.circle) {
            #expect(throws: SyncError.self) {
                try KeyGrant.open(grant, circle: laptopState.circle, for: tablet, trusted: laptopState.list)
            }
        }

        // The removed tablet signs a list that puts it back: nobody takes it.
        let comeback = try DeviceList.signed(
            circle: laptopState.circle,
            version: laptopState.list.version + 1,
            devices: laptopState.list.devices + [tablet.record],
            keys: try #require(tabletState.keys[1]),
            previous: laptopState.list.digest,
            by: tablet
        )
        try await relay.publish(list: comeback.encoded, version: comeback.version, circle: laptopState.circle)
        try await membership().follow(&phoneState)
        #expect(!phoneState.list.contains(tablet.id) && phoneState.refused[.untrusted] == 1)
        // …and it cannot remove anyone either (it holds no trusted list).
        await #expect(throws: (any Error).self) { try await membership().remove(phone.id, from: tabletState) }
    }

    @Test func keysTheListDoesNotCommitToAreNeverWrittenWith() async throws {
        let laptop = try DeviceIdentity(name: "laptop")
        let phone = try DeviceIdentity(name: "phone")
        var laptopState = try await membership().create(as: laptop)
        var phoneState: CircleState
        (phoneState, laptopState, _) = try await join(phone, approvedBy: laptopState)
        let genuine = try #require(phoneState.currentKeys)
        // The laptop (trusted) grants the phone a generation of its own making, ahead of the list,
        // and other keys for the list's generation: the phone takes neither.
        let relay = PostgresSyncRelay(address: address, logger: Logger(label: "membership-test"))
        let ahead = try genuine.rotated()
        let elsewhere = CircleKeys.first()
        for keys in [ahead, elsewhere] {
            let grant = try KeyGrant(keys, circle: phoneState.circle, to: phone.record, by: laptop)
            try await relay.publish(
                grant: grant.encoded,
                recipient: phone.id,
                generation: keys.generation,
                circle: phoneState.circle
            )
        }
        phoneState.keys = [:]
        try await membership().follow(&phoneState)
        #expect(phoneState.currentKeys == nil && phoneState.refused[.misplaced] == 1)
        _ = laptopState
    }

    @Test func anApprovalTheServerMadeIsRefused() async throws {
        let laptop = try DeviceIdentity(name: "laptop")
        let phone = try DeviceIdentity(name: "phone")
        let serverDevice = try DeviceIdentity(name: "the-server's")
        let created = try await membership().create(as: laptop)
        let joining = membership()
        let (circle, code) = try await joining.requestToJoin(created.circle, as: phone)
        // The server answers with a list of its own, under a code it guessed.
        let list = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [serverDevice.record, phone.record],
            keys: CircleKeys.first(),
            by: serverDevice
        )
        let fake = JoinApproval(list: list, joiner: phone.id, code: JoinCode.make())
        let relay = PostgresSyncRelay(address: address, logger: Logger(label: "membership-test"))
        try await relay.publish(approval: fake.encoded, device: phone.id, circle: circle)
        await #expect(throws: SyncError.self) { try await joining.completeJoin(circle, as: phone, code: code) }
    }

    private func key(_ symmetric: some ContiguousBytes) -> Data { symmetric.withUnsafeBytes { Data($0) } }
}
