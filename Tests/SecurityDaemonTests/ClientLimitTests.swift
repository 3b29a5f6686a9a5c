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
import KeychainDevice
import KeychainServices
import KeychainTestSupport
import Testing

@testable import SecurityDaemon

/// One client that floods the daemon exhausts its own share only (issue 34, findings 4 and 5).
///
/// It gets `errSecQuotaExceeded` while every other process keeps being served. The attacker here is
/// the test process, speaking the wire format itself; the others are `security` processes.
@Suite struct ClientLimitTests {
    static let limits = ClientLimits.singleUser

    /// A daemon with a passcode and an item every read of which needs it.
    static func guardedItem() throws -> PrivateDaemon {
        let daemon = try PrivateDaemon()
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        let add = [
            "add-generic-password", "-a", "me", "-s", "Guarded", "-w", "s3cret", "--access-control", "devicePasscode",
        ]
        #expect(try daemon.tool(add).status == 0)
        return daemon
    }

    /// Reads the guarded item in a process of its own, answering the passcode on standard input.
    static func readGuarded(_ daemon: PrivateDaemon) throws -> SecurityToolRunner.Output {
        try daemon.tool(
            ["find-generic-password", "-s", "Guarded", "-w"],
            input: "2468\n",
            environment: ["KEYCHAIN_PROMPT": "stdin"]
        )
    }

    /// The refusal the daemon sent on `connection` before it closed it, if any.
    static func refusal(on connection: Int32) -> KeychainError? {
        guard case .keychainError(let error)? = RawClient.firstResponse(on: connection, milliseconds: 30_000) else {
            return nil
        }
        return error
    }

    @Test func aProcessThatHoardsContextsIsRefusedMoreAndOthersKeepTheirs() throws {
        let daemon = try Self.guardedItem()
        defer { daemon.stop() }
        let connection = try RawClient.connect(daemon.endpoint.socketPath)
        defer { close(connection) }
        var made: [ContextReference] = []
        for _ in 0..<Self.limits.contextsPerProcess {
            guard case .context(let context) = try RawClient.exchange(.makeContext, on: connection) else {
                Issue.record("a context within the process's share was refused")
                return
            }
            made.append(context)
        }
        // One more is refused with a status of its own, on this connection and on a new one.
        for probe in [connection, try RawClient.connect(daemon.endpoint.socketPath)] {
            guard case .keychainError(let error) = try RawClient.exchange(.makeContext, on: probe) else {
                Issue.record("a context past the process's share was made")
                return
            }
            #expect(error.code == .quotaExceeded)
            if probe != connection { close(probe) }
        }
        // Every other process still evaluates its own context and reads the item.
        let read = try Self.readGuarded(daemon)
        #expect(read.status == 0 && read.stdout == "s3cret\n", "\(read.stderr)")
        // Releasing one gives room for one.
        _ = try RawClient.exchange(.releaseContext(made[0]), on: connection)
        guard case .context = try RawClient.exchange(.makeContext, on: connection) else {
            Issue.record("a released context's room did not come back")
            return
        }
    }

