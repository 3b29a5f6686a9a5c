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
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        // Nothing else of this process goes to the daemon: an inherited pipe or socket would keep
        // whoever waits on it for end-of-file (the parent of a `security` command) waiting for
        // as long as the daemon lives.
        if let closeFrom = Self.closeFrom {
            _ = closeFrom(&actions, 3)
        }
        // POSIX_SPAWN_SETSID (glibc and musl; the header hides it without _GNU_SOURCE): a session of its own.
        posix_spawnattr_setflags(&attributes, 0x80)
        var cArguments = arguments.map { strdup($0) } + [nil]
        defer { for argument in cArguments { free(argument) } }
        var processID: pid_t = 0
        let result = posix_spawn(&processID, executable, &actions, &attributes, &cArguments, environ)
        guard result == 0 else {
            throw KeychainCoreError(.notAvailable, "cannot start the keychain daemon \(executable): \(String(cString: strerror(result)))")
        }
        // Reap it in the background if it exits at once (another daemon holds the lock).
        let spawned = processID
        Thread.detachNewThread { _ = waitpid(spawned, nil, 0) }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its headers
    /// declare only under `_GNU_SOURCE`; `nil` where the C library lacks it.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
    }()

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
