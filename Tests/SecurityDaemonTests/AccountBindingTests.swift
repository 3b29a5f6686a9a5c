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

/// A system-mode keychain belongs to an account, not to a number (issue 34, finding 3): after an
/// account is deleted and another made with its uid, the new account got the old one's secrets
/// from the daemon, which even kept them unlocked, and could guess the old passcode.
@Suite(
    .serialized,
    .enabled(if: ThrowawayUser.unavailableReason == nil && PrivateDaemon.canSwitchUsers, "needs root and useradd")
)
struct AccountBindingTests {
    typealias SystemDaemon = SystemDaemonTests.SystemDaemon

    /// `securityd --system` on the daemon's state folder with `arguments`: its status and output.
    static func administer(_ daemon: SystemDaemon, _ arguments: [String]) throws -> ProgramOutput {
        try ProgramRun.run(
            PrivateDaemon.executable,
            ["--system", "--state-directory", daemon.state.path] + arguments,
            input: nil
        )
    }

    @Test func aReusedUidDoesNotInheritTheDeletedAccountsKeychain() throws {
        let first = try #require(ThrowawayUser.make("gone"))
        let uid = first.uid
        let daemon = try SystemDaemon(users: [uid])
        defer { daemon.stop() }
        #expect(
            try daemon.tool(uid, ["add-generic-password", "-a", "b", "-s", "Mail", "-w", "b's secret"]).status == 0
        )
        #expect(try daemon.tool(uid, ["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(try daemon.tool(uid, ["find-generic-password", "-s", "Mail", "-w"]).stdout == "b's secret\n")

        // The account goes; another is made with its uid while the daemon holds it unlocked.
        let firstName = first.name
        first.delete()
        let second = try #require(ThrowawayUser.make("reuse", uid: uid))
        // The daemon looks an account up at most once a second (SystemKeychains.accountCheckInterval).
        Thread.sleep(forTimeInterval: 1.1)
        let read = try daemon.tool(uid, ["find-generic-password", "-s", "Mail", "-w"])
        #expect(read.status != 0 && read.stdout.isEmpty)
        #expect(read.stderr.contains("belongs to the account \(firstName), not to \(second.name)"), "\(read.stderr)")
        // Nor may it guess the old passcode: nothing is tried.
        let unlock = try daemon.tool(uid, ["unlock"], input: "2468\n")
        #expect(unlock.status != 0 && unlock.stderr.contains("--remove-keychain \(uid)"), "\(unlock.stderr)")

        // The administrator sees whose it was, and removes it; the new account starts afresh.
        let list = try Self.administer(daemon, ["--list-keychains"])
        #expect(list.status == 0)
        #expect(list.stdout.contains("\(uid)\trefused: kept for \(firstName) (home "), "\(list.stdout)")
        #expect(list.stdout.contains("the uid is now \(second.name)"))
        let removed = try Self.administer(daemon, ["--remove-keychain", "\(uid)"])
        #expect(removed.status == 0, "\(removed.stderr)")
        let fresh = try daemon.tool(uid, ["find-generic-password", "-s", "Mail", "-w"])
        #expect(fresh.status == 44 && fresh.stdout.isEmpty, "\(fresh.stderr)")
        #expect(try daemon.tool(uid, ["add-generic-password", "-a", "c", "-s", "Mail", "-w", "c's"]).status == 0)
        // A keychain its account uses is not removed.
        let refused = try Self.administer(daemon, ["--remove-keychain", "\(uid)"])
        #expect(refused.status != 0 && refused.stderr.contains("who uses it"))
    }

    @Test func aRenamedAccountGetsItsKeychainBackWhenAnAdministratorAdoptsIt() throws {
        let user = try #require(ThrowawayUser.make("rename"))
        let daemon = try SystemDaemon(users: [user.uid])
        defer { daemon.stop() }
        #expect(
            try daemon.tool(user.uid, ["add-generic-password", "-s", "Kept", "-a", "me", "-w", "kept"]).status == 0
        )
        #expect(try daemon.tool(user.uid, ["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(user.rename(to: "kcrenamed\(UInt16.random(in: 0...UInt16.max))"))
        Thread.sleep(forTimeInterval: 1.1)
        // Another name: the daemon cannot know it is the same person, and refuses.
        #expect(try daemon.tool(user.uid, ["find-generic-password", "-s", "Kept", "-w"]).status != 0)
        let adopted = try Self.administer(daemon, ["--adopt-keychain", "\(user.uid)"])
        #expect(adopted.status == 0 && adopted.stdout.contains("now belongs to \(user.name)"), "\(adopted.stderr)")
        // What the old name unlocked was locked when the account changed: the passcode again.
        #expect(try daemon.tool(user.uid, ["find-generic-password", "-s", "Kept", "-w"]).status == 36)
        #expect(try daemon.tool(user.uid, ["unlock"], input: "2468\n").status == 0)
        #expect(try daemon.tool(user.uid, ["find-generic-password", "-s", "Kept", "-w"]).stdout == "kept\n")
    }
}
