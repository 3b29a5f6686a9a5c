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

/// One conversation with fprintd (`net.reactivated.Fprint`) on its own system-bus connection.
///
/// Nothing is asked of fprintd's well-known name: ``findOwner()`` reports its current owner and
/// the user it runs as, the caller decides whether to believe it, and ``use(owner:)`` names the
/// unique name that every later call goes to and whose signals alone are read. Until then every
/// call fails as ``FprintdDevice/Failure/Kind/untrusted``.
final class FprintdConversation: @unchecked Sendable {
    typealias Failure = FprintdDevice.Failure

    private static let service = "net.reactivated.Fprint"
    private static let deviceInterface = "net.reactivated.Fprint.Device"

    private let bus: BusConnection
    /// Set from any thread; read by the waiting thread.
    private let cancelled = LockedState(false)
    // Used by the conversation's one thread.
    private var owner: String?

    /// Opens the system bus (`DBUS_SYSTEM_BUS_ADDRESS` if set).
    init() throws(Failure) {
        do throws(BusError) {
            bus = try BusConnection.open(.system)
        } catch {
            throw Failure(.noBus, error.message)
        }
    }

    /// Makes the verification or enrolment of this conversation (from another thread) end as
    /// cancelled, whether it is in progress or starts later.
    func cancel() {
        cancelled.withLock { $0 = true }
        bus.interrupt()
    }

    // MARK: Whom to talk to

