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

import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The floor under every look-up through `securityd`: one round trip of a look-up-sized message
/// between two processes over a Unix socket, the far side waiting in `poll` as the daemon's event
/// loop waits in `epoll`.
///
/// On a VM a round trip costs two context switches each way, which no daemon can avoid; the
/// daemon's look-up is reported beside it.
enum SocketFloor {
    static let subject = "floor: Unix socket, 2 processes"

    /// Times `count` round trips of `size` bytes with an echoing child process.
    static func measure(count: Int, size: Int = 300, directory: URL) throws -> Sample {
        let path = directory.appendingPathComponent("echo.socket").path
        unlink(path)
        let listener = try bound(path)
        defer {
            close(listener)
            unlink(path)
        }
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        child.arguments = ["echo", "--socket", path]
        try child.run()
        defer { child.waitUntilExit() }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { throw EchoCommand.Failure.socket(errno) }
        defer { close(connection) }
        var message = [UInt8](repeating: 0x5a, count: size)
        return Sample.measure(count) { _ in
            message.withUnsafeMutableBytes { buffer in
                guard let base = buffer.baseAddress else {
                    preconditionFailure("the message holds a look-up's \(size) bytes, so it has storage")
                }
                return send(connection, base, size, 0) == size
                    && EchoCommand.receive(size, into: base, from: connection)
            }
        }
    }

    /// A listening socket at `path`.
    static func bound(_ path: String) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try self.address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard descriptor >= 0, result == 0, listen(descriptor, 1) == 0 else { throw EchoCommand.Failure.socket(errno) }
        return descriptor
    }

    static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw EchoCommand.Failure.socket(ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return address
    }
}

/// The child-process half of ``SocketFloor``: sends back whatever arrives until the other end closes.
struct EchoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "echo",
        abstract: "Echoes a socket's messages (internal)."
    )

    @Option var socket: String

    enum Failure: Error {
        case socket(Int32)
    }

    func run() throws {
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try SocketFloor.address(socket)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard descriptor >= 0, connected == 0 else { throw Failure.socket(errno) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while poll(&poller, 1, -1) >= 0 {
            let count = buffer.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { preconditionFailure("the 64 KiB buffer has storage") }
                return recv(descriptor, base, bytes.count, 0)
            }
            guard count > 0 else { break }
            _ = buffer.withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { preconditionFailure("the 64 KiB buffer has storage") }
                return send(descriptor, base, count, 0)
            }
        }
        close(descriptor)
    }

    /// Reads exactly `count` bytes; whether they all came.
    static func receive(_ count: Int, into base: UnsafeMutableRawPointer, from descriptor: Int32) -> Bool {
        var offset = 0
        while offset < count {
            let received = recv(descriptor, base + offset, count - offset, 0)
            guard received > 0 else { return false }
            offset += received
        }
        return true
    }
}
