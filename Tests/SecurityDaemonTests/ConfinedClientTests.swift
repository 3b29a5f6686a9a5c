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

/// Issue 34, finding 1: a daemon as confined as a sandbox (the shipped unit's `NoNewPrivileges=` and
/// system-call filters) must not take a sandboxed, non-dumpable app for an unsandboxed program.
///
/// As another user than root: root's daemon sees into every process's root and never needs to
/// judge by confinement.
@Suite(
    .enabled(if: SandboxConfinement.isAvailable, "python3 confines the processes"),
    .enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run the daemon as another user")
)
struct ConfinedClientTests {
    static let user: UInt32 = 65534

    /// `security arguments…` as the daemon's user, confined as a sandbox confines an app or not.
    static func tool(_ arguments: [String], confined: Bool, of daemon: PrivateDaemon) throws -> ProgramOutput {
        let tool = SecurityToolRunner.executable
        let command = confined ? SandboxConfinement.command(tool, arguments) : [tool.path] + arguments
        return try ProgramRun.run(
            URL(filePath: "/usr/bin/setpriv"),
            ["--reuid=\(user)", "--regid=\(user)", "--clear-groups"] + command,
            environment: daemon.clientEnvironment(starting: false)
        )
    }

    @Test func aConfinedDaemonStillTellsAConfinedHardenedClientFromTheUsersPrograms() throws {
        let daemon = try PrivateDaemon(user: Self.user, confined: true)
        defer { _ = daemon.stop() }
        let add = ["add-generic-password", "-s", "Mail", "-a", "me", "-w", "not for apps"]
        let added = try Self.tool(add, confined: false, of: daemon)
        #expect(added.status == 0, "\(added.stderr)")

        // The user's own program (unconfined, non-dumpable like every `security`) reads it.
        let own = try Self.tool(["find-generic-password", "-s", "Mail", "-w"], confined: false, of: daemon)
        #expect(own.status == 0 && own.stdout == "not for apps\n", "\(own.stderr)")

        // The same tool run as a sandbox runs an app: no_new_privs, a seccomp filter, non-dumpable
        // (the tool hardens itself, as the README tells apps to). The daemon cannot see its root, so
        // it judges it by its confinement against the machine's, not against its own: nothing.
        let app = try Self.tool(["find-generic-password", "-s", "Mail", "-w"], confined: true, of: daemon)
        #expect(app.status != 0)
        #expect(!app.stdout.contains("not for apps"))
        #expect(!app.stderr.contains("not for apps"))
    }
}
