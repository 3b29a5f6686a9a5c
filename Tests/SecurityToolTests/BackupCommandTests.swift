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

/// `security backup`, `security backup --verify` and `security restore`, as a person or a script
/// runs them.
@Suite struct BackupCommandTests {
    /// A keychain with a passcode, a plain item, one guarded by the passcode and one that never
    /// leaves the device.
    static func keychain() throws -> SecurityToolRunner {
        let tool = SecurityToolRunner()
        #expect(try tool.run(["passcode", "set"], input: "2468\n2468\n").status == 0)
        let items = [
            ["-s", "Plain", "-w", "plain-secret"],
            ["-s", "Guarded", "-w", "guarded-secret", "--access-control", "devicePasscode"],
            ["-s", "Local", "-w", "local-secret", "--accessible", "WhenUnlockedThisDeviceOnly"],
        ]
        for item in items {
            #expect(try tool.run(["add-generic-password", "-a", "me"] + item, input: "2468\n").status == 0)
        }
        return tool
    }

    static func withFolder<T>(_ body: (URL) throws -> T) throws -> T {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("backup-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    @Test func aBackupMovesToAnotherKeychain() throws {
        let tool = try Self.keychain()
        defer { tool.remove() }
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("keychain.backup").path
            // The password twice, then the passcode once.
            let backup = try tool.run(["backup", file], input: "pass phrase\npass phrase\n2468\n")
            #expect(backup.status == 0, "\(backup.stderr)")
            #expect(backup.stdout.contains("backed up 2 items to \(file)"))
            #expect(backup.stdout.contains("left out: 1 …ThisDeviceOnly"))
            #expect(backup.stderr.contains("security: backup: 100% (3 of 3 items)"))
            for secret in ["pass phrase", "2468", "plain-secret", "guarded-secret"] {
                #expect(!backup.stdout.contains(secret) && !backup.stderr.contains(secret))
            }
            let verified = try tool.run(["backup", "--verify", file], input: "pass phrase\n")
            #expect(verified.stdout == "\(file): intact, 2 items\n")

            let bare = SecurityToolRunner()
            defer { bare.remove() }
            let restored = try bare.run(["restore", file], input: "pass phrase\n")
            #expect(restored.status == 0, "\(restored.stderr)")
            #expect(restored.stdout.contains("1 added"))
            #expect(restored.stdout.contains("1 not restored (their access control needs a passcode"))
            #expect(try bare.run(["find-generic-password", "-s", "Plain", "-w"]).stdout == "plain-secret\n")
            #expect(try bare.run(["find-generic-password", "-s", "Local"]).status == 44)

            let guarded = SecurityToolRunner()
            defer { guarded.remove() }
            #expect(try guarded.run(["passcode", "set"], input: "1357\n1357\n").status == 0)
            let all = try guarded.run(["restore", file], input: "pass phrase\n1357\n")
            #expect(all.stdout.contains("2 added"), "\(all.stderr)")
            let read = try guarded.run(["find-generic-password", "-s", "Guarded", "-w"], input: "1357\n1357\n")
            #expect(read.stdout == "guarded-secret\n")
            let again = try guarded.run(["restore", file], input: "pass phrase\n1357\n")
            #expect(again.stdout.contains("0 added") && again.stdout.contains("2 kept"))
        }
    }

    @Test func wrongOrMismatchedPasswordsAreClearErrors() throws {
        let tool = try Self.keychain()
        defer { tool.remove() }
        try Self.withFolder { folder in
            let file = folder.appendingPathComponent("keychain.backup").path
            let mismatched = try tool.run(["backup", file], input: "one\ntwo\none\ntwo\none\ntwo\n")
            #expect(mismatched.status == 1)
            #expect(mismatched.stderr.contains("passwords don't match"))
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)

            #expect(try tool.run(["backup", file], input: "right\nright\n2468\n").status == 0)
            let wrong = try tool.run(["restore", file], input: "wrong\n2468\n")
            #expect(wrong.status == 1)
            #expect(
                wrong.stderr
                    == "backup password: keychain passcode: security: restore: the password or key does not open this backup\n"
            )
            // The passcode was right: the wrong backup password counted nothing against it.
            #expect(try tool.run(["status"]).stdout.contains("failed passcode attempts: 0"))
            let notABackup = folder.appendingPathComponent("notes.txt")
            try Data("just some notes, long enough to be a header of something".utf8).write(to: notABackup)
            let foreign = try tool.run(["backup", "--verify", notABackup.path], input: "right\n")
            #expect(foreign.stderr.contains("the file is not a swift-keychain backup"))
        }
    }

    @Test func aBackupToAKeyIsRestoredWithItsPrivateKey() throws {
        let tool = try Self.keychain()
        defer { tool.remove() }
        try Self.withFolder { folder in
            let key = folder.appendingPathComponent("key.pem").path
            let publicKey = folder.appendingPathComponent("pub.pem").path
            try CertificateCommandTests.openssl(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key])
            try CertificateCommandTests.openssl(["ec", "-in", key, "-pubout", "-out", publicKey])
            let file = folder.appendingPathComponent("nightly.backup").path
            // No password to type: only the passcode, for the guarded item.
            let backup = try tool.run(["backup", "--to-key", publicKey, file], input: "2468\n")
            #expect(backup.status == 0, "\(backup.stderr)")
            #expect(try tool.run(["backup", "--verify", "--key", key, file]).stdout == "\(file): intact, 2 items\n")
            let other = SecurityToolRunner()
            defer { other.remove() }
            let restored = try other.run(["restore", "--key", key, file])
            #expect(restored.stdout.contains("1 added"), "\(restored.stderr)")
            let byPassword = try other.run(["restore", file], input: "guess\n")
            #expect(byPassword.stderr.contains("the password or key does not open this backup"))
        }
    }
}
