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
import KeychainEngine
import KeychainSync
import KeychainSyncRelay
import Logging

/// A keychain's synchronisation in the daemon: the `security sync` commands, and the exchange
/// with the circle's server while the keychain is in one.
///
/// A keychain in no circle runs nothing (no connection, no task). In one, the daemon keeps one
/// connection to the circle's PostgreSQL server and exchanges in rounds (``SyncExchange``).
/// Commands run on the caller's thread and wait for the network at most ``commandTimeout``.
final class SyncService: SyncControl {
    /// How long a command may wait for the server.
    static let commandTimeout: Duration = .seconds(60)
    /// How long a joining device waits for its approval before it forgets its request.
    static let joinLifetime: Duration = .seconds(600)

    private struct Joining {
        var identity: DeviceIdentity
        var relay: PostgresSyncRelay
        var server: String
        var circle: CircleID
        var code: JoinCode
        var task: Task<Void, Never>
    }

    private struct State {
        var exchange: SyncExchange?
        var relay: PostgresSyncRelay?
        var running: Task<Void, Never>?
        var joining: Joining?
    }

    private let keychain: Keychain
    private let logger: Logger
    private let state = LockedState(State())
    private let commands = NSLock()

    init(keychain: Keychain, logger: Logger) {
        self.keychain = keychain
        self.logger = logger
    }

    /// Starts exchanging if the keychain is in a circle (after its first unlock: the circle's
    /// record is `AfterFirstUnlockThisDeviceOnly`, so it is retried until it can be read).
    func start() {
        guard (try? keychain.isInCircle()) == true else { return }
        let task = Task { [weak self] in
            var toldOfTPM = false
            while !Task.isCancelled {
                guard let self else { return }
                do throws(KeychainError) {
                    if let record = try self.keychain.loadCircle() {
                        self.begin(record)
                    }
                    return
                } catch {
                    switch error.code {
                    case .decode:
                        // A record this version cannot read (damaged, or of an older format) stays
                        // so: said once; `security sync leave` clears it.
                        self.logger.error(
                            "the keychain's sync circle cannot be read; `security sync leave` ends it",
                            metadata: ["keychain.error": "\(error.message)"]
                        )
                        return
                    case .notAvailable:
                        // The identity's TPM does not answer (or is another machine's): said once,
                        // then tried now and then, for a TPM that comes back.
                        if !toldOfTPM {
                            self.logger.error(
                                "the keychain's sync circle waits for its TPM",
                                metadata: ["keychain.error": "\(error.message)"]
                            )
                            toldOfTPM = true
                        }
                        try? await Task.sleep(for: .seconds(30))
                    default:
                        try? await Task.sleep(for: .seconds(2))
                    }
                }
            }
        }
        state.withLock { $0.running = task }
    }

    /// Stops every task and closes the connection; returns the exchange's task, to wait for the
    /// round it may be in.
    @discardableResult
    func stop() -> Task<Void, Never>? {
        let (running, joining) = state.withLock { state in
            defer {
                state.running = nil
                state.joining = nil
                state.exchange = nil
            }
            return (state.running, state.joining)
        }
        running?.cancel()
        joining?.task.cancel()
        return running
    }

    // MARK: SyncControl

    func perform(_ command: SyncCommand) throws(KeychainError) -> SyncReport {
        // One command at a time: two `create`s would otherwise both find no circle.
        commands.lock()
        defer { commands.unlock() }
        let result = Self.wait { () async throws -> SyncReport in try await self.run(command) }
        switch result {
        case .success(let report): return report
        case .failure(let error): throw Self.keychainError(error)
        }
    }

