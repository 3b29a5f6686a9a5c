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
import KeychainContract
import KeychainTestSupport

/// A user who floods a system-mode daemon (started by `load`, as that user).
///
/// Connections until refused, contexts until refused, the largest frames announced and trickled,
/// evaluations nobody answers, and connections closed and opened again until the time is up.
/// Every loop is bounded; it prints what the daemon refused as JSON.
struct LoadFlood: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-flood",
        abstract: "Flood a system-mode securityd with connections, contexts, frames and prompts (started by `load`).",
        shouldDisplay: false
    )

    @Option var socket: String
    @Option var seconds: Double

    /// What the daemon let this flooder have, and what it refused.
    struct Report: Codable {
        var connections = 0
        var refusedConnections = 0
        var contexts = 0
        var refusedContexts = 0
        var refusedFrames = 0
        var parkedEvaluations = 0
        var refusedEvaluations = 0
        var reconnections = 0
    }

    func run() throws {
        let deadline = Date().addingTimeInterval(seconds)
        var report = Report()
        var held: [Int32] = []
        defer { for connection in held { close(connection) } }

        // Connections until the daemon refuses (a reply with a status, then the close).
        for _ in 0..<300 {
            guard let connection = try? RawClient.connect(socket) else { break }
            if case .lockState? = try? RawClient.exchange(.lockState, on: connection) {
                held.append(connection)
                report.connections += 1
            } else {
                close(connection)
                report.refusedConnections += 1
                break
            }
        }
        guard let first = held.first else {
            FileHandle.standardOutput.write(try JSONEncoder().encode(report))
            return
        }
        // Evaluations nobody answers, each on a connection of its own: with a passcode (the first
        // flooder sets it; the others' attempts fail), each asks this process and waits.
        _ = try? RawClient.exchange(.setPasscode(passcode: "2468", current: nil, reportsProgress: false), on: first)
        for connection in held.dropFirst().prefix(6) {
            guard case .context(let context)? = try? RawClient.exchange(.makeContext, on: connection) else { continue }
            let request = EngineRequest.evaluatePolicy(
                .deviceOwner,
                context: context,
                reason: "flood",
                interactionAllowed: true,
                target: PromptTarget(kind: .custom)
            )
            guard let message = try? EngineWire.encode(request) else { continue }
            RawClient.write(EngineFrame.header(forLength: message.count) + message, to: connection)
            switch RawClient.firstResponse(on: connection, milliseconds: 2000) {
            case .ask?: report.parkedEvaluations += 1
            default: report.refusedEvaluations += 1
            }
        }
        // Contexts until refused.
        for _ in 0..<1_500 {
            guard let reply = try? RawClient.exchange(.makeContext, on: first) else { break }
            if case .context = reply {
                report.contexts += 1
            } else {
                report.refusedContexts += 1
                break
            }
        }
        // The largest frames, announced and never finished.
        for connection in held.dropFirst(8).prefix(4) {
            RawClient.write(EngineFrame.header(forLength: EngineFrame.maximumLength) + [0], to: connection)
        }
        for connection in held.dropFirst(8).prefix(4)
        where !RawClient.readAll(from: connection, milliseconds: 300).isEmpty {
            report.refusedFrames += 1
        }
        // Churn until the time is up: close the last connections and open them again.
        var round = 0
        while Date() < deadline && round < 100_000 {
            round += 1
            if let last = held.last, last != first { close(held.removeLast()) }
            if let connection = try? RawClient.connect(socket) {
                held.append(connection)
                report.reconnections += 1
            }
            if round % 50 == 0 { _ = try? RawClient.exchange(.lockState, on: first) }
            usleep(2_000)
        }
        FileHandle.standardOutput.write(try JSONEncoder().encode(report))
    }
}
