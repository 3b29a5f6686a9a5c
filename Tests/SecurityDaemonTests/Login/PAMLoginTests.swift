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
import KeychainCore
import KeychainTestSupport
import Testing

/// `pam_swift_keychain.so` in a real PAM stack — `pam_unix` checking throw-away users'
/// passwords in `/etc/shadow`, through `pamtester` under pam_wrapper — hands the login password to
/// each user's own keychain daemon (issue 39).
@Suite(
    .serialized,
    .enabled(
        if: PAMStack.unavailableReason == nil && ThrowawayUser.unavailableReason == nil,
        "needs root, pamtester, libpam-wrapper, libpam0g-dev and a C compiler"
    )
)
struct PAMLoginTests {
    static let password = "Corr3ct-Horse-Battery"

    /// The auth lines of Debian's common-auth with the module added: pam_unix checks the password.
    static let checksPassword = [
        "auth [success=1 default=ignore] pam_unix.so",
        "auth requisite pam_deny.so",
        "auth required pam_permit.so",
        "auth optional MODULE",
    ]

    /// A stack as Debian's common-auth, common-password and common-session would have it with
    /// the module added (`auto_start`: the module starts the user's daemon): `auth` its auth lines,
    /// `sessionFirst` lines before the session's.
    static func stack(
        auth: [String] = checksPassword,
        sessionFirst: [String] = [],
        session options: String = "auto_start",
        securityd: String = PrivateDaemon.executable.path,
        systemWide: Bool = false
    ) throws -> PAMStack {
        try PAMStack(
            auth + [
                "account required pam_unix.so",
                "password [success=1 default=ignore] pam_unix.so",
                "password requisite pam_deny.so",
                "password required pam_permit.so",
                "password optional MODULE",
            ] + sessionFirst + [
                "session required pam_unix.so",
                // A daemon started in a starved test run may take longer than the 10 s default.
                "session optional MODULE start_timeout=180 \(options) securityd=\(securityd)",
            ],
            systemWide: systemWide
        )
    }

    @Test func aLoginUnlocksTheKeychainAndAPasswordChangeTheKeychainFollows() throws {
        guard let user = LoginUser("pamok", password: Self.password),
            let other = LoginUser("pamot", password: Self.password)
        else { return }
        let stack = try Self.stack()
        defer { stack.remove() }
        try user.prepareKeychain(passcode: Self.password)
        // Another user whose passcode is the same password: a login of the first opens nothing of theirs.
        try other.prepareKeychain(passcode: Self.password)
        _ = try other.status()
        #expect(try !other.isUnlocked())

        // No daemon runs: the module starts the user's, as the user, and the password unlocks it.
        #expect(user.processIDs().isEmpty)
        let login = try stack.logIn(user, password: Self.password)
        #expect(login.status == 0, "\(login.output)")
        #expect(login.moduleLines.count == 1)
        #expect(
            login.moduleLines.first?.contains("the login password unlocked the keychain") == true,
            "\(login.output)"
        )
        #expect(try user.readItem() == "in-the-keychain")
        #expect(try user.failedAttempts() == "0")
        #expect(try !other.isUnlocked())
        #expect(other.processIDs().count == 1, "the other user's daemon was not left alone")

        // A wrong password fails at pam_unix: the module hands nothing, nothing is counted.
        _ = try user.security(["lock"])
        let wrong = try stack.run(user: user.account.name, ["authenticate", "open_session"], input: "not-it\n")
        #expect(wrong.status != 0)
        #expect(try !user.isUnlocked())
        #expect(try user.failedAttempts() == "0")

        // passwd as the user (real uid theirs, effective root): the passcode follows the change.
        // The loader ignores pam_wrapper for such a program: the service is in /etc/pam.d, and the
        // module's line goes to syslog.
        let passwd = try Self.stack(systemWide: true)
        defer { passwd.remove() }
        let newPassword = "N3w-Staple-Orbit"
        let change = try passwd.run(
            user: user.account.name,
            ["chauthtok"],
            input: "\(Self.password)\n\(newPassword)\n\(newPassword)\n",
            realUserID: user.account.uid
        )
        #expect(change.status == 0, "\(change.output)")
        _ = try user.security(["lock"])
        #expect(try user.security(["unlock"], input: Self.password + "\n").status != 0)
        #expect(try user.security(["unlock"], input: newPassword + "\n").status == 0)
        #expect(try user.readItem() == "in-the-keychain")

