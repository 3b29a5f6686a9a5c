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
import KeychainDevice
import KeychainTestSupport
import Testing

/// `securityd --system`: one daemon for every user, each user's keychain in a folder of the
/// daemon's that no user can enter — the arrangement of iOS, where apps never see the database.
@Suite(.serialized)
struct SystemDaemonTests {
    static let alice: UInt32 = 61001
    static let bob: UInt32 = 61002

    /// A system daemon on a throw-away state folder and socket, and a home for each user.
    final class SystemDaemon {
        let root: URL
        let state: URL
        let socket: String
        let process: Process

        init(
            users: [UInt32] = [SystemDaemonTests.alice, SystemDaemonTests.bob],
            settings: [String: String] = [:],
            account: UInt32? = nil,
            tracing: Bool = false
        ) throws {
            root = URL(fileURLWithPath: "/tmp/kc-system-\(UUID().uuidString.prefix(8))")
            state = root.appendingPathComponent("state")
            socket = root.appendingPathComponent("run/socket").path
            try FileManager.default.createDirectory(
                at: root,
                withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o755]
            )
            for user in users {
                let home = root.appendingPathComponent("home-\(user)")
                try FileManager.default.createDirectory(
                    at: home,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
                guard chown(home.path, user, user) == 0 else { throw PrivateDaemon.DaemonError.didNotStart }
            }
            // Started as root here unless `account` is given; installed, it runs as its own account
            // (Support/systemd), with CAP_SYS_PTRACE as the only capability (`tracing` here).
            process = Process()
            process.executableURL = PrivateDaemon.executable
            try PrivateDaemon.writeSettings(
                // The test users are bare uids (no accounts), which an installed daemon refuses.
                ["passcode-cost": "testing", "serve-uids-without-account": "yes"].merging(settings) { $1 },
                to: root.appendingPathComponent("securityd.conf")
            )
            process.arguments = [
                "--system", "--state-directory", state.path, "--socket", socket, "--config",
                root.appendingPathComponent("securityd.conf").path,
            ]
            if let account {
                guard chown(root.path, account, account) == 0 else { throw PrivateDaemon.DaemonError.didNotStart }
                let capabilities = tracing ? ["--inh-caps=+sys_ptrace", "--ambient-caps=+sys_ptrace"] : []
                process.arguments =
                    ["--reuid=\(account)", "--regid=\(account)", "--clear-groups"] + capabilities
                    + [PrivateDaemon.executable.path] + (process.arguments ?? [])
                process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            }
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let deadline = Date().addingTimeInterval(60)
            while !FileManager.default.fileExists(atPath: socket) {
                guard process.isRunning, Date() < deadline else { throw PrivateDaemon.DaemonError.didNotStart }
                Thread.sleep(forTimeInterval: 0.02)
            }
        }

        /// Runs `security` as `user`, whose home is their own folder here.
        func tool(_ user: UInt32, _ arguments: [String], input: String = "") throws -> SecurityToolRunner.Output {
            let setpriv = ["--reuid=\(user)", "--regid=\(user)", "--clear-groups", SecurityToolRunner.executable.path]
            return try SecurityToolRunner.runProgram(
                "/usr/bin/setpriv",
                setpriv + arguments,
                environment: environment(of: user),
                input: input
            )
        }

        /// The environment of `user`'s clients.
        func environment(of user: UInt32) -> [String: String] {
            var environment = ProcessInfo.processInfo.environment
            for name in [
                "KEYCHAIN_HOME", "XDG_DATA_HOME", "XDG_RUNTIME_DIR", "KEYCHAIN_ACCESS_GROUPS", "DISPLAY",
                "WAYLAND_DISPLAY",
            ] {
                environment[name] = nil
            }
            environment["HOME"] = root.appendingPathComponent("home-\(user)").path
            environment["KEYCHAIN_ENGINE"] = "daemon"
            environment["KEYCHAIN_SOCKET"] = socket
            return environment
        }

