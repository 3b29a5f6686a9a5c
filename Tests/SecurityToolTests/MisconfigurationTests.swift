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
import KeychainTestSupport
import Testing

/// A setting that names the keychain wrongly is an error naming the setting — never another
/// keychain (one in the current folder, the user's own) and never "item not found".
@Suite struct MisconfigurationTests {
    /// Runs the tool in `directory` with exactly `environment` (and `PATH`).
    static func run(
        _ arguments: [String],
        in directory: URL,
        environment: [String: String],
        input: String = ""
    ) throws -> SecurityToolRunner.Output {
        var environment = environment
        environment["PATH"] = ProcessInfo.processInfo.environment["PATH"]
        environment["HOME"] = directory.path
        environment["XDG_RUNTIME_DIR"] = directory.appendingPathComponent("runtime").path
        let process = ["/usr/bin/env", "-C", directory.path, SecurityToolRunner.executable.path] + arguments
        return try SecurityToolRunner.runProgram(
            process[0],
            Array(process.dropFirst()),
            environment: environment,
            input: input
        )
    }

    static func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("misconfigured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(arguments: ["embedded", "auto"])
    func aRelativeKeychainHomeIsRefused(engine: String) throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let environment = ["KEYCHAIN_HOME": "keychain", "KEYCHAIN_ENGINE": engine]
        let message = "KEYCHAIN_HOME is the relative path \"keychain\"; name it by an absolute path"
        let added = try Self.run(
            ["add-generic-password", "-a", "me", "-s", "Relative", "-w", "x"],
            in: folder,
            environment: environment
        )
        #expect(added.status == 1)
        #expect(added.stderr.contains(message))
        let found = try Self.run(["find-generic-password", "-s", "Relative"], in: folder, environment: environment)
        #expect(found.status == 1 && found.stderr.contains(message))
        // Nothing was made in the current folder.
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("keychain").path))
    }

    @Test func anAbsentNamedSocketIsRefusedNotReplacedByTheFiles() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = folder.appendingPathComponent("home")
        let socket = folder.appendingPathComponent("nowhere.socket").path
        let message = "KEYCHAIN_SOCKET names \(socket), where no securityd listens"

        // The default keychain, served by a socket that is not there.
        var output = try Self.run(
            ["find-generic-password", "-s", "Any"],
            in: folder,
            environment: ["KEYCHAIN_SOCKET": socket]
        )
        #expect(output.status == 1 && output.stderr.contains(message))
        output = try Self.run(
            ["add-generic-password", "-a", "me", "-s", "Any", "-w", "x"],
            in: folder,
            environment: ["KEYCHAIN_SOCKET": socket]
        )
        #expect(output.status == 1 && output.stderr.contains(message))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".local").path))

        // With a home too: the home's files are not opened in the daemon's stead.
        output = try Self.run(
            ["add-generic-password", "-a", "me", "-s", "Any", "-w", "x"],
            in: folder,
            environment: ["KEYCHAIN_SOCKET": socket, "KEYCHAIN_HOME": home.path]
        )
        #expect(output.status == 1 && output.stderr.contains(message))
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("keychain.db").path))
    }

    /// Root reads every folder, so the tool runs as another user here.
    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run as another user"))
    func anUnreadableKeychainFolderIsReportedNotEmpty() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let user: UInt32 = 65534
        chmod(folder.path, 0o755)
        let home = folder.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: false)
        chown(home.path, user, user)
        let setpriv = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", SecurityToolRunner.executable.path]
        let environment = [
            "KEYCHAIN_HOME": home.path, "KEYCHAIN_ENGINE": "embedded", "HOME": folder.path,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
        let added = try SecurityToolRunner.runProgram(
            "/usr/bin/setpriv",
            setpriv + ["add-generic-password", "-a", "me", "-s", "Folder", "-w", "x"],
            environment: environment
        )
        #expect(added.status == 0)
        chmod(home.path, 0)
        defer { chmod(home.path, 0o700) }
        let found = try SecurityToolRunner.runProgram(
            "/usr/bin/setpriv",
            setpriv + ["find-generic-password", "-s", "Folder"],
            environment: environment
        )
        #expect(found.status == 1)
        #expect(found.stderr.contains("cannot open the keychain at \(home.path) (KEYCHAIN_HOME)"))
        #expect(found.stderr.contains("Permission denied"))
        #expect(!found.stderr.contains("could not be found"))
    }
}
