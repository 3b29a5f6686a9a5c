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

/// A throw-away account with a password, a home and a keychain of its own, served by the user's
/// own `securityd` (user mode), for the login tests.
final class LoginUser {
    let account: ThrowawayUser
    let home: URL
    let password: String

    /// The folder of the user's standard keychain.
    var keychain: URL { home.appendingPathComponent(".local/share/swift-keychain") }
    /// Where the user's daemon listens (no runtime folder: `/tmp/swift-keychain-UID`).
    var socket: String { "/tmp/swift-keychain-\(account.uid)/socket" }

    /// A user whose login password is `password`, with a keychain at the testing passcode cost.
    ///
    /// `nil` where users cannot be made. With `makesHome` false, the home does not exist.
    init?(_ label: String, password: String, makesHome: Bool = true) {
        // A home that is missing stays missing: the user cannot make a folder in /nonexistent-swkc.
        let home = URL(
            filePath: (makesHome ? "/tmp" : "/nonexistent-swkc") + "/swkc-login-\(UUID().uuidString.prefix(8))"
        )
        guard let account = ThrowawayUser.make(label, home: home) else { return nil }
        self.account = account
        self.home = home
        self.password = password
        guard account.setPassword(password) else { return nil }
        guard makesHome else { return }
        let keychain = home.appendingPathComponent(".local/share/swift-keychain")
        try? FileManager.default.createDirectory(at: keychain, withIntermediateDirectories: true)
        // The daemon's configuration, the user's own: no prompter, the testing cost.
        try? "pinentry = none\npasscode-cost = testing\n".write(
            to: keychain.appendingPathComponent("securityd.conf"),
            atomically: true,
            encoding: .utf8
        )
        for path in [
            home, home.appendingPathComponent(".local"), home.appendingPathComponent(".local/share"), keychain,
        ] {
            account.own(path)
            chmod(path.path, 0o700)
        }
        account.own(keychain.appendingPathComponent("securityd.conf"))
        chmod(keychain.appendingPathComponent("securityd.conf").path, 0o644)
    }

    deinit {
        account.killProcesses()
        account.delete()
        try? FileManager.default.removeItem(at: home)
        try? FileManager.default.removeItem(atPath: "/tmp/swift-keychain-\(account.uid)")
    }

    /// Runs `security arguments…` as the user, through their own daemon (started if need be).
    func security(_ arguments: [String], input: String = "") throws -> (status: Int32, output: String) {
        let environment = [
            "HOME=\(home.path)", "USER=\(account.name)", "PATH=/usr/bin:/bin", "KEYCHAIN_ENGINE=daemon",
            "KEYCHAIN_SECURITYD=\(PrivateDaemon.executable.path)",
        ]
        let result = try ProgramRun.run(
            URL(filePath: "/usr/bin/setpriv"),
            account.setprivArguments + ["/usr/bin/env", "-i"] + environment
                + [SecurityToolRunner.executable.path] + arguments,
            input: input
        )
        return (result.status, result.stdout + result.stderr)
    }

    /// `security status`'s lines as name → value.
    func status() throws -> [String: String] {
        let output = try security(["status"]).output
        var values: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            values[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return values
    }

    /// Whether the keychain is unlocked now.
    func isUnlocked() throws -> Bool { try status()["state"] == "unlocked" }

    /// Wrong passcodes counted so far.
    func failedAttempts() throws -> String? { try status()["failed passcode attempts"] }

    /// Sets `passcode`, stores an item, locks, and stops the daemon (the next login starts it).
    func prepareKeychain(passcode: String?, item: String = "in-the-keychain") throws {
        if let passcode {
            _ = try security(["passcode", "set"], input: "\(passcode)\n\(passcode)\n")
        }
        _ = try security(["add-generic-password", "-s", "Login", "-a", account.name, "-w", item])
        _ = try security(["lock"])
        account.killProcesses()
    }

    /// The item's secret, read without a passcode; `nil` when it cannot be read.
    func readItem() throws -> String? {
        let found = try security(["find-generic-password", "-s", "Login", "-w"])
        return found.status == 0 ? found.output.trimmingCharacters(in: .newlines) : nil
    }

    /// The process IDs of the user's processes.
    func processIDs() -> [Int32] {
        let output = (try? ProgramRun.run(URL(filePath: "/usr/bin/pgrep"), ["-U", "\(account.uid)"]))?.stdout ?? ""
        return output.split(separator: "\n").compactMap { Int32($0) }
    }
}
