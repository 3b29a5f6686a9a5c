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

/// Where `securityd` listens for a keychain home.
///
/// `KEYCHAIN_SOCKET` names the socket outright. Otherwise it lies in `$XDG_RUNTIME_DIR/swift-keychain/`
/// (`/tmp/swift-keychain-<uid>/` without a runtime directory), a folder only the user can enter:
/// `socket` for the default home, `home-<hash of its path>.socket` for any other, so that each
/// keychain home has its own daemon.
package struct DaemonEndpoint: Hashable, Sendable {
    /// The socket's path.
    package var socketPath: String

    /// The folder that holds the socket; the daemon creates it with mode 0700.
    package var directory: String { (socketPath as NSString).deletingLastPathComponent }

    /// The lock file whose holder is the one daemon of this socket; it holds the daemon's process ID.
    package var lockPath: String { socketPath + ".lock" }

    /// The log of a daemon a client started (`security daemon log` prints it); a daemon a service
    /// manager runs logs where it says (the journal).
    package var logPath: String { socketPath + ".log" }

    package init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// The endpoint of the daemon that serves `home`.
    package static func forHome(
        _ home: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> DaemonEndpoint {
        if let socket = environment["KEYCHAIN_SOCKET"], !socket.isEmpty {
            return DaemonEndpoint(socketPath: URL(fileURLWithPath: socket).standardizedFileURL.path)
        }
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let directory = runtime.map { $0 + "/swift-keychain" } ?? "/tmp/swift-keychain-\(getuid())"
        let path = home.standardizedFileURL.path
        let name = isStandardHome(home, environment: environment) ? "socket" : "home-\(Self.hash(path)).socket"
        return DaemonEndpoint(socketPath: directory + "/" + name)
    }

    /// Whether `home` is the user's standard keychain home (where it is without `KEYCHAIN_HOME`):
    /// the one whose daemon runs for the session; any other home's daemon, started for a
    /// program or a test, exits when it has been idle a while.
    package static func isStandardHome(
        _ home: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Bool {
        let standard = KeychainHome.resolve(environment: environment.filter { $0.key != "KEYCHAIN_HOME" })
        return home.standardizedFileURL.path == standard.url.standardizedFileURL.path
    }

    // MARK: System mode

    /// Where a system-mode daemon (`securityd --system`) listens for every user.
    package static let systemSocketPath = "/run/swift-keychain/socket"
    /// The account a system-mode daemon runs as.
    package static let systemUserName = "swift-keychain"

    /// The system daemon, when it serves the session's keychain: it is installed (its socket
    /// exists) and the user named no home and no socket of their own.
    package static func system(environment: [String: String] = ProcessInfo.processInfo.environment) -> DaemonEndpoint? {
        guard environment["KEYCHAIN_HOME"] == nil, environment["KEYCHAIN_SOCKET"] == nil,
            FileManager.default.fileExists(atPath: systemSocketPath)
        else { return nil }
        return DaemonEndpoint(socketPath: systemSocketPath)
    }

    /// The socket the environment names for the session's keychain: `KEYCHAIN_SOCKET`, else the
    /// system daemon's when it serves; `nil` for the home's own daemon.
    ///
    /// A named socket is never started by a client, and its daemon keeps files of its own.
    package static func named(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        environment["KEYCHAIN_SOCKET"].flatMap { $0.isEmpty ? nil : $0 } ?? system(environment: environment)?.socketPath
    }

    /// The users a client trusts to serve it: itself, root, and the system daemon's account.
    package static func isTrustedServer(_ userID: UInt32) -> Bool {
        if userID == getuid() || userID == 0 { return true }
        guard let account = getpwnam(systemUserName) else { return false }
        return account.pointee.pw_uid == userID
    }

    /// FNV-1a of a path, in hexadecimal: a name, not a secret (the folder is the user's alone).
    private static func hash(_ path: String) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 {
            value ^= UInt64(byte)
            value &*= 0x100_0000_01b3
        }
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
