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

/// The `securityd` of a harness run with `--through-daemon`: the crash harness starts one for each
/// round and SIGKILLs it in the middle of the worker's writes; the concurrency harness sends every
/// process's calls to one.
struct StressDaemon {
    let executable: URL
    /// The harness's private folder.
    let folder: URL
    /// The keychain home, in the harness's private folder.
    let home: URL
    let socket: String

    /// The `securityd` beside this program, for a home and a socket in `folder` (private).
    init(folder: URL) throws {
        executable = ChildProcess.executable.deletingLastPathComponent().appendingPathComponent("securityd")
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw StressError(
                "--through-daemon needs securityd beside keychain-stress (swift build --product securityd)"
            )
        }
        self.folder = folder
        home = folder.appendingPathComponent("home")
        socket = folder.appendingPathComponent("socket").path
    }

    /// The daemon's configuration: test keychains' passcode cost, no pinentry.
    private func settingsFile() throws -> String {
        let file = folder.appendingPathComponent("securityd.conf")
        try Data("passcode-cost = testing\npinentry = none\n".utf8).write(to: file)
        guard chmod(file.path, 0o600) == 0 else { throw StressError("cannot write \(file.path)") }
        return file.path
    }

    /// Starts a daemon on the home and waits until it answers.
    func start() throws -> Process {
        let daemon = try ChildProcess.start(
            executable,
            ["--keychain", home.path, "--socket", socket, "--config", try settingsFile()],
            environment: ["KEYCHAIN_PROMPT": "none"],
            quiet: true
        )
        let engine = WireEngine(
            transport: DaemonTransport(endpoint: DaemonEndpoint(socketPath: socket), launcher: nil),
            prompt: .none
        )
        // A daemon that exits ends the wait sooner; a machine busy with tests may take minutes.
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline {
            if (try? engine.lockState()) != nil { return daemon }
            guard daemon.isRunning else { throw StressError("securityd exited at start (\(daemon.terminationStatus))") }
            ChildProcess.sleep(milliseconds: 5)
        }
        _ = ChildProcess.terminate(daemon)
        throw StressError("securityd did not answer within 180 s")
    }

    /// The worker's arguments that send its keychain calls to this daemon.
    var workerArguments: [String] { ["--socket", socket] }

    /// The environment that sends the `security` tool's calls to this daemon.
    var toolEnvironment: [String: String] { ["KEYCHAIN_ENGINE": "daemon", "KEYCHAIN_SOCKET": socket] }

    /// Stops a daemon as systemd does (SIGTERM), waiting for it.
    static func stop(_ daemon: Process) {
        daemon.terminate()
        daemon.waitUntilExit()
    }
}
