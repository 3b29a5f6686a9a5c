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
import KeychainContract
import KeychainCore
import KeychainTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 34, finding 6: a context reference is 16 bytes that can leak; the context belongs to the
/// process that made it, and another process that presents its bytes gets a context nobody was given.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "a second process in python3"))
struct ContextBindingTests {
    /// Sends `request` from a process of its own (python3), as one frame, and waits for the reply.
    static func sendFromAnotherProcess(_ request: EngineRequest, to socket: String) throws -> ProgramOutput {
        let message = try EngineWire.encode(request)
        let frame = EngineFrame.header(forLength: message.count) + message
        let hex = frame.map { String(format: "%02x", $0) }.joined()
        let script = """
            import socket, struct, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.sendall(bytes.fromhex(sys.argv[2]))
            data = b""
            while len(data) < 4 or len(data) < 4 + struct.unpack(">I", data[:4])[0]:
                chunk = s.recv(65536)
                if not chunk:
                    sys.exit("closed")
                data += chunk
            print("answered")
            """
        return try ProgramRun.run(URL(filePath: "/usr/bin/python3"), ["-c", script, socket, hex], input: nil)
    }

    /// What a preflight of `context` answers on `connection`.
    static func preflight(_ context: ContextReference, on connection: Int32) throws -> AuthenticationFailure? {
        let response = try RawClient.exchange(.preflight(.deviceOwner, context: context), on: connection)
        guard case .preflight(let failure) = response else {
            Issue.record("a preflight answered \(response)")
            return nil
        }
        return failure
    }

    @Test func anotherProcessCannotEndAContextByItsBytes() throws {
        let daemon = try PrivateDaemon()
        defer { _ = daemon.stop() }
        let connection = try RawClient.connect(daemon.endpoint.socketPath)
        defer { close(connection) }
        guard case .context(let context) = try RawClient.exchange(.makeContext, on: connection) else {
            Issue.record("no context was made")
            return
        }
        #expect(try Self.preflight(context, on: connection)?.code != .invalidContext)

        // Another process presents the bytes: the daemon answers it, and the context lives on.
        let other = try Self.sendFromAnotherProcess(.invalidateContext(context), to: daemon.endpoint.socketPath)
        #expect(other.status == 0 && other.stdout == "answered\n", "\(other.stderr)")
        #expect(try Self.preflight(context, on: connection)?.code != .invalidContext)

        // Its own process ends it.
        let ended = try RawClient.exchange(.invalidateContext(context), on: connection)
        guard case .done = ended else {
            Issue.record("invalidating its own context answered \(ended)")
            return
        }
        #expect(try Self.preflight(context, on: connection)?.code == .invalidContext)
    }
}