    @Test func aProcessThatHoardsConnectionsIsRefusedMoreWithAStatus() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        var held: [Int32] = []
        defer { for connection in held { close(connection) } }
        for _ in 0..<Self.limits.connectionsPerProcess {
            let connection = try RawClient.connect(daemon.endpoint.socketPath)
            held.append(connection)
            guard case .lockState = try RawClient.exchange(.lockState, on: connection) else {
                Issue.record("a connection within the process's share was not served")
                return
            }
        }
        let extra = try RawClient.connect(daemon.endpoint.socketPath)
        defer { close(extra) }
        #expect(Self.refusal(on: extra)?.code == .quotaExceeded)
        // Other processes are served.
        #expect(try daemon.tool(["add-generic-password", "-a", "me", "-s", "Other", "-w", "served"]).status == 0)
        // A closed connection's room comes back.
        close(held.removeLast())
        let deadline = Date().addingTimeInterval(60)
        var served = false
        while !served && Date() < deadline {
            let again = try RawClient.connect(daemon.endpoint.socketPath)
            served =
                (try? RawClient.exchange(.lockState, on: again)).map { if case .lockState = $0 { true } else { false } }
                ?? false
            close(again)
            if !served { Thread.sleep(forTimeInterval: 0.1) }
        }
        #expect(served)
    }

    /// A program with many threads in the keychain at once stays within its share by itself: its
    /// transport opens at most ``DaemonTransport/maximumConnections`` and the other calls wait for one.
    @Test func aProgramWithManyThreadsIsNeverRefusedAConnection() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        var configuration = DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        configuration.engine = .daemon
        configuration.daemonSocket = daemon.endpoint.socketPath
        configuration.startsDaemon = false
        let device = try Device(home: KeychainHome(url: daemon.home), configuration: configuration)
        let statuses = LockedState<[OSStatus]>([])
        let secret = Data(repeating: 7, count: 256 << 10)
        // 150 threads of their own (not a pool's few), released at once.
        let start = DispatchSemaphore(value: 0)
        let finished = DispatchGroup()
        for index in 0..<150 {
            finished.enter()
            Thread.detachNewThread {
                start.wait()
                let status = Device.withCurrent(device) {
                    SecItemAdd(
                        [
                            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Threads",
                            kSecAttrAccount as String: "thread \(index)", kSecValueData as String: secret,
                        ] as CFDictionary,
                        nil
                    )
                }
                statuses.withLock { $0.append(status) }
                finished.leave()
            }
        }
        for _ in 0..<150 { start.signal() }
        #expect(finished.wait(timeout: .now() + 120) == .success)
        let all = statuses.withLock { $0 }
        #expect(all.count == 150 && all.allSatisfy { $0 == errSecSuccess }, "\(Set(all))")
    }

    /// Connections that announce the largest frame and trickle it: the daemon sets aside what a
    /// user's unfinished frames announce and refuses the frame that would pass the user's share.
    @Test func framesTrickledOnManyConnectionsTakeNoMoreThanTheirUsersShare() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        let allowed = Self.limits.unfinishedFrameBytesPerUser / EngineFrame.maximumLength
        var connections: [Int32] = []
        defer { for connection in connections { close(connection) } }
        for _ in 0...allowed {
            let connection = try RawClient.connect(daemon.endpoint.socketPath)
            connections.append(connection)
            RawClient.write(EngineFrame.header(forLength: EngineFrame.maximumLength) + [1], to: connection)
        }
        // Exactly one frame is one too many: refused with a status, its connection closed.
        var refused = 0
        for connection in connections {
            var poller = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, refused == 0 ? 5000 : 200) > 0 {
                #expect(Self.refusal(on: connection)?.code == .quotaExceeded)
                refused += 1
            }
        }
        #expect(refused == 1)
        // Other processes' requests are served meanwhile.
        #expect(try daemon.tool(["add-generic-password", "-a", "me", "-s", "Other", "-w", "served"]).status == 0)
        #expect(try daemon.tool(["find-generic-password", "-s", "Other", "-w"]).stdout == "served\n")
    }

    /// In system mode one user's waiting evaluations and connections leave the others theirs.
    @Test func inSystemModeOneUsersShareIsTheirsAlone() {
        let table = ClientTable(limits: .everyUser)
        let limits = ClientLimits.everyUser
        // One user's processes, each within its own share, reach the user's.
        for processID in Int32(1)...Int32(limits.evaluationsPerUser + 1) {
            #expect(table.connect(processID, userID: 1000))
        }
        for processID in Int32(1)...Int32(limits.evaluationsPerUser) {
            #expect(table.startEvaluation(by: processID, userID: 1000))
        }
        #expect(!table.startEvaluation(by: Int32(limits.evaluationsPerUser + 1), userID: 1000))
        // Another user's process is still taken.
        #expect(table.connect(5000, userID: 1001))
        #expect(table.startEvaluation(by: 5000, userID: 1001))
        // Connections: a user past their share is refused, the next user is not.
        var processID: Int32 = 100
        while table.connect(processID, userID: 1000) { processID += 1 }
        #expect(processID - 100 + Int32(limits.evaluationsPerUser + 1) == Int32(limits.connectionsPerUser))
        #expect(table.connect(5001, userID: 1001))
        // A process ID is one user's: another user cannot add to its connections or share.
        #expect(!table.connect(5000, userID: 1000))
        // Ended evaluations give their room back.
        table.endEvaluation(by: 1, userID: 1000)
        #expect(table.startEvaluation(by: Int32(limits.evaluationsPerUser + 1), userID: 1000))
    }

    /// An evaluation goes on after its process's connections closed (it waits on the pool): the
    /// process that reconnects meanwhile finds it still counted, and its end is not taken from
    /// anything else.
    @Test func anEvaluationCountsUntilItEndsWhateverTheConnectionsDo() {
        let table = ClientTable(limits: .singleUser)
        let limits = ClientLimits.singleUser
        #expect(table.connect(7, userID: 1000))
        for _ in 0..<limits.evaluationsPerProcess { #expect(table.startEvaluation(by: 7, userID: 1000)) }
        _ = table.disconnect(7)
        #expect(table.connect(7, userID: 1000))
        #expect(!table.startEvaluation(by: 7, userID: 1000))
        for _ in 0..<limits.evaluationsPerProcess { table.endEvaluation(by: 7, userID: 1000) }
        for _ in 0..<limits.evaluationsPerProcess { #expect(table.startEvaluation(by: 7, userID: 1000)) }
        #expect(!table.startEvaluation(by: 7, userID: 1000))
    }
}
