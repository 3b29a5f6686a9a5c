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
import KeychainTestSupport
import Testing

@testable import KeychainDevice
@testable import SecurityDaemon

/// The daemon's settings come from its own configuration file, never from the environment of the
/// program that started it (issue 34, finding 2): a same-user program that started `securityd`
/// chose its prompter (and received the next passcode), a 64× cheaper passcode KDF, the system
/// bus that answers for fprintd, and code loaded into the process that holds the class keys.
@Suite struct DaemonSettingsTests {
    @Test func aClientThatStartsTheDaemonPassesItNothingThatWeakensIt() throws {
        let root = URL(fileURLWithPath: "/tmp/kc-env-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        // The home's own configuration names no prompter and leaves the passcode cost standard.
        try PrivateDaemon.writeSettings([:], to: home.appendingPathComponent("securityd.conf"))
        let hostile = root.appendingPathComponent("hostile")
        try FileManager.default.createDirectory(at: hostile, withIntermediateDirectories: true)
        let capture = hostile.appendingPathComponent("pinentry")
        try Data("#!/bin/sh\ncat > \(hostile.path)/captured\n".utf8).write(to: capture)
        _ = chmod(capture.path, 0o755)

        var environment = DaemonTests.runtimeEnvironment(root: root)
        environment["KEYCHAIN_PINENTRY"] = capture.path
        environment["KEYCHAIN_PASSCODE_COST"] = "testing"
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=\(hostile.path)/bus"
        environment["LD_AUDIT"] = hostile.appendingPathComponent("audit.so").path
        environment["PATH"] = hostile.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let tool = SecurityToolRunner(home: home)
        let set = try tool.run(["passcode", "set"], input: "2468\n2468\n", environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        let endpoint = DaemonEndpoint.forHome(home, environment: environment)
        let lock = try String(contentsOfFile: endpoint.lockPath, encoding: .utf8)
        let processID = try #require(Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(processID, SIGTERM) }

        // None of it reached the daemon's environment; its PATH is the system's.
        let variables = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(processID)/environ"))
            .split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        #expect(!variables.contains { $0.contains(hostile.path) })
        for name in [
            "KEYCHAIN_PINENTRY", "KEYCHAIN_PASSCODE_COST", "DBUS_SYSTEM_BUS_ADDRESS", "LD_AUDIT", "LD_PRELOAD",
        ] {
            #expect(!variables.contains { $0.hasPrefix(name + "=") }, "\(name)")
        }
        #expect(variables.contains("PATH=/usr/local/bin:/usr/bin:/bin"))

        // The passcode got the standard cost: a process that accepts nothing cheaper unlocks it.
        kill(processID, SIGTERM)
        let deadline = Date().addingTimeInterval(60)
        while kill(processID, 0) == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        var embedded = environment
        embedded["KEYCHAIN_ENGINE"] = "embedded"
        embedded["KEYCHAIN_PASSCODE_COST"] = nil
        let unlock = try tool.run(["unlock"], input: "2468\n", environment: embedded)
        #expect(unlock.status == 0, "\(unlock.stderr)")
        #expect(!FileManager.default.fileExists(atPath: hostile.appendingPathComponent("captured").path))
    }

    @Test(arguments: [
        ("pinentry = /tmp/x\n", 0o666 as mode_t, "is writable by other accounts"),
        ("pinentry = /tmp/x\n", 0o620 as mode_t, "is writable by other accounts"),
        ("passcode-cost = cheap\n", 0o600 as mode_t, "line 1: passcode-cost must be standard or testing"),
        ("# comment\n\nprompter = /tmp/x\n", 0o600 as mode_t, "line 3: unknown setting prompter"),
    ])
    func aDaemonRefusesToStartOnAConfigurationItCannotTrust(text: String, mode: mode_t, problem: String) throws {
        let root = URL(fileURLWithPath: "/tmp/kc-conf-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let file = home.appendingPathComponent("securityd.conf")
        try Data(text.utf8).write(to: file)
        _ = chmod(file.path, mode)
        let run = try SecurityToolRunner(home: home).run(
            ["add-generic-password", "-a", "me", "-s", "Refused", "-w", "x"],
            environment: DaemonTests.runtimeEnvironment(root: root)
        )
        #expect(run.status != 0)
        #expect(run.stderr.contains("\(file.path) \(problem)"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("keychain.db").path))
    }

    @Test func theLauncherKeepsOnlyVariablesThatCannotWeakenTheDaemon() {
        let kept = DaemonLauncher.daemonEnvironment(from: [
            "HOME": "/home/me", "LANG": "C.UTF-8", "LC_TIME": "C", "XDG_RUNTIME_DIR": "/run/user/1000",
            "KEYCHAIN_AUTO_LOCK": "60", "PATH": "/tmp/evil:/usr/bin", "LD_PRELOAD": "/tmp/evil.so",
            "KEYCHAIN_PINENTRY": "/tmp/evil", "KEYCHAIN_PASSCODE_COST": "testing",
            "DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/tmp/bus", "KEYCHAIN_SECURITYD": "/tmp/evil",
        ])
        #expect(
            kept == [
                "HOME=/home/me", "KEYCHAIN_AUTO_LOCK=60", "LANG=C.UTF-8", "LC_TIME=C",
                "PATH=/usr/local/bin:/usr/bin:/bin", "XDG_RUNTIME_DIR=/run/user/1000",
            ]
        )
    }

    @Test func settingsParseWithCommentsAndSpaces() throws {
        let settings = try DaemonSettings.parse(
            "# the daemon\n  pinentry = /usr/bin/pinentry-tty \npasscode-cost=testing\nauto-lock = 300\nsystem-bus = unix:path=/run/bus\n",
            path: "f"
        )
        #expect(settings.pinentry == "/usr/bin/pinentry-tty")
        #expect(settings.passcodeCost == .testing)
        #expect(settings.autoLock == .seconds(300))
        #expect(settings.systemBus == "unix:path=/run/bus")
        #expect(throws: DaemonSettings.SettingsError.self) {
            try DaemonSettings.parse("pinentry = pinentry\n", path: "f")
        }
        #expect(throws: DaemonSettings.SettingsError.self) { try DaemonSettings.parse("auto-lock = 0\n", path: "f") }
    }
}
