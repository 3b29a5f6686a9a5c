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
package import Foundation

/// The devices a circle trusts and the keys they write with, signed by one of them.
///
/// Each new list is the next version, names the hash of the list before it, and is signed by a
/// device of that list: a device takes a list only from one it already trusts, so a removed
/// device (or the server) cannot sign its way back in, nor fork the chain unnoticed. The server
/// keeps every version, and a device that missed some walks them in order. The list commits to
/// the circle's current key generation (its number and a hash of its keys): a device writes only
/// with those keys, so no grant — from a removed device, or a stale one — can give it others.
/// The first list (version 1) is signed by the device that made the circle; a device that joins
/// trusts the list its approver sent, checked with the code its user typed.
package struct DeviceList: Sendable, Equatable {
    private static let magic = Data("SWKC-LIST-3".utf8)
    /// The most devices a circle holds.
    package static let largest = 64

    package let circle: CircleID
    package let version: UInt64
    /// The generation of keys the circle writes with.
    package let generation: UInt32
    /// ``CircleKeys/digest`` of that generation.
    package let keysDigest: Data
    /// The hash of the list this one follows (zeros for the first).
    package let previous: Data
    /// Sorted by id, no id twice.
    package let devices: [DeviceRecord]
    package let signer: DeviceID
    package let signature: Data

    /// The list as stored and sent.
    package var encoded: Data {
        var writer = WireWriter()
        writer.appendFixed(Self.body(of: self))
        writer.appendField(signature)
        return writer.bytes
    }

    /// The hash the next list names.
    package var digest: Data { Data(SHA256.hash(data: encoded)) }

    /// Whether `keys` are the generation this list commits to.
    package func commits(to keys: CircleKeys) -> Bool {
        keys.generation == generation && keys.digest == keysDigest
    }

    /// Whether `device` is on the list.
    package func contains(_ device: DeviceID) -> Bool { record(of: device) != nil }

    package func record(of device: DeviceID) -> DeviceRecord? { devices.first { $0.id == device } }

    // MARK: Making lists

    /// A list of `devices` writing with `keys`, signed by `identity` (which must be one of them).
    package static func signed(
        circle: CircleID,
        version: UInt64,
        devices: [DeviceRecord],
        keys: CircleKeys,
        previous: Data = Data(count: 32),
        by identity: DeviceIdentity
    ) throws(SyncError) -> DeviceList {
        let sorted = try Self.normalized(devices)
        guard sorted.contains(where: { $0.id == identity.id }) else {
            throw SyncError(.untrusted, "a device signs only a list it is on")
        }
        let unsigned = DeviceList(
            circle: circle,
            version: version,
            generation: keys.generation,
            keysDigest: keys.digest,
            previous: previous,
            devices: sorted,
            signer: identity.id,
            signature: Data()
        )
        return DeviceList(
            circle: circle,
            version: version,
            generation: keys.generation,
            keysDigest: keys.digest,
            previous: previous,
            devices: sorted,
            signer: identity.id,
            signature: try identity.signature(for: body(of: unsigned))
        )
    }

    /// The next list: this one with `added` and without `removed`, writing with `keys`, signed by
    /// `identity`.
    package func succeeded(
        adding added: [DeviceRecord] = [],
        removing removed: Set<DeviceID> = [],
        keys: CircleKeys,
        by identity: DeviceIdentity
    ) throws(SyncError) -> DeviceList {
        guard contains(identity.id), !removed.contains(identity.id) else {
            throw SyncError(.untrusted, "only a trusted device changes the list, and never removes itself")
        }
        guard version < UInt64(Int64.max), keys.generation >= generation else {
            throw SyncError(.malformed, "a list's version or generation cannot go on")
        }
        let kept = devices.filter { !removed.contains($0.id) && !added.map(\.id).contains($0.id) }
        return try Self.signed(
            circle: circle,
            version: version + 1,
            devices: kept + added,
            keys: keys,
            previous: digest,
            by: identity
        )
    }

    // MARK: Reading lists

    /// Reads a list and checks its signature by a device on it, for a first list: trusted only by
    /// the device that made it or through a join's approval.
    package init(firstOf data: Data, circle: CircleID) throws(SyncError) {
        try self.init(decoding: data)
        guard self.circle == circle else { throw SyncError(.misplaced, "a device list of another circle") }
        guard let signer = record(of: signer), signer.hasSigned(Self.body(of: self), signature: signature) else {
            throw SyncError(.untrusted, "a device list's signature is not valid")
        }
    }

    /// Reads a list and checks only its form: what a device shows of a list it cannot trust yet.
    package init(unverified data: Data) throws(SyncError) { try self.init(decoding: data) }

    /// Reads the list that follows this one: same circle, the next version, naming this list,
    /// signed by a device this list trusts, the same key generation or a later one.
    package func successor(decoding data: Data) throws(SyncError) -> DeviceList {
        let next = try DeviceList(decoding: data)
        guard next.circle == circle else { throw SyncError(.misplaced, "a device list of another circle") }
        guard next.version > version else { throw SyncError(.stale, "a device list older than the one held") }
        guard let signer = record(of: next.signer), signer.hasSigned(Self.body(of: next), signature: next.signature)
        else { throw SyncError(.untrusted, "a device list not signed by a trusted device") }
        guard next.version == version + 1, next.previous == digest, next.generation >= generation else {
            throw SyncError(.misplaced, "a device list that does not follow the one held")
        }
        return next
    }

    private init(decoding data: Data) throws(SyncError) {
        var reader = WireReader(data)
        guard try reader.fixed(Self.magic.count) == Self.magic else {
            throw SyncError(.malformed, "not a device list")
        }
        let circle = try CircleID(rawValue: try reader.fixed(CircleID.length))
        let version = try reader.uint64()
        let generation = try reader.uint32()
        let keysDigest = try reader.fixed(32)
        let previous = try reader.fixed(32)
        guard version >= 1, version <= UInt64(Int64.max) else { throw SyncError(.malformed, "a device list's version") }
        let count = Int(try reader.uint32())
        guard count >= 1, count <= Self.largest else { throw SyncError(.malformed, "a device list's size") }
        var devices: [DeviceRecord] = []
        for _ in 0..<count { devices.append(try DeviceRecord.read(from: &reader)) }
        let signer = try DeviceID(rawValue: try reader.fixed(DeviceID.length))
        let signature = try reader.field()
        try reader.finish()
        guard try Self.normalized(devices) == devices else {
            throw SyncError(.malformed, "a device list is not in order")
        }
        self.init(
            circle: circle,
            version: version,
            generation: generation,
            keysDigest: keysDigest,
            previous: previous,
            devices: devices,
            signer: signer,
            signature: signature
        )
    }

    private init(
        circle: CircleID,
        version: UInt64,
        generation: UInt32,
        keysDigest: Data,
        previous: Data,
        devices: [DeviceRecord],
        signer: DeviceID,
        signature: Data
    ) {
        self.circle = circle
        self.version = version
        self.generation = generation
        self.keysDigest = keysDigest
        self.previous = previous
        self.devices = devices
        self.signer = signer
        self.signature = signature
    }

    // MARK: The signed bytes

    private static func normalized(_ devices: [DeviceRecord]) throws(SyncError) -> [DeviceRecord] {
        let sorted = devices.sorted { $0.id < $1.id }
        guard !sorted.isEmpty, sorted.count <= largest, Set(sorted.map(\.id)).count == sorted.count else {
            throw SyncError(.malformed, "a device list is empty, too long or names a device twice")
        }
        return sorted
    }

    private static func body(of list: DeviceList) -> Data {
        var writer = WireWriter()
        writer.appendFixed(magic)
        writer.appendFixed(list.circle.rawValue)
        writer.append(list.version)
        writer.append(list.generation)
        writer.appendFixed(list.keysDigest)
        writer.appendFixed(list.previous)
        writer.append(UInt32(list.devices.count))
        for device in list.devices { device.write(to: &writer) }
        writer.appendFixed(list.signer.rawValue)
        return writer.bytes
    }
}
