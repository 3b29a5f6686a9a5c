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

@preconcurrency import CSDBus
import Foundation
import KeychainCore

#if canImport(Glibc)
import Glibc
#endif

/// A connection to the session or system bus through sd-bus: a provider's names and objects, the
/// calls it makes and the signals it sends.
///
/// sd-bus is not thread-safe: the connection belongs to the thread that calls ``run(until:)``
/// (or, for a client that never runs it, to the thread that uses it). Other threads reach it
/// through ``perform(_:)``, which wakes that thread; ``BusCall/reply(_:)``,
/// ``BusCall/fail(_:)`` and ``emit(path:interface:member:_:)`` do so themselves.
package final class BusConnection: @unchecked Sendable {
    /// Which bus.
    package enum Kind: Sendable {
        /// The user's session bus (`DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`).
        case session
        /// The system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the standard socket).
        case system
    }

    private let api: c_sd_bus_api
    private let codec: BusMessageCodec
    private let bus: OpaquePointer
    /// Wakes the running thread when work is queued for it: a pipe, read end first.
    private let wake: (read: Int32, write: Int32)
    private let queued = LockedState<[@Sendable () -> Void]>([])
    private let runningThread = LockedState<pthread_t?>(nil)
    private var slots: [OpaquePointer] = []
    private var callHandler: ((BusCall) -> Void)?
    /// The signal watches, kept alive here: their C callbacks carry them unretained.
    private var watches: [SignalWatch] = []

    /// Connects to `kind`'s bus.
    package static func open(_ kind: Kind) throws(BusError) -> BusConnection {
        guard let api = BusLibrary.api else {
            throw BusError.failed(BusLibrary.unavailableReason ?? "no bus library")
        }
        var bus: OpaquePointer?
        let opened = kind == .session ? api.open_user(&bus) : api.open_system(&bus)
        guard opened >= 0, let bus else {
            throw BusError.failed(
                "cannot connect to the \(kind == .session ? "session" : "system") bus: \(Self.describe(opened))"
            )
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            _ = api.flush_close_unref(bus)
            throw BusError.failed("cannot make a pipe")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        return BusConnection(api: api, bus: bus, wake: (ends[0], ends[1]))
    }

    private init(api: c_sd_bus_api, bus: OpaquePointer, wake: (read: Int32, write: Int32)) {
        self.api = api
        self.codec = BusMessageCodec(api: api)
        self.bus = bus
        self.wake = wake
    }

    deinit {
        for slot in slots { _ = api.slot_unref(slot) }
        _ = api.flush_close_unref(bus)
        close(wake.read)
        close(wake.write)
    }

    // MARK: Names

    /// Takes the well-known `name`; with `replace`, from its owner if that owner allows it.
    ///
    /// Whoever owns it otherwise is named in the error. The name is taken allowing replacement, as
    /// other keyrings take it: a later `--replace` of another provider can take it back.
    package func requestName(_ name: String, replace: Bool) throws(BusError) {
        let replaceExisting: UInt64 = 1
        let allowReplacement: UInt64 = 2
        let result = api.request_name(bus, name, allowReplacement | (replace ? replaceExisting : 0))
        guard result >= 0 else {
            if result == -EEXIST || result == -EALREADY {
                let owner = (try? owner(of: name)) ?? "another program"
                throw BusError(
                    "org.freedesktop.DBus.Error.AddressInUse",
                    replace
                        ? "\(name) is owned by \(owner), which does not let it be replaced"
                        : "\(name) is owned by \(owner) (use --replace to take it over)"
                )
            }
            throw BusError.failed("cannot own \(name): \(Self.describe(result))")
        }
    }

    /// Waits in the bus daemon's queue for `name`: this connection gets it when its owner lets it go.
    package func queue(for name: String) throws(BusError) {
        let allowReplacement: UInt64 = 2
        let queue: UInt64 = 4
        let result = api.request_name(bus, name, allowReplacement | queue)
        guard result >= 0 else { throw BusError.failed("cannot wait for \(name): \(Self.describe(result))") }
    }

    /// The connection that owns `name` now, with its user and process.
    package func ownerPeer(of name: String) throws(BusError) -> BusPeer {
        let unique =
            try call(
                destination: "org.freedesktop.DBus",
                path: "/org/freedesktop/DBus",
                interface: "org.freedesktop.DBus",
                member: "GetNameOwner",
                [.string(name)]
            ).first?.string ?? ""
        return try credentials(of: unique)
    }

    /// A description of who owns `name` now: its unique name and, where the bus says, its
    /// program (`gnome-keyring-daemon (:1.7, pid 812)`).
    package func owner(of name: String) throws(BusError) -> String {
        let peer = try ownerPeer(of: name)
        guard let pid = peer.processID else { return peer.name }
        let program = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        return "\(program ?? "a program") (\(peer.name), pid \(pid))"
    }

    /// The user and process of the connection named `sender`, as the bus daemon recorded them
    /// when it connected (`GetConnectionCredentials`).
    package func credentials(of sender: String) throws(BusError) -> BusPeer {
        let reply = try call(
            destination: "org.freedesktop.DBus",
            path: "/org/freedesktop/DBus",
            interface: "org.freedesktop.DBus",
            member: "GetConnectionCredentials",
            [.string(sender)]
        )
        guard let values = reply.first?.stringDictionary else {
            throw BusError.failed("the bus daemon gave no credentials for \(sender)")
        }
        guard case .uint32(let userID)? = values["UnixUserID"]?.unwrapped else {
            throw BusError.failed("the bus daemon gave no user for \(sender)")
        }
        var processID: Int32?
        if case .uint32(let pid)? = values["ProcessID"]?.unwrapped { processID = Int32(bitPattern: pid) }
        return BusPeer(name: sender, userID: userID, processID: processID)
    }

    // MARK: Calls

    /// Calls a method and waits for its reply (on this connection's thread, or before it runs).
    package func call(
        destination: String,
        path: String,
        interface: String,
        member: String,
        _ arguments: [BusValue],
        timeout: Duration = .seconds(25)
    ) throws(BusError) -> [BusValue] {
        var message: OpaquePointer?
        guard api.message_new_method_call(bus, &message, destination, path, interface, member) >= 0, let message
        else { throw BusError.invalidArguments("cannot address \(interface).\(member) at \(path)") }
        defer { _ = api.message_unref(message) }
        guard codec.append(arguments, to: message) else {
            throw BusError.invalidArguments("cannot write the arguments of \(member)")
        }
        var error = sd_bus_error(name: nil, message: nil, need_free: 0)
        defer { api.error_free(&error) }
        var reply: OpaquePointer?
        let microseconds = UInt64(timeout.components.seconds) * 1_000_000
        let result = api.call(bus, message, microseconds, &error, &reply)
        guard result >= 0, let reply else {
            throw BusError(
                error.name.map { String(cString: $0) } ?? "org.freedesktop.DBus.Error.Failed",
                error.message.map { String(cString: $0) } ?? Self.describe(result)
            )
        }
        defer { _ = api.message_unref(reply) }
        return try codec.readAll(reply)
    }

    // MARK: Serving

    /// Sends every method call to any object to `handler`, on this connection's thread.
    ///
    /// The handler answers each call once, then or later, with ``BusCall/reply(_:)`` or
    /// ``BusCall/fail(_:)``; a call it leaves unanswered is answered with an error when it is released.
    package func serve(_ handler: @escaping (BusCall) -> Void) throws(BusError) {
        callHandler = handler
        var slot: OpaquePointer?
        let result = api.add_fallback(bus, &slot, "/", Self.onMethodCall, Unmanaged.passUnretained(self).toOpaque())
        guard result >= 0, let slot else { throw BusError.failed("cannot serve objects: \(Self.describe(result))") }
        slots.append(slot)
    }

    /// Sends the signals that match `rule` (a D-Bus match rule) to `handler`, on this connection's thread.
    package func watch(_ rule: String, _ handler: @escaping (BusSignal) -> Void) throws(BusError) {
        var slot: OpaquePointer?
        let watch = SignalWatch(codec: codec, handler: handler)
        let result = api.add_match(bus, &slot, rule, Self.onSignal, Unmanaged.passUnretained(watch).toOpaque())
        guard result >= 0, let slot else { throw BusError.failed("cannot watch \(rule): \(Self.describe(result))") }
        watches.append(watch)
        slots.append(slot)
    }

    /// Sends a signal (from any thread): to every connection that watches for it, or with
    /// `destination`, to that connection alone.
    package func emit(
        path: String,
        interface: String,
        member: String,
        _ arguments: [BusValue],
        to destination: String? = nil
    ) {
        perform { [self] in
            var message: OpaquePointer?
            guard api.message_new_signal(bus, &message, path, interface, member) >= 0, let message else { return }
            defer { _ = api.message_unref(message) }
            if let destination, api.message_set_destination(message, destination) < 0 { return }
            guard codec.append(arguments, to: message) else { return }
            _ = api.send(bus, message, nil)
        }
    }

    /// Runs `work` on this connection's thread: now if this is it, else when the thread wakes.
    package func perform(_ work: @escaping @Sendable () -> Void) {
        if isOnRunningThread {
            work()
            return
        }
        queued.withLock { $0.append(work) }
        var one: UInt8 = 1
        _ = write(wake.write, &one, 1)
    }

    private var isOnRunningThread: Bool {
        guard let thread = runningThread.withLock({ $0 }) else { return false }
        return pthread_equal(thread, pthread_self()) != 0
    }

    /// Serves on the calling thread until `stop` returns true (checked at least every 250 ms) or
    /// the connection breaks; returns whether it broke.
    package func run(until stop: () -> Bool) -> Bool {
        runningThread.withLock { $0 = pthread_self() }
        defer { runningThread.withLock { $0 = nil } }
        while !stop() {
            let work = queued.withLock { queue in
                defer { queue.removeAll() }
                return queue
            }
            for item in work { item() }
            var processed: Int32
            repeat {
                processed = api.process(bus, nil)
            } while processed > 0
            if processed < 0 { return true }
            var descriptors = [
                pollfd(fd: api.get_fd(bus), events: Int16(api.get_events(bus)), revents: 0),
                pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            ]
            var timeout: UInt64 = 0
            var milliseconds: Int32 = 250
            if api.get_timeout(bus, &timeout) > 0, timeout != UInt64.max {
                var now = timespec()
                clock_gettime(CLOCK_MONOTONIC, &now)
                let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1_000
                let wait = timeout > nowMicroseconds ? (timeout - nowMicroseconds + 999) / 1_000 : 0
                milliseconds = Int32(min(UInt64(milliseconds), wait))
            }
            _ = poll(&descriptors, 2, milliseconds)
            if descriptors[1].revents != 0 {
                var drained = [UInt8](repeating: 0, count: 64)
                while read(wake.read, &drained, drained.count) > 0 {}
            }
        }
        return false
    }

    // MARK: Callbacks

    private static let onMethodCall: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        let connection = Unmanaged<BusConnection>.fromOpaque(userdata).takeUnretainedValue()
        return connection.received(message)
    }

    private func received(_ message: OpaquePointer) -> Int32 {
        var type: UInt8 = 0
        // Method calls only (type 1); replies and signals are sd-bus's own business.
        guard api.message_get_type(message, &type) >= 0, type == 1, let callHandler else { return 0 }
        let call = BusCall(connection: self, message: message, api: api)
        do throws(BusError) {
            call.arguments = try codec.readAll(message)
        } catch {
            call.fail(error)
            return 1
        }
        callHandler(call)
        return 1
    }

    private static let onSignal: sd_bus_message_handler_t = { message, userdata, _ in
        guard let message, let userdata else { return 0 }
        Unmanaged<SignalWatch>.fromOpaque(userdata).takeUnretainedValue().received(message)
        return 0
    }

    /// Sends a reply or an error to `call` (on this connection's thread).
    func send(reply: Result<[BusValue], BusError>, to call: OpaquePointer) {
        guard api.message_get_expect_reply(call) > 0 else { return }
        var message: OpaquePointer?
        switch reply {
        case .success(let values):
            guard api.message_new_method_return(call, &message) >= 0, let built = message else { return }
            if !codec.append(values, to: built) {
                _ = api.message_unref(built)
                message = nil
                send(reply: .failure(.failed("the reply cannot be written")), to: call)
                return
            }
        case .failure(let failure):
            failure.name.withCString { name in
                failure.message.withCString { text in
                    var error = sd_bus_error(name: name, message: text, need_free: 0)
                    _ = api.message_new_method_error(call, &message, &error)
                }
            }
        }
        guard let message else { return }
        _ = api.send(bus, message, nil)
        _ = api.message_unref(message)
    }

    /// Drops a received message (on this connection's thread).
    func release(_ message: OpaquePointer) {
        let message = UnsafeSendable(message)
        perform { [api] in _ = api.message_unref(message.value) }
    }

    private static func describe(_ result: Int32) -> String {
        String(cString: strerror(-result))
    }
}

/// One match rule's handler.
private final class SignalWatch {
    let codec: BusMessageCodec
    let handler: (BusSignal) -> Void

    init(codec: BusMessageCodec, handler: @escaping (BusSignal) -> Void) {
        self.codec = codec
        self.handler = handler
    }

    func received(_ message: OpaquePointer) {
        guard let arguments = try? codec.readAll(message) else { return }
        let api = codec.api
        let text = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } ?? "" }
        handler(
            BusSignal(
                sender: text(api.message_get_sender(message)),
                path: text(api.message_get_path(message)),
                member: text(api.message_get_member(message)),
                arguments: arguments
            )
        )
    }
}
