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

package import Foundation
package import KeychainCore

/// Starts `securityd` for a keychain home when a client finds none listening, as gpg-agent is
/// started on first use where no service manager does it.
///
/// The daemon is found at `KEYCHAIN_SECURITYD`, else beside the running program, else on `PATH`.
/// It runs in a session of its own with no terminal, logs to ``DaemonEndpoint/logPath`` beside
/// its socket, and takes nothing from the client's environment that could weaken it
/// (``daemonEnvironment(from:)``): its settings come from its own configuration file. A daemon
/// for any home but the standard one exits after ``idleExit`` seconds without clients (its
/// keychain then locks, as after a restart): homes made for a program or a test leave no daemon
/// behind. Two clients starting it at once are harmless: the daemon that does not get the
/// socket's lock exits.
package struct DaemonLauncher: Sendable {
    /// The keychain home the daemon serves.
    package var home: URL
    /// The daemon's executable.
    package var executable: String

    /// A launcher for `home`, or `nil` when no `securityd` can be found.
    package init?(home: URL, environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let executable = Self.locate(environment: environment) else { return nil }
        self.home = home
        self.executable = executable
    }

    /// Starts the daemon for `endpoint` and waits until it listens, or reports why it cannot
    /// serve the keychain (thrown here, as the keychain would throw it in this process), or exits
    /// because another daemon was quicker.
    package func start(endpoint: DaemonEndpoint, timeout: Duration) throws(KeychainError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw KeychainError(.notAvailable, "cannot start the keychain daemon: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        var arguments = [
            executable, "--keychain", home.path, "--socket", endpoint.socketPath, "--ready-fd", "3", "--log-file",
            endpoint.logPath,
        ]
        if !DaemonEndpoint.isStandardHome(home) {
            arguments += ["--exit-when-idle", "\(Self.idleExit)"]
        }
        // Nothing of this process but its environment and the report pipe goes to the daemon
        // (``Spawner``), and the daemon runs in a session of its own.
        let spawned = Spawner.spawn(
            executable,
            arguments: arguments,
            environment: Self.daemonEnvironment(from: ProcessInfo.processInfo.environment),
            streams: [.null, .null, .null, .descriptor(ends[1])],
            newSession: true
        )
        close(ends[1])
        switch spawned {
        case .failure(let failure):
            close(ends[0])
            throw KeychainError(
                .notAvailable,
                "cannot start the keychain daemon \(executable): \(String(cString: strerror(failure.code)))"
            )
        case .success(let processID):
            // Reap it in the background when it exits (another daemon held the lock, or it failed).
            Thread.detachNewThread { Spawner.wait(for: processID) }
        }
        if case .failed(let error) = DaemonReadiness.receive(from: ends[0], timeout: timeout) {
            throw error
        }
    }

    /// The variables a daemon started by this client runs with.
    ///
    /// Where the user is, their language, and a lock sooner than configured; a fixed `PATH`. Never
    /// the loader's (`LD_PRELOAD` would put the client's code into the process that holds the
    /// keys), the prompter, the passcode cost or the buses, whose servers the daemon trusts.
    static func daemonEnvironment(from environment: [String: String]) -> [String] {
        var kept = ["PATH": "/usr/local/bin:/usr/bin:/bin"]
        for (name, value) in environment
        where passedVariables.contains(name) || (name.hasPrefix("LC_") && name.count <= 32) {
            kept[name] = value
        }
        return kept.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    }

    /// The variables ``daemonEnvironment(from:)`` passes as they are.
    static let passedVariables: Set<String> = [
        "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "XDG_RUNTIME_DIR", "KEYCHAIN_AUTO_LOCK",
    ]

    /// Seconds without clients after which a daemon for a home other than the standard one exits.
    package static let idleExit = 600

    /// The `securityd` to start; `nil` if there is none.
    static func locate(environment: [String: String]) -> String? {
        if let path = environment["KEYCHAIN_SECURITYD"], !path.isEmpty {
            return access(path, X_OK) == 0 ? path : nil
        }
        var candidates: [String] = []
        if let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((program as NSString).deletingLastPathComponent + "/securityd")
        }
        for directory in (environment["PATH"] ?? "/usr/local/bin:/usr/bin").split(separator: ":")
        where directory.hasPrefix("/") {
            candidates.append(directory + "/securityd")
        }
        return candidates.first { access($0, X_OK) == 0 }
    }
}
