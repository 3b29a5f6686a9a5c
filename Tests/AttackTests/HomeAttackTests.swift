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
import KeychainEngine
import KeychainTestSupport
import Testing

@testable import KeychainDevice

#if canImport(Glibc)
import Glibc
#endif

/// Finding 3 (a home someone else created or can write), and the reporting commands that must not
/// create one (finding 8).
@Suite struct HomeAttackTests {
    /// A home others can write is refused with its path and what is wrong; nothing is stored in it.
    @Test func aHomeOthersCanWriteIsRefused() throws {
        let home = Attacker.newHome("world-writable")
        defer { Attacker.remove(home) }
        #expect(
            try Tool(home: home).run(["add-generic-password", "-a", "a", "-s", "planted", "-w", "old"]).status == 0
        )
        chmod(home.path, 0o777)
        let output = try Tool(home: home).run(["add-generic-password", "-a", "a", "-s", "victim", "-w", "secret"])
        #expect(output.status != 0)
        #expect(
            output.stderr.contains(home.path) && output.stderr.contains("other users")
                && output.stderr.contains("mode 777"),
            "\(output.stderr)"
        )
        chmod(home.path, 0o700)
        #expect(try Tool(home: home).run(["find-generic-password", "-s", "victim", "-w"]).status == 44)
    }

    /// User B makes a keychain home and opens it to everyone; user A, pointed at it, stores
    /// nothing there, and B reads nothing back. (Needs root for throw-away users.)
    @Test func anotherUsersHomeIsRefused() throws {
        guard let attacker = ThrowawayUser.make("attack"), let victim = ThrowawayUser.make("victim") else { return }
        let home = Attacker.newHome("other-user")
        defer { Attacker.remove(home) }
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700]
        )
        attacker.own(home)
        #expect(
            try Tool(home: home, user: attacker).run(["add-generic-password", "-a", "a", "-s", "bait", "-w", "bait"])
                .status == 0
        )
        chmod(home.path, 0o777)
        for mode: mode_t in [0o777, 0o700] {
            chmod(home.path, mode)
            let output = try Tool(home: home, user: victim).run([
                "add-generic-password", "-a", "a", "-s", "victim", "-w", "victim secret",
            ])
            #expect(output.status != 0, "mode \(String(mode, radix: 8))")
            #expect(output.stderr.contains(home.path), "\(output.stderr)")
        }
        chmod(home.path, 0o700)
        let readBack = try Tool(home: home, user: attacker).run(["find-generic-password", "-s", "victim", "-w"])
        #expect(readBack.status == 44 && !readBack.stdout.contains("victim secret"))
    }

    /// A planted `keychain.db` link is never followed: a missing target is not created, an existing
    /// one keeps its mode.
    @Test func aPlantedDatabaseLinkIsNotFollowed() throws {
        let home = Attacker.newHome("link")
        let target = Attacker.newHome("link-target")
        defer { Attacker.remove(home, target) }
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700]
        )
        let missing = target.appendingPathComponent("missing.db")
        try FileManager.default.createSymbolicLink(
            at: home.appendingPathComponent("keychain.db"),
            withDestinationURL: missing
        )
        var output = try Tool(home: home).run(["add-generic-password", "-a", "a", "-s", "s", "-w", "w"])
        #expect(output.status != 0 && output.stderr.contains("symbolic link"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing.path))

        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        let existing = target.appendingPathComponent("existing.db")
        try Data("not yours".utf8).write(to: existing)
        chmod(existing.path, 0o644)
        try FileManager.default.removeItem(at: home.appendingPathComponent("keychain.db"))
        try FileManager.default.createSymbolicLink(
            at: home.appendingPathComponent("keychain.db"),
            withDestinationURL: existing
        )
        output = try Tool(home: home).run(["add-generic-password", "-a", "a", "-s", "s", "-w", "w"])
        #expect(output.status != 0)
        let mode = try FileManager.default.attributesOfItem(atPath: existing.path)[.posixPermissions] as? Int
        #expect(mode == 0o644)
        #expect(try Data(contentsOf: existing) == Data("not yours".utf8))
    }

    /// A new home and the directories above it are created with mode 0700 from the start, whatever
    /// the umask; its files are 0600.
    @Test func aNewHomeIsPrivateFromTheStart() throws {
        let base = Attacker.newHome("private")
        defer { Attacker.remove(base) }
        let home = base.appendingPathComponent("nested/keychain")
        let process = Tool(home: home).process(["add-generic-password", "-a", "a", "-s", "s", "-w", "w"])
        let command = ([process.executableURL?.path ?? ""] + (process.arguments ?? [])).map { "'\($0)'" }.joined(
            separator: " "
        )
        process.arguments = ["-c", "umask 000; exec \(command)"]
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        for directory in [base, base.appendingPathComponent("nested"), home] {
            let mode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int
            #expect(mode == 0o700, "\(directory.path)")
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: home.path) {
            let mode =
                try FileManager.default.attributesOfItem(atPath: home.appendingPathComponent(name).path)[
                    .posixPermissions
                ] as? Int
            #expect(mode == 0o600, "\(name)")
        }
    }

    /// Relative `XDG_DATA_HOME` and `HOME` are ignored, as the XDG specification says.
    @Test func relativeEnvironmentPathsAreIgnored() {
        let fromXDG = KeychainHome.resolve(environment: ["XDG_DATA_HOME": "relative/data", "HOME": "/home/someone"])
        #expect(fromXDG.url.path == "/home/someone/.local/share/swift-keychain")
        let fromHome = KeychainHome.resolve(environment: ["HOME": "relative-home"])
        #expect(fromHome.url.path.hasPrefix("/"))
        #expect(!fromHome.url.path.contains("relative-home"))
        let absolute = KeychainHome.resolve(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/someone"])
        #expect(absolute.url.path == "/data/swift-keychain")
    }

    /// Commands that only look create nothing: no keychain, no directory.
    @Test(arguments: [
        ["status"], ["find-generic-password", "-s", "x", "-w"], ["find-internet-password", "-s", "x"],
        ["delete-generic-password", "-s", "x"], ["dump-keychain"], ["lock"], ["unlock"], ["biometry", "status"],
    ])
    func reportingCommandsCreateNothing(_ arguments: [String]) throws {
        let home = Attacker.newHome("report")
        defer { Attacker.remove(home) }
        let output = try Tool(home: home).run(arguments)
        #expect(output.status == 0 || output.status == 44, "\(arguments): \(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.path), "\(arguments) created \(home.path)")
    }
}
