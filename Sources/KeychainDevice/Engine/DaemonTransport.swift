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
package import KeychainCore

/// The transport to `securityd`: framed messages (``EngineFrame``) over its Unix socket.
///
/// Calls are synchronous, as `SecItem*` are, and may run on many threads at once: each takes an
/// idle connection or opens one, and gives it back when its reply has arrived; past
/// ``maximumConnections`` calls in flight in the process, the next waits for one to end (the daemon refuses a
/// process more than 64 connections). A connection the
/// daemon closed meanwhile (it restarted) is noticed before it is used and replaced; when no
/// daemon answers, the ``DaemonLauncher`` (if any) starts one, as gpg-agent is started.
package final class DaemonTransport: EngineTransport {
    /// Where the daemon listens.
    package let endpoint: DaemonEndpoint
    private let launcher: DaemonLauncher?
    private let idle = LockedState<[Int32]>([])
    /// Calls in flight in this process, each holding a connection (`running`, read and written
    /// under `inFlight`): the daemon counts a process's connections, whichever device made them.
    private static let inFlight = NSCondition()
    nonisolated(unsafe) private static var running = 0

    /// The key of this thread's depth of calls in flight, in its thread dictionary.
    private static let depthKey = "swift-keychain.daemon-calls"

    /// The most calls this process has in flight at once: half of the connections the daemon
    /// allows a process.
    package static let maximumConnections = 32

    /// How long a client waits in all for a daemon it started to listen: long enough for a machine
    /// starting many programs at once (a daemon that cannot serve says so at once, through its
    /// readiness report).
    static let startTimeout: Duration = .seconds(30)

    /// A transport to the daemon at `endpoint`; `launcher` starts one when none answers.
    package init(endpoint: DaemonEndpoint, launcher: DaemonLauncher?) {
        self.endpoint = endpoint
        self.launcher = launcher
    }

    deinit {
        for descriptor in idle.withLock({ $0 }) { close(descriptor) }
    }

    // MARK: Exchanging

    package func exchange(
        _ message: [UInt8],
        receive: @escaping @Sendable (_ reply: [UInt8]) throws(KeychainError) -> ReplyStep
    ) throws(KeychainError) -> EngineResponse {
        // A call made while this thread's own call waits (a prompt of the program's that uses the
        // keychain) is not held back by that call's slot, and no call waits for a slot long: the
        // limit keeps a busy program under the daemon's share, it must never deadlock one.
        let thread = Thread.current.threadDictionary
        let depth = thread[Self.depthKey] as? Int ?? 0
        thread[Self.depthKey] = depth + 1
        defer { thread[Self.depthKey] = depth }
        if depth == 0 {
            let deadline = Date().addingTimeInterval(5)
            Self.inFlight.lock()
            while Self.running >= Self.maximumConnections && Self.inFlight.wait(until: deadline) {}
            Self.running += 1
            Self.inFlight.unlock()
        }
        defer {
            if depth == 0 {
                Self.inFlight.lock()
                Self.running -= 1
                Self.inFlight.signal()
                Self.inFlight.unlock()
            }
        }
        let frame = EngineFrame.header(forLength: message.count) + message
        if let reused = idleConnection() {
            // The daemon closes connections that stay idle; one it closed just as this request
            // was sent never read it, and the request goes again on a new connection.
            switch try exchange(frame, on: reused, receive: receive) {
            case .reply(let reply): return reply
            case .closedBeforeReply: break
            }
        }
        switch try exchange(frame, on: try openConnection(), receive: receive) {
        case .reply(let reply):
            return reply
        case .closedBeforeReply:
            throw KeychainError(.io, "the keychain daemon closed the connection before it answered")
        }
    }

    private enum Outcome {
        case reply(EngineResponse)
        case closedBeforeReply
    }

    /// Sends a frame on `descriptor` and reads the replies; the connection goes back to the pool
    /// after a final reply and is closed otherwise.
    private func exchange(
        _ frame: [UInt8],
        on descriptor: Int32,
        receive: (_ reply: [UInt8]) throws(KeychainError) -> ReplyStep
    ) throws(KeychainError) -> Outcome {
        var answered = false
        do throws(KeychainError) {
            guard try Self.sendAll(frame, on: descriptor) else {
                close(descriptor)
                return .closedBeforeReply
            }
            while true {
                guard let reply = try Self.receive(on: descriptor) else {
                    // Closed by the `catch` below when thrown: a descriptor is closed exactly once,
                    // since a second close would end whatever another thread opened under its number.
                    if answered {
                        throw KeychainError(.io, "the keychain daemon closed the connection while it answered")
                    }
                    close(descriptor)
                    return .closedBeforeReply
                }
                answered = true
                // Interim replies are progress reports and questions (whose answers go back on
                // the same connection); the final one is anything else.
                switch try receive(reply) {
                case .interim(let answer?):
                    guard try Self.sendAll(EngineFrame.header(forLength: answer.count) + answer, on: descriptor) else {
                        throw KeychainError(.io, "the keychain daemon closed the connection while it asked")
                    }
                case .interim(nil):
                    continue
                case .final(let response):
                    idle.withLock { $0.append(descriptor) }
                    return .reply(response)
                }
            }
        } catch {
            close(descriptor)
            throw error
        }
    }

    // MARK: Connections

    /// An idle connection that the daemon has not closed, if there is one.
    private func idleConnection() -> Int32? {
        while let descriptor = idle.withLock({ $0.popLast() }) {
            // The daemon never writes unprompted: a readable idle connection is one it closed.
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 0) == 0 { return descriptor }
            close(descriptor)
        }
        return nil
    }

    /// A new connection, to a daemon of this user; starts the daemon first if none listens and a
    /// launcher was given.
    private func openConnection() throws(KeychainError) -> Int32 {
        let descriptor = try connectOrStart()
        // Whoever listens gets passcodes and secrets: it must run as this user (another user may
        // have made the socket's folder first, in /tmp for instance), or be the system daemon
        // (root, or its own account).
        guard let owner = Self.peerUserID(descriptor), DaemonEndpoint.isTrustedServer(owner) else {
            close(descriptor)
            throw KeychainError(
                .invalidKeychain,
                "the keychain socket \(endpoint.socketPath) is served by another user; refusing to use it"
            )
        }
        return descriptor
    }

    /// The user ID of the process at the other end of a Unix socket (`SO_PEERCRED`).
    private static func peerUserID(_ descriptor: Int32) -> UInt32? {
        // The kernel's `struct ucred` (pid, uid, gid), which the C library declares only under _GNU_SOURCE.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0,
            Int(length) == MemoryLayout<(Int32, UInt32, UInt32)>.size
        else { return nil }
        return credentials.1
    }

    private func connectOrStart() throws(KeychainError) -> Int32 {
        let first = Self.dial(endpoint.socketPath)
        if case .success(let descriptor) = first { return descriptor }
        guard let launcher, case .failure(let failure) = first, failure.code == ENOENT || failure.code == ECONNREFUSED
        else {
            throw Self.unreachable(endpoint, first)
        }
        // One deadline for the start and the dials after it (a daemon that lost the socket's lock
        // to another says nothing: that one is dialled until it listens).
        let deadline = ContinuousClock.now + Self.startTimeout
        try launcher.start(endpoint: endpoint, timeout: Self.startTimeout)
        var last = first
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            last = Self.dial(endpoint.socketPath)
            if case .success(let descriptor) = last { return descriptor }
        }
        throw Self.unreachable(endpoint, last)
    }

    private static func unreachable(_ endpoint: DaemonEndpoint, _ result: Result<Int32, SystemError>) -> KeychainError {
        let code: Int32
        switch result {
        case .success: code = 0
        case .failure(let failure): code = failure.code
        }
        return KeychainError(
            .notAvailable,
            "the keychain daemon does not answer at \(endpoint.socketPath): \(String(cString: strerror(code))); "
                + "start it with `securityd`, or set KEYCHAIN_ENGINE=embedded"
        )
    }

    /// Connects to a Unix socket; the descriptor, or the `errno`.
    private static func dial(_ path: String) -> Result<Int32, SystemError> {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return .failure(SystemError(code: ENAMETOOLONG)) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        #if canImport(Glibc)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        #else
        let descriptor = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return .failure(SystemError(code: errno)) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.size)
        var result: Int32
        repeat {
            result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
            }
        } while result != 0 && errno == EINTR
        guard result == 0 else {
            let code = errno
            close(descriptor)
            return .failure(SystemError(code: code))
        }
        return .success(descriptor)
    }

    // MARK: Bytes

    /// Writes all of `bytes`; `false` when the daemon had closed the connection (nothing was read).
    private static func sendAll(_ bytes: [UInt8], on descriptor: Int32) throws(KeychainError) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                guard let base = buffer.baseAddress else {
                    preconditionFailure("bytes are left to send, so the buffer is not empty")
                }
                return send(descriptor, base + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE || errno == ECONNRESET { return false }
                throw KeychainError(.io, "cannot write to the keychain daemon: \(String(cString: strerror(errno)))")
            }
            offset += sent
        }
        return true
    }

    /// One frame's message; `nil` when the daemon closed the connection before the frame began.
    private static func receive(on descriptor: Int32) throws(KeychainError) -> [UInt8]? {
        guard let header = try readExactly(EngineFrame.headerLength, from: descriptor, endAllowed: true) else {
            return nil
        }
        guard let length = EngineFrame.length(ofHeader: header) else {
            throw KeychainError(.io, "the keychain daemon sent a malformed frame")
        }
        return try readExactly(length, from: descriptor, endAllowed: false)
    }

    /// `count` bytes; `nil` when the peer closed before the first of them and `endAllowed`.
    private static func readExactly(
        _ count: Int,
        from descriptor: Int32,
        endAllowed: Bool
    ) throws(KeychainError) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let received = bytes.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else {
                    preconditionFailure("bytes are left to read, so the buffer is not empty")
                }
                return recv(descriptor, base + offset, count - offset, 0)
            }
            if received < 0, errno == EINTR { continue }
            if offset == 0, endAllowed, received == 0 || (received < 0 && errno == ECONNRESET) { return nil }
            guard received > 0 else {
                throw KeychainError(.io, "the keychain daemon closed the connection before it answered")
            }
            offset += received
        }
        return bytes
    }

    /// An `errno` from a system call.
    struct SystemError: Error {
        var code: Int32
    }
}