    /// Who owns fprintd's name now, starting fprintd if the bus can; trusts nothing.
    ///
    /// - Returns: The owner's unique name and the user it runs as (`UInt32.max` when the bus does not say).
    func findOwner() throws(Failure) -> (name: String, userID: UInt32) {
        // A name nobody owns and nobody can start fails at GetNameOwner.
        _ = try? bus.call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "StartServiceByName",
            [.string(Self.service), .uint32(0)]
        )
        let reply: [BusValue]
        do throws(BusError) {
            reply = try bus.call(
                destination: "org.freedesktop.DBus",
                path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus",
                member: "GetNameOwner",
                [.string(Self.service)]
            )
        } catch {
            throw Failure(.noService, "fprintd is not running: \(error.message)")
        }
        guard let name = reply.first?.string, name.hasPrefix(":") else {
            throw Failure(.failed, "the bus named no owner for fprintd")
        }
        let userID = (try? bus.credentials(of: name).userID) ?? .max
        return (name, userID)
    }

    /// Makes `owner`, a unique name the caller accepted, the one this conversation talks to.
    func use(owner: String) throws(Failure) {
        guard owner.hasPrefix(":"), owner.utf8.count < 256 else { throw Failure(.failed, "not a unique bus name") }
        self.owner = owner
    }

    // MARK: Asking

    /// The default reader's object path and name.
    func reader() throws(Failure) -> FprintdDevice.Reader {
        let reply = try call("/net/reactivated/Fprint/Manager", "net.reactivated.Fprint.Manager", "GetDefaultDevice")
        guard let path = reply.first?.objectPath else { throw Failure(.failed, "fprintd named no reader") }
        let owner = try trustedOwner()
        let name = (try? bus.property("name", of: Self.deviceInterface, at: path, on: owner))?.string ?? ""
        return FprintdDevice.Reader(path: path, name: name)
    }

    /// The fingers enrolled for the calling user on the reader at `path` (none when nothing is).
    func enrolledFingers(on path: String) throws(Failure) -> [String] {
        do throws(Failure) {
            let reply = try call(path, Self.deviceInterface, "ListEnrolledFingers", [.string("")])
            return (reply.first?.elements ?? []).compactMap(\.string)
        } catch  where error.kind == .notEnrolled {
            return []
        }
    }

    /// Claims the reader, asks for any enrolled finger, and returns fprintd's final status.
    ///
    /// The final statuses are `verify-match`, `verify-no-match`, `verify-disconnected` and
    /// `verify-unknown-error`; retry statuses (`verify-retry-scan`, …) do not end the wait, which
    /// lasts at most `timeout` after the last status. The reader is released before it returns.
    func verify(on path: String, timeout: Duration) throws(Failure) -> String {
        try run(on: path, signal: "VerifyStatus", start: "VerifyStart", stop: "VerifyStop", argument: "any", timeout)
    }

    /// Claims the reader and enrols `finger` (fprintd's names: `right-index-finger`, …), waiting at
    /// most `timeout` for each stage: the final status (`enroll-completed`, `enroll-failed`, …).
    func enroll(_ finger: String, on path: String, timeout: Duration) throws(Failure) -> String {
        try run(on: path, signal: "EnrollStatus", start: "EnrollStart", stop: "EnrollStop", argument: finger, timeout)
    }

    // MARK: Private

    /// What the status signals of one action said, as they arrive on the waiting thread.
    private final class Progress {
        var status = ""
        var done = false
        var lastChange = ContinuousClock.now
    }

    private func trustedOwner() throws(Failure) -> String {
        guard let owner else { throw Failure(.untrusted, "no trusted owner of fprintd's name was chosen") }
        return owner
    }

    /// A method call to the trusted owner.
    private func call(
        _ path: String,
        _ interface: String,
        _ member: String,
        _ arguments: [BusValue] = []
    ) throws(Failure) -> [BusValue] {
        let owner = try trustedOwner()
        do throws(BusError) {
            return try bus.call(destination: owner, path: path, interface: interface, member: member, arguments)
        } catch {
            throw Failure(Self.kind(of: error), "\(member): \(error.message)")
        }
    }

    /// Claims the reader, sends `start` with `argument`, waits for the final `signal` status, then
    /// sends `stop` and releases the reader, whatever happened.
    private func run(
        on path: String,
        signal: String,
        start: String,
        stop: String,
        argument: String,
        _ timeout: Duration
    ) throws(Failure) -> String {
        let owner = try trustedOwner()
        let progress = Progress()
        do throws(BusError) {
            try bus.watch(
                "type='signal',sender='\(owner)',interface='\(Self.deviceInterface)',member='\(signal)',path='\(path)'"
            ) { message in
                // sd-bus matches the rule locally too; the sender and path are checked once more.
                guard message.sender == owner, message.path == path, message.member == signal,
                    message.arguments.count == 2, let status = message.arguments[0].string,
                    let done = message.arguments[1].boolean
                else { return }
                // Every status, a retry too, gives the person the whole time-out again.
                progress.lastChange = .now
                progress.status = status
                progress.done = done
            }
        } catch {
            throw Failure(.failed, "the system bus refused the signal match: \(error.message)")
        }
        _ = try call(path, Self.deviceInterface, "Claim", [.string("")])
        defer { _ = try? call(path, Self.deviceInterface, "Release") }
        _ = try call(path, Self.deviceInterface, start, [.string(argument)])
        defer { _ = try? call(path, Self.deviceInterface, stop) }
        let cancelled = cancelled
        progress.lastChange = .now
        let broke = bus.run {
            progress.done || cancelled.withLock { $0 } || ContinuousClock.now >= progress.lastChange + timeout
        }
        if progress.done { return progress.status }
        if broke { throw Failure(.failed, "the system bus connection failed") }
        if cancelled.withLock({ $0 }) { throw Failure(.cancelled, "cancelled") }
        throw Failure(.timeout, "no finger on the reader in time")
    }

    /// What a failed call's error stands for.
    private static func kind(of error: BusError) -> Failure.Kind {
        switch error.name {
        case "net.reactivated.Fprint.Error.NoSuchDevice": .noDevice
        case "net.reactivated.Fprint.Error.AlreadyInUse": .busy
        case "net.reactivated.Fprint.Error.NoEnrolledPrints": .notEnrolled
        case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner": .noService
        case "org.freedesktop.DBus.Error.NoReply": .timeout
        default: .failed
        }
    }
}
