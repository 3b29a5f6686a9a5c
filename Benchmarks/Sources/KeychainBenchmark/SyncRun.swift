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
import KeychainDevice
import KeychainServices

/// Synchronisation through a PostgreSQL server on this machine: how long a change takes to reach
/// two other devices, how long a new device takes to receive a keychain's items, and what being
/// in a circle costs `SecItemAdd` (against a keychain in no circle, in the same run).
///
/// Each device is a keychain home with its own `securityd` (started on demand, as for a user);
/// the circle is made with the `security sync` commands.
struct SyncRun {
    let server: String
    let changes: Int
    let initialItems: Int
    let writes: Int
    let directory: URL
    let log: ResultLog

    static let subject = "swift-keychain sync (PostgreSQL on loopback)"

    private struct Machine {
        let home: URL
        let socket: String
        let daemon: Process
        let device: Device
    }

    func run() throws {
        let a = try machine("a")
        let b = try machine("b")
        let c = try machine("c")
        let plain = try machine("plain")
        defer {
            for machine in [a, b, c, plain] { stopDaemon(machine) }
        }
        try security(["sync", "create", "--server", server, "--name", "a"], on: a)
        try join(b, approvedBy: a)
        try join(c, approvedBy: a)

        // A change on one device, until both others hold it (polled every millisecond).
        var latencies: [UInt64] = []
        let started = now()
        var missed = 0
        for index in 0..<changes {
            let service = "sync-bench-change-\(index)"
            guard Device.withCurrent(a.device, operation: { add(service, index: index) }) else {
                missed += 1
                continue
            }
            let added = now()
            var seen: Set<Int> = []
            let deadline = added + 10_000_000_000
            while seen.count < 2, now() < deadline {
                for (position, machine) in [b, c].enumerated() where !seen.contains(position) {
                    if Device.withCurrent(machine.device, operation: { has(service) }) { seen.insert(position) }
                }
                if seen.count < 2 { usleep(1000) }
            }
            if seen.count == 2 { latencies.append(now() - added) } else { missed += 1 }
        }
        let sample = Sample.recorded(latencies, errors: missed, started: started, finished: now())
        log.record(Self.subject, "a change reaches 2 devices", size: changes, sample)

        // A new device receives what the circle holds.
        // The keychain in no circle gets as many items, so that the SecItemAdd rounds below
        // compare keychains of the same size.
        let d = try machine("d")
        defer { stopDaemon(d) }
        for index in 0..<initialItems {
            _ = Device.withCurrent(a.device) { add("sync-bench-initial-\(index)", index: index) }
            _ = Device.withCurrent(plain.device) { add("sync-bench-initial-\(index)", index: index) }
        }
        try waitUntilSent(a)
        let total = initialItems + changes - missed
        let joining = now()
        try join(d, approvedBy: a)
        // Polled cheaply (the last item sent, every 10 ms), then counted: a count reads every
        // item's attributes, and counting every 100 ms took half the new device's time on these
        // two cores.
        let deadline = Date().addingTimeInterval(300)
        let last = "sync-bench-initial-\(initialItems - 1)"
        var received = 0
        while Date() < deadline {
            if Device.withCurrent(d.device, operation: { has(last) }) {
                received = Device.withCurrent(d.device) { count() }
                if received >= total { break }
            }
            usleep(received > 0 ? 100_000 : 10_000)
        }
        let initial = Double(now() - joining) / 1e9
        log.record(
            Self.subject,
            "initial sync of a new device (s)",
            size: total,
            value: initial,
            unit: "s",
            extra: ["received": received]
        )

        // SecItemAdd in a circle and in none, alternating rounds: of the keychain's ordinary items
        // (what being in a circle must not slow down), then of synchronizable ones (each of which
        // the daemon also sends). The circle's other devices are other machines, but here they
        // apply every change on the same two cores: measured with their daemons running, and
        // with them stopped (SIGSTOP) for this device's own cost; they catch up afterwards.
        let others = [b, c, d]
        for (synchronizable, othersStopped) in [(false, false), (true, false), (true, true)] {
            if othersStopped { for machine in others { kill(machine.daemon.processIdentifier, SIGSTOP) } }
            defer {
                if othersStopped { for machine in others { kill(machine.daemon.processIdentifier, SIGCONT) } }
            }
            var inCircle: [Double] = []
            var alone: [Double] = []
            for round in 0..<5 {
                for (machine, rates) in [(a, 0), (plain, 1)] {
                    let sample = Device.withCurrent(machine.device) {
                        Sample.measure(writes) {
                            add(
                                "sync-bench-write-\(synchronizable)-\(othersStopped)-\(round)-\($0)",
                                index: $0,
                                synchronizable: synchronizable
                            )
                        }
                    }
                    if rates == 0 {
                        inCircle.append(sample.operationsPerSecond)
                    } else {
                        alone.append(sample.operationsPerSecond)
                    }
                }
            }
            let median = { (rates: [Double]) in rates.sorted()[rates.count / 2] }
            let phase =
                switch (synchronizable, othersStopped) {
                case (false, _): "SecItemAdd in a circle ÷ in none"
                case (true, false): "SecItemAdd of synchronizable items in a circle ÷ in none"
                case (true, true):
                    "SecItemAdd of synchronizable items in a circle ÷ in none, other devices' daemons stopped"
                }
            log.record(
                Self.subject,
                phase,
                size: writes,
                value: median(inCircle) / median(alone),
                unit: "x",
                extra: ["in_circle_ops_per_s": median(inCircle), "alone_ops_per_s": median(alone)]
            )
        }
    }

