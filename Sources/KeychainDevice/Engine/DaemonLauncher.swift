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
/// It runs in a session of its own with no terminal and its output discarded, and inherits the
/// client's environment (the passcode cost and the prompt). Two clients starting it at once are
/// harmless: the daemon that does not get the socket's lock exits.
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

    /// Starts the daemon for `endpoint` and returns without waiting for it to listen.
    package func start(endpoint: DaemonEndpoint) throws(KeychainCoreError) {
        let arguments = [executable, "--keychain", home.path, "--socket", endpoint.socketPath]
        // Nothing of this process but its environment goes to the daemon (``Spawner``), and the
        // daemon runs in a session of its own.
        switch Spawner.spawn(executable, arguments: arguments, newSession: true) {
        case .failure(let failure):
            throw KeychainCoreError(.notAvailable, "cannot start the keychain daemon \(executable): \(String(cString: strerror(failure.code)))")
        case .success(let spawned):
            // Reap it in the background if it exits at once (another daemon holds the lock).
            Thread.detachNewThread { Spawner.wait(for: spawned) }
        }
    }

    /// The `securityd` to start; `nil` if there is none.
    static func locate(environment: [String: String]) -> String? {
        if let path = environment["KEYCHAIN_SECURITYD"], !path.isEmpty {
            return access(path, X_OK) == 0 ? path : nil
        }
        var candidates: [String] = []
        if let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((program as NSString).deletingLastPathComponent + "/securityd")
        }
        for directory in (environment["PATH"] ?? "/usr/local/bin:/usr/bin").split(separator: ":") where directory.hasPrefix("/") {
            candidates.append(directory + "/securityd")
        }
        return candidates.first { access($0, X_OK) == 0 }
    }
}
