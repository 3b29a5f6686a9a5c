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
import KeychainCore
import KeychainDevice
import KeychainServices
import KeychainTestSupport
import KeychainTesting
import Testing

/// `securityd` and the `security` tool as separate processes: what one process does to the lock
/// state, every other sees; the socket survives hostile clients.
@Suite(.serialized)
struct DaemonTests {
    @Test func oneUnlockServesEveryProcessAndLockLocksThemAll() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        #expect(try daemon.tool(["add-generic-password", "-a", "me", "-s", "Example", "-w", "s3cret"]).status == 0)
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)

        // Setting the passcode leaves the session unlocked: another process reads with no prompt.
        var read = try daemon.tool(["find-generic-password", "-s", "Example", "-w"])
        #expect(read.stdout == "s3cret\n")
        #expect(read.stderr.isEmpty)

        // `lock` in one process locks every process.
        #expect(try daemon.tool(["lock"]).status == 0)
        read = try daemon.tool(["find-generic-password", "-s", "Example", "-w"])
        #expect(read.status == 36)  // errSecInteractionNotAllowed, as the tool reports it
        #expect(read.stdout.isEmpty)

        // `unlock` in one process unlocks every later one, which no longer asks.
        #expect(try daemon.tool(["unlock"], input: "2468\n").stdout == "unlocked\n")
        read = try daemon.tool(["find-generic-password", "-s", "Example", "-w"])
        #expect(read.stdout == "s3cret\n")
        #expect(read.stderr.isEmpty)
        #expect(try daemon.tool(["status"]).stdout.contains("state: unlocked"))

        // The tool never opened the database: the daemon holds it (and the keys).
        #expect(daemon.stop() == 0)
        read = try daemon.tool(["find-generic-password", "-s", "Example", "-w"], starting: false)
        #expect(read.status != 0)
    }

    @Test func biometryReleasesAnItemInAProcessThatNeverSawThePasscode() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        // The passcode goes to `security` only; the sensor is the daemon's.
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(try daemon.tool(["biometry", "sensor", "touchid"]).status == 0)
        #expect(try daemon.tool(["biometry", "enroll", "thumb"]).status == 0)

        let configuration = DeviceConfiguration(
            passcodePrompt: .none,
            engine: .daemon,
            daemonSocket: daemon.endpoint.socketPath
        )
        let device = try Device(home: KeychainHome(url: daemon.home), configuration: configuration)
        try Device.withCurrent(device) {
            let access = try #require(
                SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, .biometryAny, nil)
            )
            let add: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Bio",
                kSecAttrAccount as String: "me",
                kSecValueData as String: Data("finger".utf8),
                kSecAttrAccessControl as String: access,
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Bio",
                kSecReturnData as String: true,
            ]
            var result: CFTypeRef?
            #expect(try daemon.tool(["biometry", "next", "nonmatch"]).status == 0)
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecAuthFailed)
            #expect(try daemon.tool(["biometry", "next", "match"]).status == 0)
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            #expect(result as? Data == Data("finger".utf8))

            // Locked by another process: the class key is gone for this one too.
            #expect(try daemon.tool(["lock"]).status == 0)
            #expect(try daemon.tool(["biometry", "next", "match"]).status == 0)
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecInteractionNotAllowed)
        }
    }

    @Test func killingTheDaemonLosesNoAcknowledgedWriteAndClientsFindItLockedAfterTheRestart() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)
        let configuration = DeviceConfiguration(
            passcodePrompt: .none,
            engine: .daemon,
            daemonSocket: daemon.endpoint.socketPath
        )
        let device = try Device(home: KeychainHome(url: daemon.home), configuration: configuration)

        // A stream of writes; the daemon dies in the middle of it.
        let acknowledged = LockedState<[String]>([])
        let writer = Thread {
            Device.withCurrent(device) {
                for index in 0..<100_000 {
                    let account = "account-\(index)"
                    let add: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: "Stream",
                        kSecAttrAccount as String: account,
                        kSecValueData as String: Data(account.utf8),
                    ]
                    guard SecItemAdd(add as CFDictionary, nil) == errSecSuccess else { return }
                    acknowledged.withLock { $0.append(account) }
                }
            }
        }
        writer.start()
        while acknowledged.withLock({ $0.count }) < 20 { Thread.sleep(forTimeInterval: 0.01) }
        try daemon.killAndRestart()
        while writer.isExecuting { Thread.sleep(forTimeInterval: 0.01) }
        let written = acknowledged.withLock { $0 }

        // The same client reconnects by itself and finds the keychain locked, as after a restart.
        #expect(!device.isUnlocked)
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Stream"]
        let locked = Device.withCurrent(device) { SecItemCopyMatching(query as CFDictionary, nil) }
        #expect(locked == errSecInteractionNotAllowed)
        #expect(try daemon.tool(["unlock"], input: "2468\n").status == 0)
        let all = query.merging([kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true]) {
            $1
        }
        let (status, result) = Device.withCurrent(device) {
            var result: CFTypeRef?
            let status = SecItemCopyMatching(all as CFDictionary, &result)
            return (status, result)
        }
        #expect(status == errSecSuccess)
        let stored = Set(((result as? [[String: Any]]) ?? []).compactMap { $0[kSecAttrAccount as String] as? String })
        #expect(Set(written).isSubset(of: stored))
        #expect(stored.count <= written.count + 1)  // at most the write in flight, unacknowledged
    }

    /// The default engine (`auto`), as a user gets it: no KEYCHAIN_ENGINE, no socket named, so the
    /// first client starts the daemon of its home's own socket, in a runtime folder under `root`;
    /// the home (`root/home`) is configured for tests (no pinentry, the cheap passcode cost).
    static func defaultEngineEnvironment(root: URL) throws -> [String: String] {
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(
            at: home,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        try PrivateDaemon.writeSettings(["passcode-cost": "testing"], to: home.appendingPathComponent("securityd.conf"))
        return runtimeEnvironment(root: root)
    }

    /// The default engine's environment with the runtime folder under `root` (the home unprepared).
    static func runtimeEnvironment(root: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["KEYCHAIN_ENGINE"] = nil
        environment["KEYCHAIN_SOCKET"] = nil
        environment["XDG_RUNTIME_DIR"] = root.appendingPathComponent("runtime").path
        environment["KEYCHAIN_SECURITYD"] = PrivateDaemon.executable.path
        return environment
    }

    @Test func byDefaultTheFirstClientStartsTheDaemonOfItsHomeWhichEndsWithTheHome() throws {
        let root = URL(fileURLWithPath: "/tmp/kc-auto-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = try Self.defaultEngineEnvironment(root: root)
        let tool = SecurityToolRunner(home: root.appendingPathComponent("home"))
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "Auto", "-w", "started"], environment: environment)
                .status == 0
        )
        let endpoint = DaemonEndpoint.forHome(tool.home, environment: environment)
        #expect(endpoint.socketPath.hasPrefix(root.path + "/runtime/swift-keychain/home-"))
        let lock = try String(contentsOfFile: endpoint.lockPath, encoding: .utf8)
        let processID = try #require(Int32(lock.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(processID, SIGTERM) }

        // The daemon holds the keychain: one unlock (setting the passcode) serves the next
        // process, which is not asked; `lock` in one locks the next.
        #expect(try tool.run(["passcode", "set"], input: "2468\n2468\n", environment: environment).status == 0)
        var read = try tool.run(["find-generic-password", "-s", "Auto", "-w"], environment: environment)
        #expect(read.stdout == "started\n" && read.stderr.isEmpty)
        #expect(try tool.run(["lock"], environment: environment).status == 0)
        read = try tool.run(["find-generic-password", "-s", "Auto", "-w"], environment: environment)
        #expect(read.status == 36 && read.stdout.isEmpty)
        #expect(kill(processID, 0) == 0)

        // A daemon whose home is removed stops (it would take writes nobody finds again).
        try FileManager.default.removeItem(at: tool.home)
        let deadline = Date().addingTimeInterval(60)
        while kill(processID, 0) == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(kill(processID, 0) != 0)
        #expect(!FileManager.default.fileExists(atPath: endpoint.socketPath))
    }

    @Test func aKeychainAProgramOpensAtAFolderOfItsOwnStaysInTheProcessByDefault() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("kc-own-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        var configuration = DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        configuration.engine = .auto
        let device = try Device(home: KeychainHome(url: home), configuration: configuration)
        #expect(!(device.engine is WireEngine))
        configuration.engine = .daemon
        configuration.daemonSocket = "/nonexistent/socket"
        #expect(try Device(home: KeychainHome(url: home), configuration: configuration).engine is WireEngine)
    }

    @Test func anAutoLockLocksEveryProcessAfterATimeWithoutRequests() throws {
        let daemon = try PrivateDaemon(settings: ["auto-lock": "1"])
        defer { daemon.stop() }
        #expect(try daemon.tool(["add-generic-password", "-a", "me", "-s", "Idle", "-w", "idle secret"]).status == 0)
        #expect(
            try daemon.tool([
                "add-generic-password", "-a", "me", "-s", "Boot", "-w", "stays", "--accessible", "AfterFirstUnlock",
            ]).status == 0
        )
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)

        // A second and a half without requests: locked for everyone, as a Mac locks its keychain.
        // Tried a few times: on a busy machine the daemon's check may come late, and every
        // request, `status` too, starts the quiet time afresh.
        var locked = false
        for _ in 0..<10 where !locked {
            Thread.sleep(forTimeInterval: 2.5)
            locked = try daemon.tool(["status"]).stdout.contains("state: locked")
        }
        #expect(locked)
        let read = try daemon.tool(["find-generic-password", "-s", "Idle", "-w"])
        #expect(read.status == 36 && read.stdout.isEmpty)
        // The class kept after the first unlock stays readable, as after a device locks.
        #expect(try daemon.tool(["find-generic-password", "-s", "Boot", "-w"]).stdout == "stays\n")
        // Unlocked, it reads again — unless the next tool started over a second later, when the
        // keychain has rightly locked again: tried a few times.
        var reread = ""
        for _ in 0..<10 where reread != "idle secret\n" {
            #expect(try daemon.tool(["unlock"], input: "2468\n").stdout == "unlocked\n")
            reread = try daemon.tool(["find-generic-password", "-s", "Idle", "-w"]).stdout
        }
        #expect(reread == "idle secret\n")
        // From a keychain known to be unlocked, the quiet time locks it again.
        var relocked = false
        for _ in 0..<10 where !relocked {
            Thread.sleep(forTimeInterval: 2.5)
            relocked = try daemon.tool(["status"]).stdout.contains("state: locked")
        }
        #expect(relocked)
    }

    @Test func eachClientsAccessGroupsApplyThroughTheDaemon() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        func device(_ groups: [String]) throws -> Device {
            let configuration = DeviceConfiguration(
                accessGroups: groups,
                passcodePrompt: .none,
                engine: .daemon,
                daemonSocket: daemon.endpoint.socketPath
            )
            return try Device(home: KeychainHome(url: daemon.home), configuration: configuration)
        }
        let mail = try device(["mail"])
        let notes = try device(["notes"])
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Grouped",
            kSecReturnAttributes as String: true,
        ]
        var result: CFTypeRef?
        Device.withCurrent(mail) {
            #expect(
                SecItemAdd(
                    [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Grouped",
                        kSecValueData as String: Data("mail's".utf8),
                    ] as CFDictionary,
                    nil
                ) == errSecSuccess
            )
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
        }
        // The item went to the client's first group, and another application's groups do not reach it.
        #expect((result as? [String: Any])?[kSecAttrAccessGroup as String] as? String == "mail")
        Device.withCurrent(notes) {
            var unseen: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &unseen) == errSecItemNotFound)
            var named = query
            named[kSecAttrAccessGroup as String] = "mail"
            #expect(SecItemCopyMatching(named as CFDictionary, &unseen) == errSecMissingEntitlement)
            #expect(
                SecItemDelete([kSecClass as String: kSecClassGenericPassword] as CFDictionary) == errSecItemNotFound
            )
        }
        // The tool, like macOS's, sees every group.
        #expect(try daemon.tool(["find-generic-password", "-s", "Grouped", "-w"]).stdout == "mail's\n")
    }

    @Test func promptsNobodyAnswersCannotTakeEveryThread() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)

        /// Sends an evaluation that asks this client for the passcode; returns the first reply.
        func parkEvaluation(on connection: Int32) throws -> EngineResponse {
            guard case .context(let context) = try RawClient.exchange(.makeContext, on: connection) else {
                throw PrivateDaemon.DaemonError.didNotAnswer
            }
            let request = EngineRequest.evaluatePolicy(
                .deviceOwner,
                context: context,
                reason: "park",
                interactionAllowed: true,
                target: PromptTarget(kind: .custom)
            )
            let message = try EngineWire.encode(request)
            RawClient.write(EngineFrame.header(forLength: message.count) + message, to: connection)
            let header = try RawClient.readExactly(EngineFrame.headerLength, from: connection)
            let length = try #require(EngineFrame.length(ofHeader: header))
            return try EngineWire.decode(EngineResponse.self, from: RawClient.readExactly(length, from: connection))
        }

        // One process asks four questions and answers none: each holds a daemon thread.
        var parked: [Int32] = []
        defer { for connection in parked { close(connection) } }
        for _ in 0..<4 {  // ClientTable.evaluationsPerProcess
            let connection = try RawClient.connect(daemon.endpoint.socketPath)
            parked.append(connection)
            guard case .ask = try parkEvaluation(on: connection) else {
                Issue.record("the evaluation did not ask")
                return
            }
        }
        // A fifth from the same process is turned away at once, as a system cancel.
        let fifth = try RawClient.connect(daemon.endpoint.socketPath)
        defer { close(fifth) }
        guard case .authenticationFailure(let failure) = try parkEvaluation(on: fifth) else {
            Issue.record("a fifth waiting evaluation was accepted")
            return
        }
        #expect(failure.code == .systemCancel)
        // Other processes are still served, writes included.
        #expect(try daemon.tool(["add-generic-password", "-a", "me", "-s", "Busy", "-w", "served"]).status == 0)
        #expect(try daemon.tool(["find-generic-password", "-s", "Busy", "-w"]).stdout == "served\n")

        // When the questions' connections close, their evaluations end and the room comes back.
        for connection in parked { close(connection) }
        parked = []
        let deadline = Date().addingTimeInterval(60)
        var reply = try parkEvaluation(on: fifth)
        while case .authenticationFailure = reply, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            reply = try parkEvaluation(on: fifth)
        }
        guard case .ask = reply else {
            Issue.record("the daemon did not take evaluations again after the waiting ones ended")
            return
        }
    }

    @Test func aHomeReplacedUnderTheDaemonIsNotServed() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        #expect(try daemon.tool(["add-generic-password", "-a", "me", "-s", "Old", "-w", "old home"]).status == 0)
        // Another folder at the same path: the daemon's open files are the old home's.
        let aside = daemon.home.deletingLastPathComponent().appendingPathComponent("aside")
        try FileManager.default.moveItem(at: daemon.home, to: aside)
        try FileManager.default.createDirectory(
            at: daemon.home,
            withIntermediateDirectories: false,
            attributes: [.posixPermissions: 0o700]
        )
        let configuration = DeviceConfiguration(
            passcodePrompt: .none,
            engine: .daemon,
            daemonSocket: daemon.endpoint.socketPath
        )
        let device = try Device(home: KeychainHome(url: daemon.home), configuration: configuration)
        Device.withCurrent(device) {
            var result: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Old",
                kSecReturnData as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecNotAvailable)
            #expect(result == nil)
        }
        // And it stops, leaving the socket to a daemon of the new home.
        let deadline = Date().addingTimeInterval(60)
        while kill(daemon.processID, 0) == 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(kill(daemon.processID, 0) != 0)
    }

    /// Runs the tool as a Flatpak app would run: in a root of its own that shows the host's
    /// folders and has a `/.flatpak-info` naming the app.
    static func sandboxedTool(
        _ daemon: PrivateDaemon,
        appID: String
    ) throws -> ([String], String) throws -> SecurityToolRunner.Output {
        try sandboxedTool(in: daemon.root, appID: appID, environment: daemon.clientEnvironment(starting: false))
    }

    /// The same in a root made in `folder`, with `environment`, as `user` (else as this process's).
    static func sandboxedTool(
        in folder: URL,
        appID: String,
        environment: [String: String],
        user: UInt32? = nil
    ) throws -> ([String], String) throws -> SecurityToolRunner.Output {
        let root = folder.appendingPathComponent("sandbox-" + appID)
        // The tool and the daemon's socket are where this checkout and its temporary folder are.
        let own = [SecurityToolRunner.executable, folder].compactMap {
            $0.standardizedFileURL.pathComponents.dropFirst().first
        }
        let folders = Set(["usr", "opt", "tmp", "proc", "etc", "dev"] + own).sorted()
            .filter { FileManager.default.fileExists(atPath: "/" + $0) }
        for folder in folders {
            try FileManager.default.createDirectory(
                at: root.appendingPathComponent(folder),
                withIntermediateDirectories: true
            )
        }
        for link in ["bin", "lib", "lib64", "sbin"] {
            try FileManager.default.createSymbolicLink(
                atPath: root.appendingPathComponent(link).path,
                withDestinationPath: "usr/" + link
            )
        }
        try Data("[Application]\nname=\(appID)\n".utf8).write(to: root.appendingPathComponent(".flatpak-info"))
        return { arguments, input in
            let mounts = folders.map { "mount --rbind /\($0) \(root.path)/\($0)" }
            let command = ([SecurityToolRunner.executable.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
            let chroot = "chroot" + (user.map { " --userspec=\($0):\($0)" } ?? "")
            let script = (mounts + ["exec \(chroot) \(root.path) \(command)"]).joined(separator: " && ")
            return try SecurityToolRunner.runProgram(
                "/usr/bin/unshare",
                ["-m", "sh", "-c", script],
                environment: environment,
                input: input
            )
        }
    }

    static let canSandbox =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && FileManager.default.isExecutableFile(atPath: "/usr/sbin/chroot")

    @Test(.enabled(if: canSandbox, "needs root to build a sandbox's root"))
    func aFlatpakAppGetsItsOwnGroupOnly() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        #expect(try daemon.tool(["add-generic-password", "-a", "me", "-s", "Shared", "-w", "the user's"]).status == 0)
        let notes = try Self.sandboxedTool(daemon, appID: "org.example.Notes")

        // The app sees nothing of the user's items, even asking for every group as the tool does…
        var output = try notes(["find-generic-password", "-s", "Shared", "-w"], "")
        #expect(output.status == 44 && output.stdout.isEmpty, "\(output.stderr)")
        // …and what it adds goes to its own group, which the user's tool sees.
        output = try notes(["add-generic-password", "-a", "me", "-s", "Notes", "-w", "the notes"], "")
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try notes(["find-generic-password", "-s", "Notes", "-w"], "").stdout == "the notes\n")
        output = try daemon.tool(["find-generic-password", "-s", "Notes", "--json"])
        #expect(output.stdout.contains("flatpak:org.example.Notes"), "\(output.stdout)")
        #expect(try daemon.tool(["find-generic-password", "-s", "Shared", "-w"]).stdout == "the user's\n")
    }

    @Test(.enabled(if: canSandbox, "needs root to build a sandbox's root"))
    func anAppsSecretsNeedThePasscodeFromTheUsersProgramsAndAGrantFromOtherApps() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        let notes = try Self.sandboxedTool(daemon, appID: "org.example.Notes")
        let mail = try Self.sandboxedTool(daemon, appID: "org.example.Mail")
        #expect(try notes(["add-generic-password", "-a", "me", "-s", "Notes", "-w", "the notes"], "").status == 0)
        #expect(try daemon.tool(["passcode", "set"], input: "2468\n2468\n").status == 0)

        // Unlocked, the user's tool still needs the passcode for the app's secret, asked per read.
        var output = try daemon.tool(["find-generic-password", "-s", "Notes", "-w"])
        #expect(output.status != 0 && output.stdout.isEmpty, "\(output.stderr)")
        #expect(try daemon.tool(["find-generic-password", "-s", "Notes", "-w"], input: "1357\n").stdout.isEmpty)
        #expect(
            try daemon.tool(["find-generic-password", "-s", "Notes", "-w"], input: "2468\n").stdout == "the notes\n"
        )
        // Its name is not a secret to the user.
        #expect(try daemon.tool(["find-generic-password", "-s", "Notes"]).status == 0)

        // Another app does not see it, until the user grants it the group (with the passcode).
        #expect(try mail(["find-generic-password", "-s", "Notes", "-w"], "").status == 44)
        #expect(
            try mail(["access-group", "grant", "org.example.Mail", "flatpak:org.example.Notes"], "2468\n").status != 0
        )
        #expect(
            try daemon.tool(
                ["access-group", "grant", "org.example.Mail", "flatpak:org.example.Notes"],
                input: "1357\n"
            ).status != 0
        )
        #expect(try mail(["find-generic-password", "-s", "Notes", "-w"], "").status == 44)
        output = try daemon.tool(
            ["access-group", "grant", "org.example.Mail", "flatpak:org.example.Notes"],
            input: "2468\n"
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try mail(["find-generic-password", "-s", "Notes", "-w"], "").stdout == "the notes\n")
        output = try daemon.tool(["access-group", "list"])
        #expect(output.stdout.contains("org.example.Mail: flatpak:org.example.Notes"), "\(output.stdout)")
        #expect(output.stdout.contains("org.example.Notes: its own group only"), "\(output.stdout)")

        // Revoked: unseen again. And the grant was kept by the daemon, not the tool: after a
        // restart (and the unlock) it is still there.
        #expect(
            try daemon.tool(["access-group", "revoke", "org.example.Mail", "flatpak:org.example.Notes"]).status == 0
        )
        #expect(try mail(["find-generic-password", "-s", "Notes", "-w"], "").status == 44)
        #expect(try daemon.tool(["access-group", "grant", "org.example.Mail", "default"], input: "2468\n").status == 0)
        try daemon.killAndRestart()
        #expect(try daemon.tool(["unlock"], input: "2468\n").status == 0)
        #expect(try daemon.tool(["access-group", "list"]).stdout.contains("org.example.Mail: default"))
        #expect(try daemon.tool(["find-generic-password", "-s", "Notes", "-w"]).stdout.isEmpty)

        // Deleting the app's item asks too.
        #expect(try daemon.tool(["delete-generic-password", "-s", "Notes"]).status != 0)
        #expect(try notes(["find-generic-password", "-s", "Notes", "-w"], "").stdout == "the notes\n")
        #expect(try daemon.tool(["delete-generic-password", "-s", "Notes"], input: "2468\n").status == 0)
        #expect(try notes(["find-generic-password", "-s", "Notes", "-w"], "").status == 44)
    }

    @Test func aClientThatNeverReadsItsRepliesCannotMakeTheDaemonHoardThem() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        let bystander = WireEngine(transport: DaemonTransport(endpoint: daemon.endpoint, launcher: nil), prompt: .none)
        var add = try QueryParser.parse(
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Big",
                kSecValueData as String: Data(repeating: 0x42, count: 512 << 10),
            ],
            for: .add
        )
        add.accessGroups = AccessGroups(["default"])
        _ = try bystander.add(add)
        var search = try QueryParser.parse(
            [
                kSecClass as String: kSecClassGenericPassword,
                kSecAttrService as String: "Big",
                kSecReturnData as String: true,
            ],
            for: .copyMatching
        )
        search.accessGroups = AccessGroups(["default"])
        let message = try EngineWire.encode(EngineRequest.search(search))
        let frame = EngineFrame.header(forLength: message.count) + message
        let before = try #require(Self.residentMegabytes(of: daemon.processID))

        // Look-ups of a half-megabyte secret, sent for three seconds and never read.
        let hostile = try RawClient.connect(daemon.endpoint.socketPath)
        defer { close(hostile) }
        _ = fcntl(hostile, F_SETFL, fcntl(hostile, F_GETFL) | O_NONBLOCK)
        var sent = 0
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            let written = frame.withUnsafeBytes { send(hostile, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written == frame.count { sent += 1 } else { Thread.sleep(forTimeInterval: 0.05) }
            if written > 0 && written < frame.count { break }  // a partial frame: stop here
        }
        Thread.sleep(forTimeInterval: 0.5)

        // The daemon stopped taking its requests once the replies piled up: a few megabytes, not
        // a half for each request sent.
        let after = try #require(Self.residentMegabytes(of: daemon.processID))
        #expect(after - before < 128, "sent \(sent) requests; the daemon grew from \(before) MB to \(after) MB")
        // Everyone else is served meanwhile.
        #expect(try bystander.lockState().hasPasscode == false)
        #expect(daemon.isRunning)
    }

    /// The resident memory of a process, in megabytes.
    static func residentMegabytes(of processID: Int32) -> Int? {
        statusField("VmRSS", of: processID).map { $0 / 1024 }
    }

    /// Whether this process may raise `RLIMIT_MEMLOCK` to unlimited (root with `CAP_SYS_RESOURCE`;
    /// not in an unprivileged container).
    static let canLiftTheMemoryLockLimit: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else { return false }
        return
            (try? SecurityToolRunner.runProgram(
                "/usr/bin/prlimit",
                ["--memlock=unlimited", "/bin/true"],
                environment: [:]
            ).status) == 0
    }()

    @Test(.enabled(if: canLiftTheMemoryLockLimit, "needs CAP_SYS_RESOURCE to raise RLIMIT_MEMLOCK"))
    func theDaemonsMemoryIsLockedWhereTheLimitAllowsIt() throws {
        // Unlimited (root, or systemd's LimitMEMLOCK=infinity): everything it touches is locked.
        let locked = try PrivateDaemon(memoryLockLimit: "unlimited")
        defer { locked.stop() }
        #expect(
            try locked.tool(["add-generic-password", "-a", "me", "-s", "Locked", "-w", "in locked memory"]).status == 0
        )
        #expect(try locked.tool(["find-generic-password", "-s", "Locked", "-w"]).stdout == "in locked memory\n")
        #expect((Self.statusField("VmLck", of: locked.processID) ?? 0) > 0)
        // A finite limit: nothing is locked, and the daemon serves as before (locking everything
        // would make allocations past the limit fail).
        let limited = try PrivateDaemon(memoryLockLimit: "65536")
        defer { limited.stop() }
        #expect(
            try limited.tool(["add-generic-password", "-a", "me", "-s", "Plain", "-w", "in plain memory"]).status == 0
        )
        #expect(try limited.tool(["find-generic-password", "-s", "Plain", "-w"]).stdout == "in plain memory\n")
        #expect(Self.statusField("VmLck", of: limited.processID) == 0)
    }

    /// A `kB` field of `/proc/PID/status`.
    static func statusField(_ name: String, of processID: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(name + ":") {
            return line.split(separator: " ").compactMap { Int($0) }.first
        }
        return nil
    }

    @Test func aMalformedFrameClosesOnlyItsOwnConnection() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        let bystander = WireEngine(transport: DaemonTransport(endpoint: daemon.endpoint, launcher: nil), prompt: .none)
        #expect(try bystander.lockState().hasPasscode == false)

        for hostile: [UInt8] in [[0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0, 0, 0, 3, 9, 9, 9], [0, 0, 0, 2, 1, 0]] {
            let descriptor = try RawClient.connect(daemon.endpoint.socketPath)
            defer { close(descriptor) }
            RawClient.write(hostile, to: descriptor)
            // Refused: the connection is closed, or (a well-framed message that does not decode)
            // answered with an error and nothing run.
            let reply = RawClient.readAll(from: descriptor, timeout: 2)
            if !reply.isEmpty {
                let response = try EngineWire.decode(
                    EngineResponse.self,
                    from: Array(reply.dropFirst(EngineFrame.headerLength))
                )
                guard case .keychainError(let error) = response else {
                    Issue.record("a hostile message was answered with something other than an error")
                    continue
                }
                #expect(error.code == .invalidParameter)
            }
        }
        // The other client's connection and the daemon are untouched.
        #expect(try bystander.lockState().hasPasscode == false)
        #expect(daemon.isRunning)
    }

    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
            "starts the daemon as systemd would, with python3"
        )
    )
    func socketActivationServesTheSocketSystemdPasses() throws {
        let root = URL(fileURLWithPath: "/tmp/kc-activate-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("run"),
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        let socket = root.appendingPathComponent("run/socket").path
        // What systemd does for a .socket unit: bind and listen, then start the service with the
        // socket as descriptor 3 and LISTEN_FDS/LISTEN_PID naming it.
        let script = """
            import os, socket, sys
            listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            listener.bind(sys.argv[1]); os.chmod(sys.argv[1], 0o600); listener.listen(16)
            pid = os.fork()
            if pid == 0:
                os.dup2(listener.fileno(), 3); os.set_inheritable(3, True)
                os.environ["LISTEN_FDS"] = "1"; os.environ["LISTEN_PID"] = str(os.getpid())
                null = os.open("/dev/null", os.O_RDWR); os.dup2(null, 0); os.dup2(null, 1); os.dup2(null, 2)
                os.closerange(4, 65536)
                os.execv(sys.argv[2], [sys.argv[2], "--keychain", sys.argv[3], "--socket", sys.argv[1]])
            print(pid)
            """
        let launcher = Process()
        launcher.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        launcher.arguments = [
            "-c", script, socket, PrivateDaemon.executable.path, root.appendingPathComponent("home").path,
        ]
        let output = Pipe()
        launcher.standardOutput = output
        try launcher.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        launcher.waitUntilExit()
        let processID = try #require(Int32(printed.trimmingCharacters(in: .whitespacesAndNewlines)))
        defer { kill(processID, SIGKILL) }

        // Clients connect before the daemon runs (the kernel queues them) and are served.
        let client = WireEngine(
            transport: DaemonTransport(endpoint: DaemonEndpoint(socketPath: socket), launcher: nil),
            prompt: .none
        )
        #expect(try client.lockState().hasPasscode == false)
        // Stopping leaves the socket to its owner (systemd), which keeps it for the next start.
        #expect(kill(processID, SIGTERM) == 0)
        #expect(DaemonHousekeepingTests.waitForExit(processID, seconds: 60))
        #expect(FileManager.default.fileExists(atPath: socket))
    }

    @Test func silentConnectionsAreClosedAndClientsReconnectByThemselves() throws {
        let daemon = try PrivateDaemon(idleTimeout: 1)
        defer { daemon.stop() }
        let client = WireEngine(transport: DaemonTransport(endpoint: daemon.endpoint, launcher: nil), prompt: .none)
        #expect(try client.lockState().hasPasscode == false)  // its connection now waits in the pool

        // Half a frame, then silence: the daemon hangs up instead of waiting for the rest.
        let half = try RawClient.connect(daemon.endpoint.socketPath)
        defer { close(half) }
        RawClient.write([0, 0, 0, 9, 1, 2], to: half)
        #expect(RawClient.readAll(from: half, timeout: 60).isEmpty)
        // Hung up, not merely quiet: the socket reads its end.
        var byte: UInt8 = 0
        #expect(recv(half, &byte, 1, Int32(MSG_DONTWAIT)) == 0)

        // The pooled connection was closed the same way; the next call reconnects unnoticed.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(try client.lockState().hasPasscode == false)
        #expect(try client.lockState().hasPasscode == false)
    }

    @Test func sixtyFourConcurrentClientsSeeTheirOwnWorkAndNothingElse() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        let failures = LockedState<[String]>([])
        let (socket, home) = (daemon.endpoint.socketPath, daemon.home)
        let threads = (0..<64).map { client in
            Thread {
                // Each client a process of its own as far as the daemon can tell: its own connections.
                let configuration = DeviceConfiguration(passcodePrompt: .none, engine: .daemon, daemonSocket: socket)
                guard let device = try? Device(home: KeychainHome(url: home), configuration: configuration) else {
                    failures.withLock { $0.append("client \(client): no device") }
                    return
                }
                Device.withCurrent(device) {
                    for index in 0..<8 {
                        let account = "client-\(client)-\(index)"
                        let item: [String: Any] = [
                            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Shared",
                            kSecAttrAccount as String: account,
                        ]
                        var status = SecItemAdd(
                            item.merging([kSecValueData as String: Data("first".utf8)]) { $1 } as CFDictionary,
                            nil
                        )
                        if status == errSecSuccess {
                            status = SecItemUpdate(
                                item as CFDictionary,
                                [kSecValueData as String: Data("second \(account)".utf8)] as CFDictionary
                            )
                        }
                        if status == errSecSuccess, index.isMultiple(of: 2) {
                            status = SecItemDelete(item as CFDictionary)
                        }
                        if status != errSecSuccess { failures.withLock { $0.append("\(account): \(status)") } }
                    }
                }
            }
        }
        for thread in threads { thread.start() }
        let deadline = Date().addingTimeInterval(120)
        while threads.contains(where: \.isExecuting) || threads.contains(where: { !$0.isFinished }), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        #expect(failures.withLock { $0 }.isEmpty)

        // The outcome of some serial order: exactly the odd items, each with its own second value.
        let configuration = DeviceConfiguration(
            passcodePrompt: .none,
            engine: .daemon,
            daemonSocket: daemon.endpoint.socketPath
        )
        let reader = try Device(home: KeychainHome(url: daemon.home), configuration: configuration)
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Shared",
            kSecMatchLimit as String: kSecMatchLimitAll, kSecReturnAttributes as String: true,
            kSecReturnData as String: true,
        ]
        let (status, result) = Device.withCurrent(reader) {
            var result: CFTypeRef?
            return (SecItemCopyMatching(query as CFDictionary, &result), result)
        }
        #expect(status == errSecSuccess)
        let items = (result as? [[String: Any]]) ?? []
        let found = Dictionary(
            uniqueKeysWithValues: items.compactMap { item -> (String, Data)? in
                guard let account = item[kSecAttrAccount as String] as? String,
                    let data = item[kSecValueData as String] as? Data
                else { return nil }
                return (account, data)
            }
        )
        let expected = Dictionary(
            uniqueKeysWithValues: (0..<64).flatMap { client in
                stride(from: 1, to: 8, by: 2).map { index in
                    ("client-\(client)-\(index)", Data("second client-\(client)-\(index)".utf8))
                }
            }
        )
        #expect(found == expected)
    }

    /// Hostile clients in bulk, as the query fuzzer does for dictionaries: random bytes, random
    /// lengths, truncated and mutated real requests.
    ///
    /// The daemon answers or hangs up on each, and a well-behaved client beside them is served
    /// throughout.
    @Test func randomFramesNeverTakeTheDaemonDownOrDisturbOtherClients() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        let bystander = WireEngine(transport: DaemonTransport(endpoint: daemon.endpoint, launcher: nil), prompt: .none)
        var generator = SplitMix64(seed: 0x5EC0_0D)
        let valid = try EngineWire.encode(EngineRequest.lockState)
        for round in 0..<300 {
            var bytes: [UInt8]
            switch round % 4 {
            case 0:  // noise
                bytes = (0..<Int.random(in: 1...64, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            case 1:  // a plausible length, a noisy message
                let body = (0..<Int.random(in: 1...200, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
                bytes = EngineFrame.header(forLength: body.count) + body
            case 2:  // a real request with bytes flipped
                var body = valid
                for _ in 0..<3 {
                    body[Int.random(in: 0..<body.count, using: &generator)] ^= UInt8.random(
                        in: 1...255,
                        using: &generator
                    )
                }
                bytes = EngineFrame.header(forLength: body.count) + body
            default:  // a real request cut short
                let frame = EngineFrame.header(forLength: valid.count) + valid
                bytes = Array(frame.prefix(Int.random(in: 1..<frame.count, using: &generator)))
            }
            let descriptor = try RawClient.connect(daemon.endpoint.socketPath)
            RawClient.write(bytes, to: descriptor)
            _ = RawClient.readAll(from: descriptor, milliseconds: 20)
            close(descriptor)
            if round % 50 == 0 {
                #expect(try bystander.lockState().hasPasscode == false)
            }
        }
        #expect(daemon.isRunning)
        #expect(try bystander.lockState().hasPasscode == false)
    }

    /// `nobody`, for the tests of another user (they need root to switch users).
    static let otherUser: UInt32 = 65534

    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run a daemon as another user"))
    func aProcessOfAnotherUserIsRefused() throws {
        let daemon = try PrivateDaemon(user: Self.otherUser)
        defer { daemon.stop() }
        // Root can enter the folder; the daemon serves it nothing of its user's keychain (root may
        // only hand it the login: LoginEventAuthorityTests).
        let descriptor = try RawClient.connect(daemon.endpoint.socketPath)
        defer { close(descriptor) }
        let reply = try RawClient.exchange(.lockState, on: descriptor)
        guard case .keychainError(let error) = reply else {
            Issue.record("a peer that is not the daemon's user got \(reply)")
            return
        }
        #expect(error.code == .notAvailable)
        #expect(daemon.isRunning)
    }

    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run a daemon as another user"))
    func aClientRefusesADaemonOfAnotherUser() throws {
        // Another user's socket where this user's is expected (say, a folder in /tmp made first):
        // the client checks who listens before it sends a passcode or a secret.
        let daemon = try PrivateDaemon(user: Self.otherUser)
        defer { daemon.stop() }
        let client = WireEngine(transport: DaemonTransport(endpoint: daemon.endpoint, launcher: nil), prompt: .none)
        let outcome = Result { () throws(KeychainError) in
            try client.unlock(passcode: "2468", endsBiometricLockout: false)
        }
        guard case .failure(let error) = outcome else {
            Issue.record("the client talked to another user's daemon")
            return
        }
        #expect(error.code == .invalidKeychain)
        #expect(error.message.contains("another user"))
    }

    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run a daemon as another user"))
    func aNonDumpableUnsandboxedClientKeepsItsGroups() throws {
        // Without root's privileges the daemon cannot look into the root of `security` (which makes
        // itself non-dumpable); the tool runs no more confined than the daemon, so it is unsandboxed.
        let daemon = try PrivateDaemon(user: Self.otherUser)
        defer { daemon.stop() }
        func tool(_ arguments: [String]) throws -> SecurityToolRunner.Output {
            let setpriv = [
                "--reuid=\(Self.otherUser)", "--regid=\(Self.otherUser)", "--clear-groups",
                SecurityToolRunner.executable.path,
            ]
            return try SecurityToolRunner.runProgram(
                "/usr/bin/setpriv",
                setpriv + arguments,
                environment: daemon.clientEnvironment(starting: false)
            )
        }
        var output = try tool(["add-generic-password", "-a", "me", "-s", "Hardened", "-w", "kept"])
        #expect(output.status == 0, "\(output.stderr)")
        output = try tool(["find-generic-password", "-s", "Hardened", "-w"])
        #expect(output.stdout == "kept\n", "\(output.stderr)")
    }

    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to read as another user"))
    func anotherProcessOfTheSameUserCannotReadTheDaemonsMemory() throws {
        let daemon = try PrivateDaemon(user: Self.otherUser)
        defer { daemon.stop() }
        // The control: a process of that user reads its own kind's /proc files.
        let control = Process()
        control.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        control.arguments = [
            "--reuid=\(Self.otherUser)", "--regid=\(Self.otherUser)", "--clear-groups", "/bin/sleep", "600",
        ]
        try control.run()
        // SIGKILL: a process started from a test's thread inherits its blocked signals, SIGTERM among them.
        defer {
            kill(control.processIdentifier, SIGKILL)
            control.waitUntilExit()
        }
        // Readable once setpriv has become that user (a moment, longer on a busy machine).
        let controlRead = ["/bin/cat", "/proc/\(control.processIdentifier)/environ"]
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, try !PrivateDaemon.succeeds(controlRead, as: Self.otherUser) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(try PrivateDaemon.succeeds(controlRead, as: Self.otherUser))
        // The daemon is non-dumpable: its memory and environment are closed to the same user.
        #expect(try !PrivateDaemon.succeeds(["/bin/cat", "/proc/\(daemon.processID)/environ"], as: Self.otherUser))
        #expect(
            try !PrivateDaemon.succeeds(
                ["/usr/bin/head", "-c", "1", "/proc/\(daemon.processID)/mem"],
                as: Self.otherUser
            )
        )
    }

    @Test func aSecondDaemonForTheSameSocketLeavesTheFirstServing() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        let second = try daemon.startAnother()
        second.waitUntilExit()
        #expect(second.terminationStatus == 0)
        #expect(try daemon.tool(["status"]).status == 0)
        #expect(daemon.isRunning)
    }

    /// A daemon whose socket file was removed (a clean-up of the runtime folder, an `rm`) is
    /// reachable by nobody but holds the socket's lock: it stops, and the daemon the next client
    /// starts waits for that instead of giving up, so the client is served.
    @Test func aDaemonWhoseSocketFileWasRemovedMakesWayForTheNextClientsDaemon() throws {
        let root = URL(fileURLWithPath: "/tmp/kc-orphan-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: root) }
        let environment = try Self.defaultEngineEnvironment(root: root)
        let tool = SecurityToolRunner(home: root.appendingPathComponent("home"))
        let endpoint = DaemonEndpoint.forHome(tool.home, environment: environment)
        let holder = {
            Int32(
                (try? String(contentsOfFile: endpoint.lockPath, encoding: .utf8))?.trimmingCharacters(
                    in: .whitespacesAndNewlines
                ) ?? ""
            )
        }
        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "Kept", "-w", "kept"], environment: environment)
                .status == 0
        )
        let first = try #require(holder())
        defer { kill(first, SIGTERM) }
        try FileManager.default.removeItem(atPath: endpoint.socketPath)

        #expect(
            try tool.run(["add-generic-password", "-a", "me", "-s", "Added", "-w", "added"], environment: environment)
                .status == 0
        )
        let read = try tool.run(["find-generic-password", "-s", "Kept", "-w"], environment: environment)
        #expect(read.status == 0 && read.stdout == "kept\n")
        let second = try #require(holder())
        defer { kill(second, SIGTERM) }
        #expect(second != first && kill(second, 0) == 0)
        #expect(DaemonHousekeepingTests.waitForExit(first, seconds: 60))
    }

    /// A file put where the socket was is not the daemon's to remove when it stops.
    @Test func aDaemonStopsWithoutRemovingAFileThatReplacedItsSocket() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        try FileManager.default.removeItem(atPath: daemon.endpoint.socketPath)
        try Data("someone else's\n".utf8).write(to: URL(fileURLWithPath: daemon.endpoint.socketPath))
        let deadline = Date().addingTimeInterval(60)
        while daemon.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!daemon.isRunning)
        #expect(try String(contentsOfFile: daemon.endpoint.socketPath, encoding: .utf8) == "someone else's\n")
    }

    @Test func sigtermStopsTheDaemonAndRemovesItsSocket() throws {
        let daemon = try PrivateDaemon()
        #expect(daemon.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.endpoint.socketPath))
    }

    @Test func theSocketFolderIsClosedToOthers() throws {
        let daemon = try PrivateDaemon()
        defer { daemon.stop() }
        let attributes = try FileManager.default.attributesOfItem(atPath: daemon.endpoint.directory)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        // The mode is set just after the bind (a client that started the daemon hears it is ready
        // only then; this test finds the socket by connecting, possibly between the two).
        func socketMode() throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: daemon.endpoint.socketPath)[.posixPermissions] as? Int
        }
        let deadline = Date().addingTimeInterval(60)
        while try socketMode() != 0o600, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(try socketMode() == 0o600)
    }
}