    // MARK: Devices

    private func machine(_ name: String) throws -> Machine {
        let home = directory.appendingPathComponent("sync-\(name)", isDirectory: true)
        let socket = directory.appendingPathComponent("sync-\(name).socket").path
        try? FileManager.default.removeItem(at: home)
        let daemon = try DaemonRun.startDaemon(home: home, socket: socket)
        let device = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none, engine: .daemon, daemonSocket: socket)
        )
        return Machine(home: home, socket: socket, daemon: daemon, device: device)
    }

    private func stopDaemon(_ machine: Machine) {
        machine.daemon.terminate()
        machine.daemon.waitUntilExit()
        try? FileManager.default.removeItem(at: machine.home)
    }

    private func join(_ machine: Machine, approvedBy approver: Machine) throws {
        let asked = try security(["sync", "join", "--server", server, "--no-wait"], on: machine)
        guard let line = asked.split(separator: "\n").first(where: { $0.contains("approve") }),
            let code = line.split(separator: " ").last
        else { throw SyncRunError() }
        try security(["sync", "approve", String(code)], on: approver)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if try security(["sync", "status"], on: machine).hasPrefix("circle ") { return }
            usleep(100_000)
        }
        throw SyncRunError()
    }

    private func waitUntilSent(_ machine: Machine) throws {
        let deadline = Date().addingTimeInterval(300)
        while Date() < deadline {
            if try security(["sync", "status"], on: machine).contains("pending changes: 0") { return }
            usleep(200_000)
        }
        throw SyncRunError()
    }

    @discardableResult
    private func security(_ arguments: [String], on machine: Machine) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("security")
        process.arguments = arguments + ["--keychain", machine.home.path]
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_PROMPT"] = "none"
        environment["KEYCHAIN_ENGINE"] = "daemon"
        environment["KEYCHAIN_SOCKET"] = machine.socket
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw SyncRunError() }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Items

    private func add(_ service: String, index: Int, synchronizable: Bool = true) -> Bool {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "user\(index)@example.invalid",
            kSecAttrSynchronizable as String: synchronizable,
            kSecValueData as String: Data(repeating: UInt8(truncatingIfNeeded: index), count: 64),
        ]
        return SecItemAdd(query as CFDictionary, nil) == errSecSuccess
    }

    private func has(_ service: String) -> Bool {
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            kSecMatchLimit as String: kSecMatchLimitOne,
        ]
        return SecItemCopyMatching(query as CFDictionary, nil) == errSecSuccess
    }

    private func count() -> Int {
        ItemOperations.attributes(matching: [kSecAttrSynchronizable as String: true])
    }
}

/// The circle could not be made: a `security sync` command failed or a device was never let in.
struct SyncRunError: Error, CustomStringConvertible {
    var description: String { "a security sync command failed (is PostgreSQL reachable at --server?)" }
}