        func stop() {
            process.terminate()
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// The account the daemon runs as, which clients accept: the installation's `swift-keychain`,
    /// made for the test (and removed after it) where it does not exist.
    static func daemonAccount() throws -> (uid: UInt32, made: ThrowawayUser?) {
        if let entry = getpwnam(DaemonEndpoint.systemUserName) { return (entry.pointee.pw_uid, nil) }
        let made = try #require(ThrowawayUser.make(named: DaemonEndpoint.systemUserName))
        return (made.uid, made)
    }

    /// Run as its own account, the daemon can look into users' processes only with
    /// CAP_SYS_PTRACE, the one capability the unit grants: with it a Flatpak app of any user is
    /// recognised in system mode too, and kept to its own group (issue 34, finding 1).
    @Test(
        .enabled(if: ThrowawayUser.unavailableReason == nil && DaemonTests.canSandbox, "needs root to build a sandbox")
    )
    func withItsOneCapabilityTheDaemonRecognisesEachUsersApps() throws {
        let account = try Self.daemonAccount()
        let daemon = try SystemDaemon(account: account.uid, tracing: true)
        defer {
            daemon.stop()
            withExtendedLifetime(account.made) {}
        }
        let added = try daemon.tool(Self.alice, ["add-generic-password", "-a", "me", "-s", "Shared", "-w", "alice's"])
        #expect(added.status == 0, "\(added.stderr)")
        let notes = try DaemonTests.sandboxedTool(
            in: daemon.root,
            appID: "org.example.Notes",
            environment: daemon.environment(of: Self.alice),
            user: Self.alice
        )
        var output = try notes(["find-generic-password", "-s", "Shared", "-w"], "")
        #expect(output.status == 44 && output.stdout.isEmpty, "\(output.stderr)")
        output = try notes(["add-generic-password", "-a", "me", "-s", "Notes", "-w", "the notes"], "")
        #expect(output.status == 0, "\(output.stderr)")
        output = try daemon.tool(Self.alice, ["find-generic-password", "-s", "Notes", "--json"])
        #expect(output.stdout.contains("flatpak:org.example.Notes"), "\(output.stdout)")
    }

    /// Without it, a client the daemon cannot look into that is confined in any way (no_new_privs,
    /// a seccomp filter: every sandbox) gets the narrowest identity, no group at all.
    @Test(
        .enabled(if: ThrowawayUser.unavailableReason == nil && SandboxConfinement.isAvailable, "needs root and python3")
    )
    func withoutItAConfinedClientGetsNothing() throws {
        let account = try Self.daemonAccount()
        let daemon = try SystemDaemon(account: account.uid)
        defer {
            daemon.stop()
            withExtendedLifetime(account.made) {}
        }
        let added = try daemon.tool(Self.alice, ["add-generic-password", "-a", "me", "-s", "Shared", "-w", "alice's"])
        #expect(added.status == 0, "\(added.stderr)")
        let confined = SandboxConfinement.command(
            SecurityToolRunner.executable,
            ["find-generic-password", "-s", "Shared", "-w"]
        )
        let output = try SecurityToolRunner.runProgram(
            "/usr/bin/setpriv",
            ["--reuid=\(Self.alice)", "--regid=\(Self.alice)", "--clear-groups"] + confined,
            environment: daemon.environment(of: Self.alice),
            input: ""
        )
        #expect(output.status != 0 && output.stdout.isEmpty, "\(output.stderr)")
    }

    /// By default a uid the user database does not know is refused: a user's subordinate uids
    /// (thousands, through a user namespace) would each take a share of the daemon.
    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run clients as several users"))
    func aUidWithoutAnAccountIsRefusedByDefault() throws {
        let daemon = try SystemDaemon(settings: ["serve-uids-without-account": "no"])
        defer { daemon.stop() }
        let output = try daemon.tool(Self.alice, ["add-generic-password", "-a", "me", "-s", "Mail", "-w", "x"])
        #expect(output.status != 0 && output.stderr.contains("has no account here"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: daemon.state.appendingPathComponent("\(Self.alice)").path))
    }

    /// The daemon's files count against no user's disk quota: each user's keychain has one of its
    /// own, and a user who fills theirs is refused while the others write on.
    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run clients as several users"))
    func aUserWhoFillsTheirQuotaLeavesTheOthersTheirs() throws {
        let daemon = try SystemDaemon(settings: ["quota": "512K"])
        defer { daemon.stop() }
        let secret = String(repeating: "x", count: 100_000)
        var added = 0
        var last = try daemon.tool(Self.alice, ["add-generic-password", "-a", "a0", "-s", "Big", "-w", secret])
        while last.status == 0 && added < 10 {
            added += 1
            last = try daemon.tool(Self.alice, ["add-generic-password", "-a", "a\(added)", "-s", "Big", "-w", secret])
        }
        #expect(added >= 2 && added < 10)
        #expect(last.status != 0 && last.stderr.contains("quota"), "\(last.stderr)")
        #expect(
            try daemon.tool(Self.alice, ["find-generic-password", "-a", "a0", "-s", "Big", "-w"]).stdout == secret
                + "\n"
        )
        #expect(try daemon.tool(Self.bob, ["add-generic-password", "-a", "b", "-s", "Big", "-w", secret]).status == 0)
    }

    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run clients as several users"))
    func eachUserHasAKeychainOfTheirOwnThatNoUserCanRead() throws {
        let daemon = try SystemDaemon()
        defer { daemon.stop() }
        let (alice, bob) = (Self.alice, Self.bob)
        var output = try daemon.tool(
            alice,
            ["add-generic-password", "-a", "alice", "-s", "Mail", "-w", "alice's secret"]
        )
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try daemon.tool(alice, ["find-generic-password", "-s", "Mail", "-w"]).stdout == "alice's secret\n")
        // Another user finds nothing of it, and has a keychain of their own.
        #expect(try daemon.tool(bob, ["find-generic-password", "-s", "Mail", "-w"]).status == 44)
        #expect(
            try daemon.tool(bob, ["add-generic-password", "-a", "bob", "-s", "Mail", "-w", "bob's secret"]).status == 0
        )
        #expect(try daemon.tool(alice, ["find-generic-password", "-s", "Mail", "-w"]).stdout == "alice's secret\n")

