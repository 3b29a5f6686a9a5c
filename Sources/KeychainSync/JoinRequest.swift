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

/// A device's request to join a circle: its record, signed with its own key and authenticated
/// with its join code.
package struct JoinRequest: Sendable {
    private static let magic = Data("SWKC-JOIN-2".utf8)

    package let circle: CircleID
    package let device: DeviceRecord
    private let tag: Data
    private let signature: Data

    /// The request of `identity` to join `circle`, with `code`.
    package init(circle: CircleID, identity: DeviceIdentity, code: JoinCode) throws(SyncError) {
        self.circle = circle
        device = identity.record
        let body = Self.body(circle: circle, device: identity.record)
        tag = Data(HMAC<SHA256>.authenticationCode(for: body, using: code.key(circle: circle)))
        signature = try identity.signature(for: body)
    }

    package var encoded: Data {
        var writer = WireWriter()
        writer.appendFixed(Self.body(circle: circle, device: device))
        writer.appendField(tag)
        writer.appendField(signature)
        return writer.bytes
    }

    /// Reads a request and checks it was made with `code` by the holder of its keys.
    package init(decoding data: Data, circle: CircleID, code: JoinCode) throws(SyncError) {
        var reader = WireReader(data)
        guard try reader.fixed(Self.magic.count) == Self.magic else {
            throw SyncError(.malformed, "not a join request")
        }
        let named = try CircleID(rawValue: try reader.fixed(CircleID.length))
        let device = try DeviceRecord.read(from: &reader)
        let tag = try reader.field()
        let signature = try reader.field()
        try reader.finish()
        guard named == circle else { throw SyncError(.misplaced, "a join request for another circle") }
        let body = Self.body(circle: circle, device: device)
        guard HMAC<SHA256>.isValidAuthenticationCode(tag, authenticating: body, using: code.key(circle: circle)) else {
            throw SyncError(.untrusted, "a join request made with another code")
        }
        guard device.hasSigned(body, signature: signature) else {
            throw SyncError(.untrusted, "a join request not signed by its device")
        }
        self.circle = circle
        self.device = device
        self.tag = tag
        self.signature = signature
    }

    private static func body(circle: CircleID, device: DeviceRecord) -> Data {
        var writer = WireWriter()
        writer.appendFixed(magic)
        writer.appendFixed(circle.rawValue)
        device.write(to: &writer)
        return writer.bytes
    }
}

/// A trusted device's answer to a join request: the list that now holds the new device,
/// authenticated with the join code so that the new device knows it comes from the circle its
/// user approved it in.
package struct JoinApproval: Sendable {
    private static let magic = Data("SWKC-APPROVE-1".utf8)

    package let list: DeviceList
    private let tag: Data

    package init(list: DeviceList, joiner: DeviceID, code: JoinCode) {
        self.list = list
        tag = Data(
            HMAC<SHA256>.authenticationCode(
                for: Self.body(list: list.encoded, joiner: joiner),
                using: code.key(circle: list.circle)
            )
        )
    }

    package var encoded: Data {
        var writer = WireWriter()
        writer.appendFixed(Self.magic)
        writer.appendField(list.encoded)
        writer.appendField(tag)
        return writer.bytes
    }

    /// Reads the approval of `joiner`'s request with `code`: the list must be signed by one of its
    /// devices, hold the joiner, and carry the code's tag.
    package init(decoding data: Data, circle: CircleID, joiner: DeviceID, code: JoinCode) throws(SyncError) {
        var reader = WireReader(data)
        guard try reader.fixed(Self.magic.count) == Self.magic else { throw SyncError(.malformed, "not an approval") }
        let listBytes = try reader.field()
        let tag = try reader.field()
        try reader.finish()
        guard
            HMAC<SHA256>.isValidAuthenticationCode(
                tag,
                authenticating: Self.body(list: listBytes, joiner: joiner),
                using: code.key(circle: circle)
            )
        else { throw SyncError(.untrusted, "an approval made without the join code") }
        let list = try DeviceList(firstOf: listBytes, circle: circle)
        guard list.contains(joiner) else { throw SyncError(.misplaced, "an approval whose list lacks the device") }
        self.list = list
        self.tag = tag
    }

    private static func body(list: Data, joiner: DeviceID) -> Data {
        var writer = WireWriter()
        writer.appendFixed(magic)
        writer.appendFixed(joiner.rawValue)
        writer.appendField(list)
        return writer.bytes
    }
}
