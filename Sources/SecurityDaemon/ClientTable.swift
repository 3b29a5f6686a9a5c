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

import KeychainContract
import KeychainCore

/// The client processes and users of a daemon: the contexts each process made (released when its
/// last connection closes, since a client that crashed never releases them itself), and what each
/// may hold at once (``ClientLimits``), so that one client, or one user of a system-mode daemon,
/// that floods the daemon exhausts only its own share.
final class ClientTable: Sendable {
    private struct Client {
        var userID: UInt32
        var connections = 0
        var contexts: Set<ContextReference> = []
    }

    /// What one user holds across their processes.
    private struct User {
        var connections = 0
        var contexts = 0
        var evaluations = 0
        var unfinishedFrameBytes = 0
        var isEmpty: Bool { connections == 0 && contexts == 0 && evaluations == 0 && unfinishedFrameBytes == 0 }
    }

    private struct State {
        var clients: [Int32: Client] = [:]
        var users: [UInt32: User] = [:]
        /// Evaluations waiting, by process: kept apart from the clients, since an evaluation goes on
        /// (on the pool) after its process's connections closed, and must count until it ends.
        var evaluationsByProcess: [Int32: Int] = [:]
        var evaluations = 0
        var connections = 0
    }

    let limits: ClientLimits
    private let state = LockedState(State())
    private let lastSeen = LockedState<ContinuousClock.Instant>(.now)
    /// Requests running, and when the last one ended.
    private let requests = LockedState<(running: Int, lastEnded: ContinuousClock.Instant)>((0, .now))

    init(limits: ClientLimits = ClientLimits()) {
        self.limits = limits
    }

    /// Counts an evaluation of `processID` of `userID` that is about to wait (for a finger, a
    /// passcode typed into pinentry, a relayed answer); `false` (counting nothing) when that
    /// process, its user or the daemon already has as many as it may.
    func startEvaluation(by processID: Int32, userID: UInt32) -> Bool {
        state.withLock { state in
            guard state.evaluationsByProcess[processID, default: 0] < limits.evaluationsPerProcess,
                state.users[userID, default: User()].evaluations < limits.evaluationsPerUser,
                state.evaluations < limits.evaluationsInAll
            else { return false }
            state.evaluationsByProcess[processID, default: 0] += 1
            state.users[userID, default: User()].evaluations += 1
            state.evaluations += 1
            return true
        }
    }

    /// An evaluation counted by ``startEvaluation(by:userID:)`` ended.
    func endEvaluation(by processID: Int32, userID: UInt32) {
        state.withLock { state in
            let left = state.evaluationsByProcess[processID, default: 1] - 1
            state.evaluationsByProcess[processID] = left > 0 ? left : nil
            state.users[userID]?.evaluations -= 1
            if state.users[userID]?.isEmpty == true { state.users[userID] = nil }
            state.evaluations -= 1
        }
    }

    /// How long no request has run; zero while one runs.
    var quietTime: Duration {
        requests.withLock { $0.running > 0 ? .zero : ContinuousClock.now - $0.lastEnded }
    }

    /// A request started running.
    func requestStarted() {
        requests.withLock { $0.running += 1 }
    }

    /// A request finished.
    func requestEnded() {
        requests.withLock {
            $0.running -= 1
            $0.lastEnded = .now
        }
    }

    /// How long no process has had a connection open; zero while one has.
    var idleTime: Duration {
        state.withLock { state in state.clients.isEmpty ? lastSeen.withLock { ContinuousClock.now - $0 } : .zero }
    }

    /// A connection of process `processID` of `userID` opened; `false` (counting nothing) when
    /// that process, that user or the daemon has as many open as it may.
    func connect(_ processID: Int32, userID: UInt32) -> Bool {
        state.withLock { state in
            let client = state.clients[processID] ?? Client(userID: userID)
            guard client.userID == userID, client.connections < limits.connectionsPerProcess,
                state.users[userID, default: User()].connections < limits.connectionsPerUser,
                state.connections < limits.connectionsInAll
            else { return false }
            state.clients[processID, default: client].connections += 1
            state.users[userID, default: User()].connections += 1
            state.connections += 1
            return true
        }
    }