        // Each user's passcode and lock are their own.
        #expect(try daemon.tool(alice, ["passcode", "set"], input: "2468\n2468\n").status == 0)
        #expect(try daemon.tool(alice, ["lock"]).status == 0)
        output = try daemon.tool(alice, ["find-generic-password", "-s", "Mail", "-w"])
        #expect(output.status == 36 && output.stdout.isEmpty, "\(output.stderr)")
        #expect(try daemon.tool(bob, ["find-generic-password", "-s", "Mail", "-w"]).stdout == "bob's secret\n")
        #expect(try daemon.tool(alice, ["unlock"], input: "2468\n").status == 0)
        #expect(try daemon.tool(alice, ["find-generic-password", "-s", "Mail", "-w"]).stdout == "alice's secret\n")

        // The files are the daemon's, in a folder per user that the user cannot enter.
        let aliceKeychain = daemon.state.appendingPathComponent("\(alice)")
        #expect(FileManager.default.fileExists(atPath: aliceKeychain.appendingPathComponent("keychain.db").path))
        let folder = try FileManager.default.attributesOfItem(atPath: aliceKeychain.path)
        #expect(folder[.ownerAccountID] as? UInt == UInt(getuid()))
        #expect(folder[.posixPermissions] as? Int == 0o700)
        #expect(try !PrivateDaemon.succeeds(["/bin/ls", aliceKeychain.path], as: alice))
        #expect(
            try !PrivateDaemon.succeeds(
                ["/bin/cat", aliceKeychain.appendingPathComponent("keychain.db").path],
                as: alice
            )
        )
        // A copy of the user's home holds nothing of the keychain.
        let homeFiles =
            FileManager.default.enumerator(atPath: daemon.root.appendingPathComponent("home-\(alice)").path)?.allObjects
            ?? []
        #expect(homeFiles.isEmpty, "\(homeFiles)")
        // Everyone reaches the socket; only the daemon's account can change its folder.
        #expect(try FileManager.default.attributesOfItem(atPath: daemon.socket)[.posixPermissions] as? Int == 0o666)
        let run = (daemon.socket as NSString).deletingLastPathComponent
        #expect(try FileManager.default.attributesOfItem(atPath: run)[.posixPermissions] as? Int == 0o755)
    }

    @Test(.enabled(if: PrivateDaemon.canSwitchUsers, "needs root and setpriv to run clients as several users"))
    func aUserCannotReachAnotherUsersKeychainThroughTheWire() throws {
        let daemon = try SystemDaemon()
        defer { daemon.stop() }
        #expect(
            try daemon.tool(Self.alice, ["add-generic-password", "-a", "alice", "-s", "Wire", "-w", "alice's"]).status
                == 0
        )
        // Whatever bob sends, he is served from his own keychain: naming alice's home, another
        // socket folder, every access group.
        var output = try daemon.tool(Self.bob, ["dump-keychain", "-d"])
        #expect(!output.stdout.contains("alice's"), "\(output.stdout)")
        output = try daemon.tool(Self.bob, ["find-generic-password", "-s", "Wire", "-w"])
        #expect(output.status == 44)
        // Root's own clients too get root's keychain, not a user's.
        let rootEngine = WireEngine(
            transport: DaemonTransport(endpoint: DaemonEndpoint(socketPath: daemon.socket), launcher: nil),
            prompt: .none
        )
        #expect(try rootEngine.lockState().hasPasscode == false)
        #expect(FileManager.default.fileExists(atPath: daemon.state.appendingPathComponent("0").path))
    }
}