    private func run(_ command: SyncCommand) async throws -> SyncReport {
        switch command {
        case .create(let server, let name):
            try requireNoCircle()
            let relay = try Self.relay(server, logger: logger)
            let identity = try DeviceIdentity(name: Self.deviceName(name), store: keychain.deviceKeyStore)
            let circleState = try await CircleMembership(relay: relay).create(as: identity)
            try enter(SyncCircleRecord(state: circleState, server: server), relay: relay)
        case .join(let server, let named, let name):
            try requireNoCircle()
            var circle: CircleID?
            if let named {
                guard let id = CircleID(hex: named) else { throw MembershipError("not a circle id: \(named)") }
                circle = id
            }
            let relay = try Self.relay(server, logger: logger)
            let identity = try DeviceIdentity(name: Self.deviceName(name), store: keychain.deviceKeyStore)
            let (chosen, code) = try await CircleMembership(relay: relay).requestToJoin(circle, as: identity)
            let request = Joining(
                identity: identity,
                relay: relay,
                server: server,
                circle: chosen,
                code: code,
                task: Task {}
            )
            let waiting = Task<Void, Never> { [weak self] in await self?.awaitApproval(of: request) }
            let previous = state.withLock { state in
                defer {
                    state.joining = request
                    state.joining?.task = waiting
                }
                return state.joining
            }
            previous?.task.cancel()
        case .approve(let typed):
            guard let code = JoinCode(typed: typed) else {
                throw MembershipError("a join code is twelve letters and digits, as the joining device shows it")
            }
            let exchange = try member()
            let (approved, device) = try await CircleMembership(relay: exchange.relay).approve(
                code: code,
                in: await exchange.circle.state
            )
            try await exchange.adopt(approved)
            exchange.nudge()
            var report = await report()
            report.changedDevice = SyncReport.Device(id: "\(device.id)", name: device.name, isThisDevice: false)
            return report
        case .remove(let named):
            let exchange = try member()
            let circle = await exchange.circle.state
            let matches = circle.list.devices.filter { "\($0.id)".hasPrefix(named.lowercased()) }
            guard named.count >= 4, matches.count == 1, let device = matches.first else {
                throw MembershipError(
                    matches.count > 1
                        ? "several devices' ids begin with \(named): give more digits"
                        : "no device of the circle has an id beginning with \(named) (see `security sync status`)"
                )
            }
            let removed = try await CircleMembership(relay: exchange.relay).remove(device.id, from: circle)
            try await exchange.adopt(removed)
            exchange.nudge()
            var report = await report()
            report.changedDevice = SyncReport.Device(id: "\(device.id)", name: device.name, isThisDevice: false)
            return report
        case .status:
            break
        case .leave:
            let joining = state.withLock { state in
                defer { state.joining = nil }
                return state.joining
            }
            joining?.task.cancel()
            let inCircle = try keychain.isInCircle()
            guard joining != nil || inCircle else { throw MembershipError("this keychain is in no circle") }
            // The round under way ends first: it would otherwise write the circle back.
            await stop()?.value
            try keychain.leaveCircle()
        }
        return await report()
    }

    // MARK: Membership

    /// Polls for the approval of the join request `joining`, until it comes, the request expires,
    /// or another command cancels it.
    private func awaitApproval(of joining: Joining) async {
        let deadline = ContinuousClock.now + Self.joinLifetime
        // Still the pending request (not replaced or given up meanwhile)?
        let isCurrent = { [state] in state.withLock { $0.joining?.code == joining.code } }
        defer { state.withLock { if $0.joining?.code == joining.code { $0.joining = nil } } }
        while !Task.isCancelled, ContinuousClock.now < deadline {
            do {
                let membership = CircleMembership(relay: joining.relay)
                if let circleState = try await membership.completeJoin(
                    joining.circle,
                    as: joining.identity,
                    code: joining.code
                ) {
                    guard isCurrent() else { return }
                    try enter(SyncCircleRecord(state: circleState, server: joining.server), relay: joining.relay)
                    logger.notice("joined a sync circle", metadata: ["sync.circle": "\(joining.circle)"])
                    return
                }
            } catch let error as SyncError {
                // An approval that does not check out (made without the code): refused for good.
                logger.warning("refused an approval", metadata: ["sync.error": "\(error)"])
                return
            } catch {
                // The server away: asked again in a moment.
            }
            try? await Task.sleep(for: .seconds(1))
        }
        // Expired or cancelled: the code is forgotten (the server could otherwise keep guessing it).
    }

