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

/// securityd takes a login event only from root — the PAM module in `login`, `gdm`, `sshd` — for
/// the user it names: a password handed in that way is not counted when it is wrong, so a
/// program of the user sending one would guess the passcode without end (issue 39).
@Suite(.serialized, .enabled(if: ThrowawayUser.unavailableReason == nil, "needs root (throw-away users)"))
struct LoginEventAuthorityTests {
    static let password = "Corr3ct-Horse-Battery"

    /// Sends `request` from a process running as `user`; the reply.
    static func exchange(_ request: EngineRequest, on socket: String, as user: ThrowawayUser) throws -> EngineResponse {
        let message = try EngineWire.encode(request)
        let frame = EngineFrame.header(forLength: message.count) + message
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.sendall(bytes.fromhex(sys.argv[2]))
            def exactly(n):
                data = b''
                while len(data) < n:
                    part = s.recv(n - len(data))
                    if not part: sys.exit(3)
                    data += part
                return data
            length = int.from_bytes(exactly(4), 'big')
            print(exactly(length).hex())
            """
        let hex = frame.map { String(format: "%02x", $0) }.joined()
        let result = try user.run("/usr/bin/python3", ["-c", script, socket, hex])
        let bytes = stride(from: 0, to: result.output.count - 1, by: 2).compactMap { offset -> UInt8? in
            let start = result.output.index(result.output.startIndex, offsetBy: offset)
            return UInt8(result.output[start..<result.output.index(start, offsetBy: 2)], radix: 16)
        }
        return try EngineWire.decode(EngineResponse.self, from: bytes)
    }

    /// Sends `request` from this process (root).
    static func exchange(_ request: EngineRequest, on socket: String) throws -> EngineResponse {
        let descriptor = try RawClient.connect(socket)
        defer { close(descriptor) }
        return try RawClient.exchange(request, on: descriptor)
    }

    static func code(of response: EngineResponse) -> KeychainError.Code? {
        if case .keychainError(let error) = response { return error.code }
        return nil
    }

    @Test func onlyRootHandsALoginEventAndOnlyToTheUserItNames() throws {
        guard let user = ThrowawayUser.make("logev") else { return }
        let daemon = try PrivateDaemon(user: user.uid, settings: ["passcode-cost": "testing"])
        defer { daemon.stop() }
        let socket = daemon.endpoint.socketPath
        let opened = LoginEvent.sessionOpened(password: Self.password, setsFirstPasscode: true)

        // Root (the PAM module) sets the first passcode, locks with the session, unlocks.
        guard case .login(.passcodeSet) = try Self.exchange(.login(opened, userID: user.uid), on: socket) else {
            Issue.record("root could not hand the login to the user's daemon")
            return
        }
        let lock = EngineRequest.login(.sessionLocked(reopensWithinSeconds: 0), userID: user.uid)
        guard case .login(.locked) = try Self.exchange(lock, on: socket) else {
            Issue.record("the session's lock was refused")
            return
        }
        // Root gets nothing else from a daemon that does not serve root's keychain.
        #expect(Self.code(of: try Self.exchange(.lockState, on: socket)) == .notAvailable)
        // Nor a login event for a user the daemon does not serve.
        #expect(Self.code(of: try Self.exchange(.login(opened, userID: user.uid &+ 1), on: socket)) == .notAvailable)

        // The user's own programs may not send one: guesses, uncounted, without end.
        for guess in ["0000", "1234", Self.password] {
            let response = try Self.exchange(
                .login(.sessionOpened(password: guess, setsFirstPasscode: false), userID: user.uid),
                on: socket,
                as: user
            )
            #expect(Self.code(of: response) == .missingEntitlement)
        }
        #expect(
            Self.code(of: try Self.exchange(.login(.sessionUnlocked, userID: user.uid), on: socket, as: user))
                == .missingEntitlement
        )
        guard case .lockState(let state) = try Self.exchange(.lockState, on: socket, as: user) else {
            Issue.record("the user's own client got no lock state")
            return
        }
        #expect(!state.isUnlocked, "a refused login event unlocked the keychain")
        #expect(state.failedAttempts == 0)

        let unlock = EngineRequest.login(
            .sessionOpened(password: Self.password, setsFirstPasscode: false),
            userID: user.uid
        )
        guard case .login(.unlocked) = try Self.exchange(unlock, on: socket) else {
            Issue.record("root's right password did not unlock")
            return
        }
    }
}