extension SystemDaemonTests {
    /// The PAM module hands the login password to a system daemon running as its own account: that
    /// user's keychain unlocks, nobody else's (issue 39).
    @Test(
        .enabled(
            if: PAMStack.unavailableReason == nil && ThrowawayUser.unavailableReason == nil,
            "needs root, pamtester, libpam-wrapper, libpam0g-dev and a C compiler"
        )
    )
    func theLoginUnlocksThatUsersKeychainInTheSystemDaemon() throws {
        let password = "Corr3ct-Horse-Battery"
        guard let alice = LoginUser("sysal", password: password), let bob = LoginUser("sysbo", password: password)
        else { return }
        let account = try Self.daemonAccount()
        defer { account.made?.delete() }
        let daemon = try SystemDaemon(users: [alice.account.uid, bob.account.uid], account: account.uid)
        defer { daemon.stop() }
        for user in [alice, bob] {
            #expect(
                try daemon.tool(user.account.uid, ["passcode", "set"], input: "\(password)\n\(password)\n").status == 0
            )
            let added = try daemon.tool(user.account.uid, ["add-generic-password", "-a", "me", "-s", "S", "-w", "v"])
            #expect(added.status == 0, "\(added.stdout)\(added.stderr)")
            #expect(try daemon.tool(user.account.uid, ["lock"]).status == 0)
        }
        let stack = try PAMStack(
            PAMLoginTests.checksPassword + [
                "session required pam_unix.so", "session optional MODULE socket=\(daemon.socket)",
            ]
        )
        defer { stack.remove() }
        let login = try stack.run(user: alice.account.name, ["authenticate", "open_session"], input: password + "\n")
        #expect(login.status == 0, "\(login.output)")
        #expect(
            login.moduleLines.first?.contains("the login password unlocked the keychain") == true,
            "\(login.output)"
        )
        #expect(try daemon.tool(alice.account.uid, ["find-generic-password", "-s", "S", "-w"]).stdout == "v\n")
        #expect(try daemon.tool(bob.account.uid, ["find-generic-password", "-s", "S", "-w"]).status != 0)
        // No daemon of the user's own was started: the system daemon serves them.
        #expect(alice.processIDs().isEmpty)
    }
}