        // The next login takes the new password.
        _ = try user.security(["lock"])
        let again = try stack.logIn(user, password: newPassword)
        #expect(again.status == 0)
        #expect(try user.isUnlocked())
    }

    @Test func aKeychainWhosePasscodeIsAnotherStaysLockedAndNothingIsCounted() throws {
        guard let user = LoginUser("pamdf", password: Self.password) else { return }
        let stack = try Self.stack()
        defer { stack.remove() }
        try user.prepareKeychain(passcode: "another-passcode")
        let login = try stack.logIn(user, password: Self.password)
        #expect(login.status == 0, "the login failed because of the keychain: \(login.output)")
        #expect(login.moduleLines.first?.contains("is not the keychain's passcode") == true, "\(login.output)")
        #expect(try !user.isUnlocked())
        #expect(try user.failedAttempts() == "0")
        // A password change whose old password is not the passcode leaves the passcode.
        let passwd = try Self.stack(systemWide: true)
        defer { passwd.remove() }
        let change = try passwd.run(
            user: user.account.name,
            ["chauthtok"],
            input: "\(Self.password)\nSomething-Else-9\nSomething-Else-9\n",
            realUserID: user.account.uid
        )
        #expect(change.status == 0, "\(change.output)")
        #expect(try user.security(["unlock"], input: "another-passcode\n").status == 0)
        #expect(try user.failedAttempts() == "0")
    }

    @Test func aFirstLoginCanSetThePasscode() throws {
        guard let user = LoginUser("pamfs", password: Self.password) else { return }
        try user.prepareKeychain(passcode: nil)
        // Off by default: a keychain without a passcode stays without one.
        let plain = try Self.stack()
        defer { plain.remove() }
        let first = try plain.logIn(user, password: Self.password)
        #expect(first.moduleLines.first?.contains("has no passcode") == true, "\(first.output)")
        #expect(try user.status()["passcode"] == "not set")
        let setting = try Self.stack(session: "auto_start set_passcode_on_first_login")
        defer { setting.remove() }
        let second = try setting.logIn(user, password: Self.password)
        #expect(
            second.moduleLines.first?.contains("took the login password as its passcode") == true,
            "\(second.output)"
        )
        _ = try user.security(["lock"])
        #expect(try user.readItem() == nil)
        #expect(try user.security(["unlock"], input: Self.password + "\n").status == 0)
        #expect(try user.readItem() == "in-the-keychain")
    }

    @Test func theLoginProceedsWhateverBecomesOfTheKeychain() throws {
        guard let user = LoginUser("pamft", password: Self.password) else { return }
        try user.prepareKeychain(passcode: Self.password)

        // No daemon, and the module may not start one: one line, the login goes on.
        let noStart = try Self.stack(session: "")
        defer { noStart.remove() }
        let alone = try noStart.logIn(user, password: Self.password)
        #expect(alone.status == 0)
        #expect(alone.moduleLines.count == 1)
        #expect(alone.moduleLines.first?.contains("no keychain daemon at") == true, "\(alone.output)")
        #expect(user.processIDs().isEmpty)

        // A login with no password in the stack (root's su, a key, a finger): nothing to hand over.
        let rootOK = try Self.stack(auth: ["auth sufficient pam_rootok.so", "auth optional MODULE"])
        defer { rootOK.remove() }
        let su = try rootOK.run(user: user.account.name, ["authenticate", "open_session"], input: "")
        #expect(su.status == 0)
        #expect(su.moduleLines.first?.contains("no login password") == true, "\(su.output)")
        #expect(user.processIDs().isEmpty)

        // pam_wrapper's pam_matrix wipes the password it checked: an empty one is none.
        let passwords = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swkc-matrix-\(UUID().uuidString)"
        )
        try "\(user.account.name):\(Self.password):\(PAMStack.service)\n".write(
            to: passwords,
            atomically: true,
            encoding: .utf8
        )
        defer { try? FileManager.default.removeItem(at: passwords) }
        let matrix = try Self.stack(auth: [
            "auth required \(PAMStack.matrix) passdb=\(passwords.path)", "auth optional MODULE",
        ])
        defer { matrix.remove() }
        let wiped = try matrix.logIn(user, password: Self.password)
        #expect(wiped.status == 0)
        #expect(wiped.moduleLines.first?.contains("no login password") == true, "\(wiped.output)")

        // A password longer than any passcode (pam_unix takes at most 512 bytes: pam_wrapper's
        // pam_set_items stands for a module that verified a longer one) is not sent.
        let setItems = try Self.stack(auth: ["auth required \(PAMStack.setItems)", "auth optional MODULE"])
        defer { setItems.remove() }
        let tooLong = try setItems.run(
            user: user.account.name,
            ["authenticate", "open_session"],
            input: "",
            environment: ["PAM_AUTHTOK": String(repeating: "x", count: 1500)]
        )
        #expect(tooLong.status == 0, "\(tooLong.output)")
        #expect(tooLong.moduleLines.first?.contains("longer than any passcode") == true, "\(tooLong.output)")
        #expect(user.processIDs().isEmpty)
        let stack = try Self.stack()
        defer { stack.remove() }

        // Two logins at once: one daemon, both logins through, the keychain unlocked.
        let group = DispatchGroup()
        let outcomes = LockedState<[PAMStack.Run]>([])
        let name = user.account.name
        for _ in 0..<2 {
            group.enter()
            DispatchQueue.global().async {
                if let run = try? stack.run(user: name, ["authenticate", "open_session"], input: Self.password + "\n") {
                    outcomes.withLock { $0.append(run) }
                }
                group.leave()
            }
        }
        group.wait()
        let runs = outcomes.withLock { $0 }
        #expect(runs.count == 2)
        #expect(runs.allSatisfy { $0.status == 0 })
        #expect(try user.isUnlocked())
        // The start that lost the race (a daemon finding the keychain taken, the module's first
        // child) may still be on its way out: one process stays.
        let deadline = Date().addingTimeInterval(60)
        while user.processIDs().count > 1, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        #expect(user.processIDs().count == 1, "two daemons for one keychain")
    }

    @Test func aDaemonThatNeverListensHoldsTheLoginForItsStartTimeoutAlone() throws {
        guard let user = LoginUser("pamst", password: Self.password) else { return }
        // A securityd only root can change that never says it listens.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swkc-silent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        chmod(folder.path, 0o755)
        let silent = folder.appendingPathComponent("securityd")
        try "#!/bin/sh\nexec /bin/sleep 60\n".write(to: silent, atomically: true, encoding: .utf8)
        chmod(silent.path, 0o755)
        defer { user.account.killProcesses() }

        // The last valid start_timeout= counts; one that is not 1 to 600 seconds is logged and skipped.
        let stack = try Self.stack(session: "auto_start start_timeout=1x start_timeout=3", securityd: silent.path)
        defer { stack.remove() }
        let started = ContinuousClock.now
        let login = try stack.logIn(user, password: Self.password)
        let waited = ContinuousClock.now - started
        #expect(login.status == 0, "\(login.output)")
        #expect(login.moduleLines.contains { $0.contains("did not start") }, "\(login.output)")
        #expect(
            login.logLines.contains { $0.contains("start_timeout=1x is not a number of seconds") },
            "\(login.output)"
        )
        // 3 s, not the stack's 180 s (the upper bound leaves a starved machine nearly a minute).
        #expect(waited >= .seconds(3))
        #expect(waited < .seconds(60))
    }

    @Test func aUserWithoutAHomeLogsInAndTheKeychainIsLeftAlone() throws {
        guard let user = LoginUser("pamnh", password: Self.password, makesHome: false) else { return }
        let stack = try Self.stack()
        defer { stack.remove() }
        let login = try stack.logIn(user, password: Self.password)
        #expect(login.status == 0, "\(login.output)")
        #expect(login.moduleLines.count == 1)
        #expect(login.moduleLines.first?.contains("was left as it was") == true, "\(login.output)")
    }

    @Test func thePasswordAppearsInNoLogOutputEnvironmentOrCommandLine() throws {
        guard let user = LoginUser("pamsc", password: Self.password) else { return }
        let stack = try Self.stack(session: "auto_start debug")
        defer { stack.remove() }
        try user.prepareKeychain(passcode: Self.password)
        let login = try stack.logIn(user, password: Self.password)
        #expect(try user.isUnlocked())
        #expect(!login.logLines.joined().contains(Self.password))
        let daemons = user.processIDs()
        #expect(daemons.count == 1)
        for daemon in daemons {
            let environment = (try? Data(contentsOf: URL(filePath: "/proc/\(daemon)/environ"))) ?? Data()
            let commandLine = (try? Data(contentsOf: URL(filePath: "/proc/\(daemon)/cmdline"))) ?? Data()
            #expect(!environment.isEmpty)
            #expect(environment.range(of: Data(Self.password.utf8)) == nil)
            #expect(commandLine.range(of: Data(Self.password.utf8)) == nil)
            // Only what the module gave it: no variable of the PAM host (pamtester's LD_PRELOAD).
            #expect(environment.range(of: Data("LD_PRELOAD".utf8)) == nil)
        }
        let log = (try? Data(contentsOf: URL(filePath: user.socket + ".log"))) ?? Data()
        #expect(!log.isEmpty, "the daemon the module started logs beside its socket")
        #expect(log.range(of: Data(Self.password.utf8)) == nil)
    }

    @Test func aPasswordCheckedForOneUserNeverReachesAnother() throws {
        guard let alice = LoginUser("pamal", password: Self.password),
            let bob = LoginUser("pambo", password: "Bobs-0wn-Password")
        else { return }
        // Bob's keychain has Alice's password as its passcode, and his daemon runs.
        try bob.prepareKeychain(passcode: Self.password)
        _ = try bob.status()
        // sudo -u bob: Alice's password is checked, Bob's session opens (pam_set_items stands for
        // sudo, which changes the user between the two).
        let sudo = try Self.stack(sessionFirst: ["session required \(PAMStack.setItems)"])
        defer { sudo.remove() }
        let run = try sudo.run(
            user: alice.account.name,
            ["authenticate", "open_session"],
            input: Self.password + "\n",
            environment: ["PAM_USER": bob.account.name]
        )
        #expect(run.status == 0, "\(run.output)")
        #expect(run.moduleLines.first?.contains("checked for another user") == true, "\(run.output)")
        #expect(try !bob.isUnlocked())
    }

    @Test func aFolderOrDaemonAnotherUserPlantedIsNeverUsed() throws {
        guard let user = LoginUser("pampl", password: Self.password),
            let intruder = ThrowawayUser.make("intrud")
        else { return }
        try user.prepareKeychain(passcode: Self.password)
        // Another user made the folder of the user's socket first (no runtime folder: /tmp).
        let folder = URL(filePath: "/tmp/swift-keychain-\(user.account.uid)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        intruder.own(folder)
        chmod(folder.path, 0o700)
        defer { try? FileManager.default.removeItem(at: folder) }
        let stack = try Self.stack()
        defer { stack.remove() }
        let planted = try stack.logIn(user, password: Self.password)
        #expect(planted.status == 0, "\(planted.output)")
        #expect(planted.moduleLines.first?.contains("does not belong to the user alone") == true, "\(planted.output)")
        #expect(user.processIDs().isEmpty)
        try FileManager.default.removeItem(at: folder)

        // A securityd that someone else than root could have replaced is never run as the user.
        let writable = user.home.appendingPathComponent("securityd")
        try FileManager.default.copyItem(at: PrivateDaemon.executable, to: writable)
        user.account.own(writable)
        let replaced = try Self.stack(securityd: writable.path)
        defer { replaced.remove() }
        let refused = try replaced.logIn(user, password: Self.password)
        #expect(refused.status == 0)
        #expect(
            refused.moduleLines.first?.contains("no securityd that only root can change") == true,
            "\(refused.output)"
        )
        #expect(user.processIDs().isEmpty)
    }
}

extension PAMStack {
    /// `pamtester`'s `authenticate` then `open_session` for `user`, typing `password`.
    func logIn(_ user: LoginUser, password: String) throws -> Run {
        try run(user: user.account.name, ["authenticate", "open_session"], input: password + "\n")
    }
}
