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

import Crypto
import Foundation
import KeychainSync
import Testing

/// The circle's messages read back only as written, by whom they may be written.
@Suite struct CircleMessageTests {
    let circle = CircleID.make()
    let circleKeys = CircleKeys.first()

    @Test func aListIsTakenOnlyFromADeviceTheHeldListTrusts() throws {
        let alice = try DeviceIdentity(name: "alice-laptop")
        let bob = try DeviceIdentity(name: "bob-phone")
        let mallory = try DeviceIdentity(name: "mallory")
        let first = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [alice.record],
            keys: circleKeys,
            by: alice
        )
        let read = try DeviceList(firstOf: first.encoded, circle: circle)
        #expect(read == first)

        let second = try first.succeeded(adding: [bob.record], keys: circleKeys, by: alice)
        #expect(try read.successor(decoding: second.encoded) == second)
        #expect(second.version == 2 && second.contains(bob.id))

        // Bob removes Alice; a list Alice signs afterwards is refused by whoever holds the third.
        let third = try second.succeeded(removing: [alice.id], keys: circleKeys, by: bob)
        let forged = try DeviceList.signed(
            circle: circle,
            version: 4,
            devices: [alice.record, mallory.record],
            keys: circleKeys,
            previous: third.digest,
            by: alice
        )
        #expect(throws: SyncError(.untrusted, "a device list not signed by a trusted device")) {
            try third.successor(decoding: forged.encoded)
        }
        // An older list, and another circle's, are refused too.
        #expect(throws: SyncError.self) { try third.successor(decoding: second.encoded) }
        let elsewhere = try DeviceList.signed(
            circle: CircleID.make(),
            version: 9,
            devices: [bob.record],
            keys: circleKeys,
            by: bob
        )
        #expect(throws: SyncError(.misplaced, "a device list of another circle")) {
            try third.successor(decoding: elsewhere.encoded)
        }
        // A device never removes itself, and only a listed device signs.
        #expect(throws: SyncError.self) { try third.succeeded(removing: [bob.id], keys: circleKeys, by: bob) }
        #expect(throws: SyncError.self) { try third.succeeded(adding: [mallory.record], keys: circleKeys, by: mallory) }
    }

    @Test func aListMustNameTheOneBeforeItAndCommitToItsKeys() throws {
        let alice = try DeviceIdentity(name: "alice")
        let bob = try DeviceIdentity(name: "bob")
        let first = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [alice.record],
            keys: circleKeys,
            by: alice
        )
        let rotatedKeys = try circleKeys.rotated()
        #expect(first.commits(to: circleKeys) && !first.commits(to: rotatedKeys))
        // Version 3 signed by a trusted device, but skipping version 2: refused (a fork or a gap).
        let skipping = try DeviceList.signed(
            circle: circle,
            version: 3,
            devices: [alice.record, bob.record],
            keys: circleKeys,
            previous: first.digest,
            by: alice
        )
        #expect(throws: SyncError(.misplaced, "a device list that does not follow the one held")) {
            try first.successor(decoding: skipping.encoded)
        }
        // The next version, but naming another list before it: refused too.
        let forked = try DeviceList.signed(
            circle: circle,
            version: 2,
            devices: [alice.record, bob.record],
            keys: circleKeys,
            previous: Data(repeating: 9, count: 32),
            by: alice
        )
        #expect(throws: SyncError.self) { try first.successor(decoding: forked.encoded) }
        // Going back to an older generation is refused.
        let rotated = try first.succeeded(adding: [bob.record], keys: try circleKeys.rotated(), by: alice)
        #expect(throws: SyncError.self) { try rotated.succeeded(keys: circleKeys, by: alice) }
    }

    @Test func keysReadWhileLockedAreNeverGranted() throws {
        let alice = try DeviceIdentity(name: "alice")
        let locked = try CircleKeys(
            afterFirstUnlock: circleKeys.rawRepresentation(of: .afterFirstUnlock),
            whenUnlocked: nil
        )
        #expect(!locked.hasWhenUnlocked)
        #expect(throws: SyncError.self) { try KeyGrant(locked, circle: circle, to: alice.record, by: alice) }
    }

    @Test func aTamperedListIsRefused() throws {
        let alice = try DeviceIdentity(name: "alice")
        let bob = try DeviceIdentity(name: "bob")
        let list = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [alice.record, bob.record],
            keys: circleKeys,
            by: alice
        )
        var bytes = list.encoded
        for index in stride(from: 0, to: bytes.count, by: 37) {
            bytes[index] ^= 0x40
            #expect(throws: SyncError.self) { try DeviceList(firstOf: bytes, circle: circle) }
            bytes[index] ^= 0x40
        }
        #expect(throws: SyncError.self) { try DeviceList(firstOf: bytes.dropLast(), circle: circle) }
        #expect(throws: SyncError.self) { try DeviceList(firstOf: bytes + [0], circle: circle) }
    }

    @Test func aGrantOpensOnlyForItsDeviceFromATrustedGranter() throws {
        let alice = try DeviceIdentity(name: "alice")
        let bob = try DeviceIdentity(name: "bob")
        let eve = try DeviceIdentity(name: "eve")
        let list = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [alice.record, bob.record],
            keys: circleKeys,
            by: alice
        )
        let keys = CircleKeys.first()
        let grant = try KeyGrant(keys, circle: circle, to: bob.record, by: alice)
        let opened = try KeyGrant.open(grant.encoded, circle: circle, for: bob, trusted: list)
        #expect(opened.generation == 1 && opened.hasWhenUnlocked)
        #expect(bytes(opened.whenUnlocked) == bytes(keys.whenUnlocked))
        #expect(bytes(opened.afterFirstUnlock) == bytes(keys.afterFirstUnlock))
        #expect(bytes(opened.naming) == bytes(keys.naming))

        #expect(throws: SyncError(.misplaced, "a grant for another circle or device")) {
            try KeyGrant.open(grant.encoded, circle: circle, for: eve, trusted: list)
        }
        // Eve, not on the list, grants Bob keys of her own: refused.
        let planted = try KeyGrant(CircleKeys.first(), circle: circle, to: bob.record, by: eve)
        #expect(throws: SyncError(.untrusted, "a grant not signed by a trusted device")) {
            try KeyGrant.open(planted.encoded, circle: circle, for: bob, trusted: list)
        }
    }

    @Test func aRecordOpensOnlyWhereItWasWrittenAndByATrustedDevice() throws {
        let alice = try DeviceIdentity(name: "alice")
        let bob = try DeviceIdentity(name: "bob")
        let list = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [alice.record, bob.record],
            keys: circleKeys,
            by: alice
        )
        let keys = CircleKeys.first()
        var clock = HybridLogicalClock(device: alice.id)
        let itemID = SyncRecord.itemID(of: Data("genp|svc|acct".utf8), naming: keys.naming)
        let payload = Data(repeating: 7, count: 256)
        let record = try SyncRecord(
            payload: payload,
            itemID: itemID,
            version: clock.tick(now: Date()),
            syncClass: .whenUnlocked,
            keys: keys,
            circle: circle,
            signedBy: alice
        )
        let read = try SyncRecord(decoding: record.encoded, circle: circle, trusted: list)
        #expect(try read.payload(with: keys) == payload)
        #expect(read.itemID == itemID && read.version.device == alice.id)

        // Another circle's keys, the rotated generation, a locked device: nothing opens.
        #expect(throws: SyncError.self) { try read.payload(with: keys.rotated()) }
        let locked = try CircleKeys(
            afterFirstUnlock: keys.rawRepresentation(of: .afterFirstUnlock),
            whenUnlocked: nil
        )
        #expect(throws: SyncError(.undecryptable, "the circle's whenUnlocked key is not available while locked")) {
            try read.payload(with: locked)
        }
        #expect(throws: SyncError(.misplaced, "a record of another circle")) {
            try SyncRecord(decoding: record.encoded, circle: CircleID.make(), trusted: list)
        }
        // Every byte matters: a flipped one is refused before or at opening.
        var bytes = record.encoded
        for index in stride(from: 0, to: bytes.count, by: 11) {
            bytes[index] ^= 1
            let opened = Result { () throws(SyncError) in
                try SyncRecord(decoding: bytes, circle: circle, trusted: list).payload(with: keys)
            }
            #expect(throws: SyncError.self) { try opened.get() }
            bytes[index] ^= 1
        }
        // Bob cannot sign a record as Alice's version.
        #expect(throws: SyncError.self) {
            try SyncRecord(
                payload: payload,
                itemID: itemID,
                version: clock.tick(now: Date()),
                syncClass: .afterFirstUnlock,
                keys: keys,
                circle: circle,
                signedBy: bob
            )
        }
    }

    @Test func theJoinCodeBindsTheRequestAndTheApproval() throws {
        let alice = try DeviceIdentity(name: "alice")
        let newcomer = try DeviceIdentity(name: "new-laptop")
        let server = try DeviceIdentity(name: "the-server")
        let code = JoinCode.make()
        #expect(JoinCode(typed: code.description.lowercased()) == code)
        #expect(JoinCode(typed: "abc") == nil)

        let request = try JoinRequest(circle: circle, identity: newcomer, code: code)
        let read = try JoinRequest(decoding: request.encoded, circle: circle, code: code)
        #expect(read.device == newcomer.record)
        // Another code, or the server's key in place of the newcomer's: refused.
        #expect(throws: SyncError(.untrusted, "a join request made with another code")) {
            try JoinRequest(decoding: request.encoded, circle: circle, code: JoinCode.make())
        }
        let substituted = try JoinRequest(circle: circle, identity: server, code: JoinCode.make())
        #expect(throws: SyncError.self) {
            try JoinRequest(decoding: substituted.encoded, circle: circle, code: code)
        }

        let first = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [alice.record],
            keys: circleKeys,
            by: alice
        )
        let list = try first.succeeded(adding: [newcomer.record], keys: circleKeys, by: alice)
        let approval = JoinApproval(list: list, joiner: newcomer.id, code: code)
        let accepted = try JoinApproval(decoding: approval.encoded, circle: circle, joiner: newcomer.id, code: code)
        #expect(accepted.list == list)
        // A circle the server made itself, approved without the code: refused.
        let fake = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [server.record, newcomer.record],
            keys: circleKeys,
            by: server
        )
        let forged = JoinApproval(list: fake, joiner: newcomer.id, code: JoinCode.make())
        #expect(throws: SyncError(.untrusted, "an approval made without the join code")) {
            try JoinApproval(decoding: forged.encoded, circle: circle, joiner: newcomer.id, code: code)
        }
    }

    @Test func theClockOrdersChangesAsEveryDeviceWill() throws {
        let a = try DeviceID(rawValue: Data(repeating: 1, count: 16))
        let b = try DeviceID(rawValue: Data(repeating: 2, count: 16))
        var clockA = HybridLogicalClock(device: a)
        var clockB = HybridLogicalClock(device: b)
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let first = clockA.tick(now: now)
        let second = clockA.tick(now: now)
        #expect(first < second && second.counter == 1)
        // B's clock is behind: once it has seen A's change, its next change still comes after.
        clockB.observe(second, now: now.addingTimeInterval(-60))
        let reply = clockB.tick(now: now.addingTimeInterval(-60))
        #expect(second < reply)
        // Same time and counter: the device id decides, the same way everywhere.
        let tieA = SyncVersion(milliseconds: 5, counter: 0, device: a)
        let tieB = SyncVersion(milliseconds: 5, counter: 0, device: b)
        #expect(tieA < tieB && !(tieB < tieA))
        // Byte order is version order (the server compares the bytes).
        #expect(tieA.encoded.lexicographicallyPrecedes(tieB.encoded))
        #expect(try SyncVersion(encoded: reply.encoded) == reply)
        // A version a year ahead is not followed.
        clockB.observe(SyncVersion(milliseconds: first.milliseconds + 31_536_000_000, counter: 0, device: a), now: now)
        #expect(clockB.tick(now: now).milliseconds < first.milliseconds + 86_400_000)
    }

    private func bytes(_ key: SymmetricKey) -> Data { key.withUnsafeBytes { Data($0) } }
}
