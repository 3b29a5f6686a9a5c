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

/// The contexts each client process has made, so that they are released when its last
/// connection closes (a client that crashed never releases them itself).
final class ClientTable: Sendable {
    private struct Client {
        var connections = 0
        var contexts: Set<ContextReference> = []
    }

    private let clients = LockedState<[Int32: Client]>([:])
    private let lastSeen = LockedState<ContinuousClock.Instant>(.now)
    /// Requests running, and when the last one ended.
    private let requests = LockedState<(running: Int, lastEnded: ContinuousClock.Instant)>((0, .now))

    /// Evaluations waiting (for a finger, a passcode typed into pinentry, a relayed answer), in
    /// all and by process.
    private let evaluations = LockedState<(total: Int, byProcess: [Int32: Int])>((0, [:]))

    /// The most evaluations one process may have waiting at once.
    static let evaluationsPerProcess = 4
    /// The most evaluations waiting at once in all: the rest of the daemon's threads stay free
    /// for item requests, however many prompts nobody answers.
    static let evaluationsInAll = 12

    /// Counts an evaluation of `processID` that is about to wait; `false` (counting nothing) when
    /// that process or the daemon already has as many as it may.
    func startEvaluation(by processID: Int32) -> Bool {
        evaluations.withLock { state in
            let mine = state.byProcess[processID, default: 0]
            guard mine < Self.evaluationsPerProcess, state.total < Self.evaluationsInAll else { return false }
            state.byProcess[processID] = mine + 1
            state.total += 1
            return true
        }
    }

    /// An evaluation counted by ``startEvaluation(by:)`` ended.
    func endEvaluation(by processID: Int32) {
        evaluations.withLock { state in
            let mine = state.byProcess[processID, default: 1] - 1
            state.byProcess[processID] = mine > 0 ? mine : nil
            state.total -= 1
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
        clients.withLock { table in table.isEmpty ? lastSeen.withLock { ContinuousClock.now - $0 } : .zero }
    }

    /// A connection of process `processID` opened.
    func connect(_ processID: Int32) {
        clients.withLock { $0[processID, default: Client()].connections += 1 }
    }

    /// A connection of `processID` closed; the contexts to release if it was the process's last.
    func disconnect(_ processID: Int32) -> Set<ContextReference> {
        clients.withLock { table in
            lastSeen.withLock { $0 = .now }
            guard var client = table[processID] else { return [] }
            client.connections -= 1
            guard client.connections <= 0 else {
                table[processID] = client
                return []
            }
            table[processID] = nil
            return client.contexts
        }
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
        let own = clients.withLock { $0[processID]?.contexts ?? [] }
        return request.replacingContexts { own.contains($0) ? $0 : ContextReference() }
    }

    /// Notes what a request did to the contexts of `processID`.
    func note(_ request: EngineRequest, _ response: EngineResponse, by processID: Int32) {
        switch (request, response) {
        case (.makeContext, .context(let context)):
            clients.withLock { _ = $0[processID]?.contexts.insert(context) }
        case (.releaseContext(let context), _):
            clients.withLock { _ = $0[processID]?.contexts.remove(context) }
        default:
            break
        }
    }
}