    /// A connection of `processID` closed; the contexts to release if it was the process's last.
    func disconnect(_ processID: Int32) -> Set<ContextReference> {
        state.withLock { state in
            lastSeen.withLock { $0 = .now }
            guard var client = state.clients[processID] else { return [] }
            state.connections -= 1
            state.users[client.userID]?.connections -= 1
            client.connections -= 1
            guard client.connections <= 0 else {
                state.clients[processID] = client
                return []
            }
            state.clients[processID] = nil
            state.users[client.userID]?.contexts -= client.contexts.count
            if state.users[client.userID]?.isEmpty == true { state.users[client.userID] = nil }
            return client.contexts
        }
    }

    /// Sets aside `bytes` for a frame of `userID` that is still arriving; `false` (setting aside
    /// nothing) when that user's unfinished frames would pass ``ClientLimits/unfinishedFrameBytesPerUser``.
    func reserveFrame(_ bytes: Int, userID: UInt32) -> Bool {
        state.withLock { state in
            guard
                state.users[userID, default: User()].unfinishedFrameBytes + bytes <= limits.unfinishedFrameBytesPerUser
            else { return false }
            state.users[userID, default: User()].unfinishedFrameBytes += bytes
            return true
        }
    }

    /// Returns what ``reserveFrame(_:userID:)`` set aside.
    func releaseFrame(_ bytes: Int, userID: UInt32) {
        state.withLock { state in
            state.users[userID]?.unfinishedFrameBytes -= bytes
            if state.users[userID]?.isEmpty == true { state.users[userID] = nil }
        }
    }

    /// Why `request` of `processID` is refused before it reaches the engine, if it is: a process
    /// (or a user) that holds its share of contexts gets no more, and another's keep working.
    func refusal(of request: EngineRequest, by processID: Int32) -> KeychainError? {
        guard case .makeContext = request else { return nil }
        let (held, ofUser) = state.withLock { state -> (Int, Int) in
            guard let client = state.clients[processID] else { return (0, 0) }
            return (client.contexts.count, state.users[client.userID]?.contexts ?? 0)
        }
        if held >= limits.contextsPerProcess {
            return KeychainError(
                .quotaExceeded,
                "this process holds \(held) authentication contexts, the most one may; release some (invalidate them)"
            )
        }
        if ofUser >= limits.contextsPerUser {
            return KeychainError(
                .quotaExceeded,
                "this user's programs hold \(ofUser) authentication contexts, the most they may; release some"
            )
        }
        return nil
    }

    /// `request` as process `processID` may send it: a context reference that process did not make
    /// (or has released) stands for one nobody was given, which earns nothing and ends nothing.
    ///
    /// A reference is 16 random bytes, but bytes leak (a log, a core dump, `/proc/PID/mem` of a
    /// dumpable program): another process that learns them must not read with the context's
    /// credentials or invalidate it (issue 34, finding 6).
    ///
    /// - Parameters:
    ///   - request: The request as it arrived.
    ///   - processID: The process whose connection sent it.
    /// - Returns: The request, with every context it names that `processID` did not make replaced.
    func confine(_ request: EngineRequest, to processID: Int32) -> EngineRequest {
        if case .makeContext = request { return request }
        let own = state.withLock { $0.clients[processID]?.contexts ?? [] }
        return request.replacingContexts { own.contains($0) ? $0 : ContextReference() }
    }

    /// Notes what a request did to the contexts of `processID`.
    func note(_ request: EngineRequest, _ response: EngineResponse, by processID: Int32) {
        switch (request, response) {
        case (.makeContext, .context(let context)):
            state.withLock { state in
                guard let userID = state.clients[processID]?.userID,
                    state.clients[processID]?.contexts.insert(context).inserted == true
                else { return }
                state.users[userID, default: User()].contexts += 1
            }
        case (.releaseContext(let context), _):
            state.withLock { state in
                guard let userID = state.clients[processID]?.userID,
                    state.clients[processID]?.contexts.remove(context) != nil
                else { return }
                state.users[userID]?.contexts -= 1
            }
        default:
            break
        }
    }
}
