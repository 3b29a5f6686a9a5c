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

/// The devices a circle trusts, signed by one of them.
///
/// Each new list has a greater version and is signed by a device of the list before it: a device
/// takes a list only from one it already trusts, so a removed device (or the server) cannot sign
/// its way back in. The server keeps every version, and a device that missed some walks them in
/// order. The first list (version 1) is signed by the device that made the circle; a device that
/// joins trusts the list its approver sent, checked with the code its user typed.
package struct DeviceList: Sendable, Equatable {
    private static let magic = Data("SWKC-LIST-1".utf8)
    /// The most devices a circle holds.
    package static let largest = 64

    package let circle: CircleID
    package let version: UInt64
    /// Sorted by id, no id twice.
    package let devices: [DeviceRecord]
    package let signer: DeviceID
    package let signature: Data

    /// The list as stored and sent.
    package var encoded: Data {
        var writer = WireWriter()
        writer.appendFixed(Self.body(circle: circle, version: version, devices: devices, signer: signer))
        writer.appendField(signature)
        return writer.bytes
    }

    /// Whether `device` is on the list.
    package func contains(_ device: DeviceID) -> Bool { record(of: device) != nil }

    package func record(of device: DeviceID) -> DeviceRecord? { devices.first { $0.id == device } }

    // MARK: Making lists

    /// A list of `devices`, signed by `identity` (which must be one of them).
    package static func signed(
        circle: CircleID,
        version: UInt64,
        devices: [DeviceRecord],
        by identity: DeviceIdentity
    ) throws(SyncError) -> DeviceList {
        let sorted = try Self.normalized(devices)
        guard sorted.contains(where: { $0.id == identity.id }) else {
            throw SyncError(.untrusted, "a device signs only a list it is on")
        }
        let body = body(circle: circle, version: version, devices: sorted, signer: identity.id)
        return DeviceList(
            circle: circle,
            version: version,
            devices: sorted,
            signer: identity.id,
            signature: identity.signature(for: body)
        )
    }

    /// The next list: this one with `added` and without `removed`, signed by `identity`.
    package func succeeded(
        adding added: [DeviceRecord] = [],
        removing removed: Set<DeviceID> = [],
        by identity: DeviceIdentity
    ) throws(SyncError) -> DeviceList {
        guard contains(identity.id), !removed.contains(identity.id) else {
            throw SyncError(.untrusted, "only a trusted device changes the list, and never removes itself")
        }
        let kept = devices.filter { !removed.contains($0.id) && !added.map(\.id).contains($0.id) }
        return try Self.signed(circle: circle, version: version + 1, devices: kept + added, by: identity)
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

    /// Reads the list that follows this one: same circle, a greater version, signed by a device this
    /// list trusts.
    package func successor(decoding data: Data) throws(SyncError) -> DeviceList {
        let next = try DeviceList(decoding: data)
        guard next.circle == circle else { throw SyncError(.misplaced, "a device list of another circle") }
        guard next.version > version else { throw SyncError(.stale, "a device list older than the one held") }
        guard let signer = record(of: next.signer), signer.hasSigned(Self.body(of: next), signature: next.signature)
        else { throw SyncError(.untrusted, "a device list not signed by a trusted device") }
        return next
    }

    private init(decoding data: Data) throws(SyncError) {
        var reader = WireReader(data)
        guard try reader.fixed(Self.magic.count) == Self.magic else {
            throw SyncError(.malformed, "not a device list")
        }
        let circle = try CircleID(rawValue: try reader.fixed(CircleID.length))
        let version = try reader.uint64()
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
        self.init(circle: circle, version: version, devices: devices, signer: signer, signature: signature)
    }

    private init(circle: CircleID, version: UInt64, devices: [DeviceRecord], signer: DeviceID, signature: Data) {
        self.circle = circle
        self.version = version
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
        body(circle: list.circle, version: list.version, devices: list.devices, signer: list.signer)
    }

    private static func body(circle: CircleID, version: UInt64, devices: [DeviceRecord], signer: DeviceID) -> Data {
        var writer = WireWriter()
        writer.appendFixed(magic)
        writer.appendFixed(circle.rawValue)
        writer.append(version)
        writer.append(UInt32(devices.count))
        for device in devices { device.write(to: &writer) }
        writer.appendFixed(signer.rawValue)
        return writer.bytes
    }
}
