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

/// A connection to the system bus that reports systemd-logind's lock, unlock and sleep requests.
///
/// A request counts only when it was sent by the connection that owns `org.freedesktop.login1`
/// now and runs as root: the match rules name logind, but any program on the bus may address a
/// signal to this connection alone, and such a signal reaches it whatever the rules say. The
/// owner and a session's owner are asked of the bus and of logind between signals, never inside one.
final class LoginBus: @unchecked Sendable {
    /// What logind asked for.
    enum Event: Equatable {
        case nothing
        case lockSession(userID: UInt32)
        /// A session of the user unlocked: logind's `Unlock`, or its `LockedHint` set to false.
        case unlockSession(userID: UInt32)
        case sleep
        case closed
    }

    /// A request noted by a signal handler, with the connection that sent it.
    private struct Request {
        enum Kind {
            case lock(sessionPath: String)
            case unlock(sessionPath: String)
            case sleep
        }

        var kind: Kind
        var sender: String
    }

    /// What the handlers noted; they and ``next(timeout:)`` run on the watch's one thread.
    private final class Pending {
        var requests: [Request] = []
        /// logind's unique name, once found to run as root; `nil` until then or after it changed.
        var logind: String?
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
        let note = { (kind: Request.Kind, signal: BusSignal) in
            if pending.requests.count < queueLimit {
                pending.requests.append(Request(kind: kind, sender: signal.sender))
            }
        }
        do throws(BusError) {
            let bus = try BusConnection.open(.system)
            try bus.watch(rule(interface: sessionInterface, member: "Lock")) { signal in
                note(.lock(sessionPath: signal.path), signal)
            }
            try bus.watch(rule(interface: sessionInterface, member: "Unlock")) { signal in
                note(.unlock(sessionPath: signal.path), signal)
            }
            // What a screen locker reports to logind when it locks and unlocks (GNOME's locks
            // without `Lock`).
            try bus.watch(
                rule(interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged")
                    + ",arg0='\(sessionInterface)'"
            ) { signal in
                switch lockedHint(in: signal.arguments) {
                case true?: note(.lock(sessionPath: signal.path), signal)
                case false?: note(.unlock(sessionPath: signal.path), signal)
                case nil: break
                }
            }
            try bus.watch(
                rule(interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep")
                    + ",path='/org/freedesktop/login1'"
            ) { signal in
                if signal.arguments.first?.boolean == true { note(.sleep, signal) }
            }
            // logind restarted (or went): its new owner is looked up before its next request counts.
            try bus.watch(
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                    + "member='NameOwnerChanged',arg0='\(service)'"
            ) { signal in
                if signal.sender == "org.freedesktop.DBus" { pending.logind = nil }
            }
            return .success(LoginBus(bus: bus, pending: pending))
        } catch {
            return .failure(Unavailable(reason: error.message))
        }
    }

    struct Unavailable: Error {
        let reason: String
    }

    /// The next request, waiting at most `timeout`; one from any other sender than logind is dropped.
    func next(timeout: Duration) -> Event {
        let deadline = ContinuousClock.now + timeout
        while true {
            if pending.requests.isEmpty {
                let pending = pending
                let broke = bus.run { !pending.requests.isEmpty || ContinuousClock.now >= deadline }
                if broke { return .closed }
            }
            guard !pending.requests.isEmpty else { return .nothing }
            let request = pending.requests.removeFirst()
            guard request.sender == logind() else { continue }
            switch request.kind {
            case .sleep: return .sleep
            case .lock(let path): return .lockSession(userID: owner(ofSession: path))
            case .unlock(let path): return .unlockSession(userID: owner(ofSession: path))
            }
        }
    }

    /// logind's unique name, when the connection that owns its name runs as root.
    private func logind() -> String? {
        if let known = pending.logind { return known }
        guard let owner = try? bus.ownerPeer(of: Self.service), owner.userID == 0 else { return nil }
        pending.logind = owner.name
        return owner.name
    }

    /// The owner of the session at `path` (its `User` property, `(uo)`); `UInt32.max`, which is
    /// nobody, when logind does not say.
    private func owner(ofSession path: String) -> UInt32 {
        guard let logind = logind(),
            case .structure(let fields)? = try? bus.property("User", of: Self.sessionInterface, at: path, on: logind),
            case .uint32(let userID)? = fields.first
        else { return .max }
        return userID
    }

    private static func rule(interface: String, member: String) -> String {
        "type='signal',sender='\(service)',interface='\(interface)',member='\(member)'"
    }

    /// The `LockedHint` a session's `PropertiesChanged` (`s a{sv} as`) sets, if it sets it.
    private static func lockedHint(in arguments: [BusValue]) -> Bool? {
        guard arguments.count >= 2, arguments[0].string == sessionInterface,
            let changed = arguments[1].stringDictionary
        else { return nil }
        return changed["LockedHint"]?.unwrapped.boolean
    }
}