    /// Keeps the circle in the keychain, marks every item that may travel as changed, and starts
    /// exchanging.
    private func enter(_ record: SyncCircleRecord, relay: PostgresSyncRelay) throws {
        try keychain.saveCircle(record)
        try keychain.journalEveryItemThatMayTravel()
        begin(record, relay: relay)
    }

    private func begin(_ record: SyncCircleRecord, relay given: PostgresSyncRelay? = nil) {
        guard let relay = given ?? (try? Self.relay(record.server, logger: logger)) else {
            logger.error("the circle's server URL cannot be read; synchronisation stays off")
            return
        }
        let exchange = SyncExchange(keychain: keychain, relay: relay, record: record)
        let task = Task { await exchange.run() }
        let previous = state.withLock { state in
            defer {
                state.exchange = exchange
                state.relay = relay
                state.running = task
            }
            return state.running
        }
        previous?.cancel()
        logger.info("synchronising with a circle", metadata: ["sync.circle": "\(record.state.circle)"])
    }

    private func requireNoCircle() throws {
        guard state.withLock({ $0.joining == nil }), try !keychain.isInCircle() else {
            throw MembershipError("this keychain is in a circle already (security sync leave ends it)")
        }
    }

    private func member() throws -> SyncExchange {
        guard let exchange = state.withLock({ $0.exchange }) else {
            throw MembershipError("this keychain is in no circle, or its circle is not open yet (unlock it)")
        }
        return exchange
    }

    // MARK: Reporting

    private func report() async -> SyncReport {
        var report = SyncReport()
        if let joining = state.withLock({ $0.joining }) {
            report.membership = .joining
            report.circle = "\(joining.circle)"
            report.server = (try? RelayAddress(joining.server))?.redacted
            report.joinCode = joining.code.description
            return report
        }
        guard let exchange = state.withLock({ $0.exchange }) else { return report }
        let circle = await exchange.circle
        let status = await exchange.status
        report.circle = "\(circle.state.circle)"
        report.server = (try? RelayAddress(circle.server))?.redacted
        report.membership = status.isRemoved ? .removed : status.awaitsKeys ? .awaitingKeys : .member
        report.devices = circle.state.list.devices.map {
            SyncReport.Device(id: "\($0.id)", name: $0.name, isThisDevice: $0.id == circle.state.identity.id)
        }
        report.lastExchange = status.lastExchange
        report.lastError = status.lastError
        report.pending = status.pending
        report.sent = status.sent
        report.received = status.received
        for (reason, count) in status.refused { report.refused[reason.rawValue] = count }
        return report
    }

    // MARK: Support

    private static func relay(_ server: String, logger: Logger) throws -> PostgresSyncRelay {
        do {
            return PostgresSyncRelay(address: try RelayAddress(server), logger: logger)
        } catch {
            throw MembershipError(error.description)
        }
    }

    private static func deviceName(_ name: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        if !trimmed.isEmpty { return String(trimmed.prefix(DeviceRecord.longestName / 4)) }
        let host = ProcessInfo.processInfo.hostName.filter { !$0.isNewline }
        return String(host.prefix(DeviceRecord.longestName / 4))
    }

    private static func keychainError(_ error: any Error) -> KeychainError {
        if let error = error as? KeychainError { return error }
        if error is MembershipError || error is SyncError { return KeychainError(.invalidParameter, describe(error)) }
        return KeychainError(.notAvailable, describe(error))
    }

    private static func describe(_ error: any Error) -> String {
        switch error {
        case let failure as RelayFailure: "the sync server: \(failure.description)"
        case let membership as MembershipError: membership.description
        case let sync as SyncError: "the circle refused a message: \(sync.description)"
        case let keychain as KeychainError: keychain.message
        default: String(describing: error)
        }
    }

    /// Runs `body` on the cooperative pool and waits for it here, at most ``commandTimeout``.
    private static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        let result = LockedState<Result<T, any Error>?>(nil)
        let task = Task {
            let outcome: Result<T, any Error>
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        if done.wait(timeout: .now() + .seconds(Int(commandTimeout.components.seconds))) == .timedOut {
            task.cancel()
            return .failure(RelayFailure(timedOut: ()))
        }
        return result.withLock { $0 } ?? .failure(RelayFailure(timedOut: ()))
    }
}
