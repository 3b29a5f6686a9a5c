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

/// Making a circle, joining, approving and removing devices, and following what the others did:
/// the trust half of synchronisation, over any relay.
///
/// Every message read from the relay is checked (signature, circle, device, version) and a
/// refused one is counted in the state and skipped: the server cannot stop a device from
/// following the messages that are genuine.
package struct CircleMembership: Sendable {
    package let relay: any SyncRelay

    package init(relay: any SyncRelay) { self.relay = relay }

    // MARK: Making and joining

    /// Makes a new circle whose only device is `identity`, with its first keys.
    package func create(as identity: DeviceIdentity) async throws -> CircleState {
        try await relay.prepare()
        let circle = CircleID.make()
        let keys = CircleKeys.first()
        let list = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [identity.record],
            keys: keys,
            by: identity
        )
        try await relay.publish(list: list.encoded, version: list.version, circle: circle)
        return CircleState(circle: circle, identity: identity, list: list, keys: [keys.generation: keys])
    }

    /// Asks to join `circle` (or the server's only circle) as `identity`.
    ///
    /// - Returns: The circle, and the code the user types on a trusted device.
    /// - Throws: ``MembershipError`` when the server holds no circle, or several and none was named.
    package func requestToJoin(
        _ circle: CircleID?,
        as identity: DeviceIdentity
    ) async throws -> (circle: CircleID, code: JoinCode) {
        try await relay.prepare()
        let chosen: CircleID
        if let circle {
            chosen = circle
        } else {
            let circles = try await relay.circles()
            guard circles.count == 1, let only = circles.first else {
                throw MembershipError(
                    circles.isEmpty
                        ? "the server holds no circle: make one with `security sync create`"
                        : "the server holds \(circles.count) circles: name one with --circle"
                )
            }
            chosen = only
        }
        let code = JoinCode.make()
        let request = try JoinRequest(circle: chosen, identity: identity, code: code)
        try await relay.publish(joinRequest: request.encoded, device: identity.id, circle: chosen)
        return (chosen, code)
    }

    /// The circle a joining device is in once a trusted device approved it; `nil` while it is not.
    package func completeJoin(
        _ circle: CircleID,
        as identity: DeviceIdentity,
        code: JoinCode
    ) async throws -> CircleState? {
        guard let answer = try await relay.approval(for: identity.id, circle: circle) else { return nil }
        let approval = try JoinApproval(decoding: answer, circle: circle, joiner: identity.id, code: code)
        var state = CircleState(circle: circle, identity: identity, list: approval.list, keys: [:])
        try await follow(&state)
        guard state.isMember, state.currentKeys != nil else { return nil }
        return state
    }

    /// Approves the request made with `code`: the list gains its device, which receives the keys.
    ///
    /// - Returns: The state with the new list, and the device approved.
    /// - Throws: ``MembershipError`` when no pending request was made with this code.
    package func approve(code: JoinCode, in state: CircleState) async throws -> (CircleState, DeviceRecord) {
        var state = state
        try await follow(&state)
        var joiner: DeviceRecord?
        for (_, body) in try await relay.joinRequests(circle: state.circle) {
            if let request = try? JoinRequest(decoding: body, circle: state.circle, code: code) {
                joiner = request.device
                break
            }
        }
        guard let joiner else {
            throw MembershipError("no device asked to join with this code (ask it again with `security sync join`)")
        }
        guard let current = state.currentKeys else { throw MembershipError("this device holds no keys yet") }
        // The list first, and only once it stands, the keys: a list that lost to another device's
        // change must not have handed anything out. An approval interrupted after its list stood
        // is finished by the next one (the device is listed already).
        if !state.list.contains(joiner.id) {
            let list = try state.list.succeeded(adding: [joiner], keys: current, by: state.identity)
            try await publish(list, circle: state.circle)
            state.list = list
        }
        for keys in state.keys.values where keys.generation <= state.list.generation {
            let grant = try KeyGrant(keys, circle: state.circle, to: joiner, by: state.identity)
            try await relay.publish(
                grant: grant.encoded,
                recipient: joiner.id,
                generation: keys.generation,
                circle: state.circle
            )
        }
        let approval = JoinApproval(list: state.list, joiner: joiner.id, code: code)
        try await relay.publish(approval: approval.encoded, device: joiner.id, circle: state.circle)
        return (state, joiner)
    }

    /// Removes `device` from the circle.
    ///
    /// A new list without it, and a new generation of keys that only the remaining devices
    /// receive: what is written afterwards the removed device cannot read.
    package func remove(_ device: DeviceID, from state: CircleState) async throws -> CircleState {
        var state = state
        try await follow(&state)
        guard state.list.contains(device) else { throw MembershipError("no such device in the circle") }
        guard device != state.identity.id else {
            throw MembershipError("a device cannot remove itself; remove it from another device")
        }
        guard let current = state.currentKeys else { throw MembershipError("this device holds no keys yet") }
        let rotated = try current.rotated()
        let list = try state.list.succeeded(removing: [device], keys: rotated, by: state.identity)
        // The list must stand before the new keys go out (see ``approve(code:in:)``).
        try await publish(list, circle: state.circle)
        state.list = list
        state.keys[rotated.generation] = rotated
        for member in list.devices {
            let grant = try KeyGrant(rotated, circle: state.circle, to: member, by: state.identity)
            try await relay.publish(
                grant: grant.encoded,
                recipient: member.id,
                generation: rotated.generation,
                circle: state.circle
            )
        }
        return state
    }

    /// Publishes `list` and checks that the server's list of that version is it: two devices
    /// changing the circle at once both sign the same version, and only the first one stands.
    private func publish(_ list: DeviceList, circle: CircleID) async throws {
        try await relay.publish(list: list.encoded, version: list.version, circle: circle)
        let stored = try await relay.lists(after: list.version - 1, circle: circle).first
        guard stored?.version == list.version, stored?.body == list.encoded else {
            throw MembershipError("another device changed the circle at the same time: try again")
        }
    }

    // MARK: Following

    /// Takes in the lists and grants the others wrote since: each list only from a device the
    /// previous one trusts, each grant only for this device from a trusted one.
    ///
    /// A device that finds itself off the list stops there (``CircleState/isMember`` false).
    package func follow(_ state: inout CircleState) async throws {
        for (_, body) in try await relay.lists(after: state.list.version, circle: state.circle) {
            do throws(SyncError) {
                state.list = try state.list.successor(decoding: body)
            } catch {
                // A gap or a forgery: the next genuine version still follows from the one held.
                state.count(error)
            }
        }
        guard state.isMember else { return }
        let held = state.list.generation
        for body in try await relay.grants(for: state.identity.id, upTo: held, circle: state.circle) {
            // A generation not held, or held without its whenUnlocked key (read while locked):
            // the grant carries it whole.
            guard let claimed = try? KeyGrant.peek(body), claimed.generation <= held,
                state.keys[claimed.generation]?.hasWhenUnlocked != true
            else { continue }
            do throws(SyncError) {
                let keys = try KeyGrant.open(body, circle: state.circle, for: state.identity, trusted: state.list)
                // The generation written with must be the list's own keys; an older one only reads.
                if keys.generation == held, !state.list.commits(to: keys) {
                    throw SyncError(.misplaced, "a grant of keys the circle's list does not commit to")
                }
                if let naming = state.keys.values.first?.naming, !naming.equals(keys.naming) {
                    throw SyncError(.misplaced, "a grant with another naming key")
                }
                state.keys[keys.generation] = keys
            } catch {
                state.count(error)
            }
        }
    }
}

/// Why a membership step cannot be taken: a sentence for the user.
package struct MembershipError: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) { self.description = description }
}
