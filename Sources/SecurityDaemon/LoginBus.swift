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
import KeychainBus
import KeychainCore

/// A connection to the system bus that reports systemd-logind's lock and sleep requests.
///
/// Only signals sent by the owner of `org.freedesktop.login1` are matched (only root may own it on
/// a system bus); a session's owner is asked of logind itself, between signals, never inside one.
final class LoginBus: @unchecked Sendable {
    /// What logind asked for.
    enum Event: Equatable {
        case nothing
        case lockSession(userID: UInt32)
        case sleep
        case closed
    }

    /// A request noted by a signal handler, before its session's owner is known.
    private enum Request {
        case lock(sessionPath: String)
        case sleep
    }

    /// The requests not yet reported; the handlers and ``next(timeout:)`` run on the watch's one thread.
    private final class Pending {
        var requests: [Request] = []
    }

    private static let service = "org.freedesktop.login1"
    private static let sessionInterface = "org.freedesktop.login1.Session"
    /// More requests than this between two reads are one too many to keep: a lock is a lock.
    private static let queueLimit = 32

    // Used by the watch's one thread only, after `open`.
    private let bus: BusConnection
    private let pending: Pending

    private init(bus: BusConnection, pending: Pending) {
        self.bus = bus
        self.pending = pending
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket); the
    /// reason when it cannot (no libsystemd, no bus).
    static func open() -> Result<LoginBus, Unavailable> {
        let pending = Pending()
        let note = { (request: Request) in
            if pending.requests.count < queueLimit { pending.requests.append(request) }
        }
        do throws(BusError) {
            let bus = try BusConnection.open(.system)
            try bus.watch(rule(interface: sessionInterface, member: "Lock")) { signal in
                note(.lock(sessionPath: signal.path))
            }
            // What a screen locker reports to logind when it locks (GNOME's locks without `Lock`).
            try bus.watch(
                rule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
                    + ",arg0='\(sessionInterface)'"
            ) { signal in
                if setsLockedHint(signal.arguments) { note(.lock(sessionPath: signal.path)) }
            }
            try bus.watch(
                rule(interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep")
                    + ",path='/org/freedesktop/login1'"
            ) { signal in
                if signal.arguments.first?.boolean == true { note(.sleep) }
            }
            return .success(LoginBus(bus: bus, pending: pending))
        } catch {
            return .failure(Unavailable(reason: error.message))
        }
    }

    struct Unavailable: Error {
        let reason: String
    }

    /// The next request, waiting at most `timeout`.
    func next(timeout: Duration) -> Event {
        if pending.requests.isEmpty {
            let deadline = ContinuousClock.now + timeout
            let pending = pending
            let broke = bus.run { !pending.requests.isEmpty || ContinuousClock.now >= deadline }
            if broke { return .closed }
        }
        guard !pending.requests.isEmpty else { return .nothing }
        switch pending.requests.removeFirst() {
        case .sleep: return .sleep
        case .lock(let path): return .lockSession(userID: owner(ofSession: path))
        }
    }

    /// The owner of the session at `path` (its `User` property, `(uo)`); `UInt32.max`, which is
    /// nobody, when logind does not say.
    private func owner(ofSession path: String) -> UInt32 {
        guard
            case .structure(let fields)? = try? bus.property(
                "User",
                of: Self.sessionInterface,
                at: path,
                on: Self.service
            ),
            case .uint32(let userID)? = fields.first
        else { return .max }
        return userID
    }

    private static func rule(interface: String, member: String) -> String {
        "type='signal',sender='\(service)',interface='\(interface)',member='\(member)'"
    }

    /// Whether a session's `PropertiesChanged` (`s a{sv} as`) sets `LockedHint` to true.
    private static func setsLockedHint(_ arguments: [BusValue]) -> Bool {
        guard arguments.count >= 2, arguments[0].string == sessionInterface,
            let changed = arguments[1].stringDictionary
        else { return false }
        return changed["LockedHint"]?.unwrapped.boolean == true
    }
}
