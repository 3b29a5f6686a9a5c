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

package import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A system user made for one test and removed after it, to act as "another local user".
///
/// Needs root (`useradd`); ``make(_:)`` returns `nil` otherwise, and the test prints why it skips.
package final class ThrowawayUser: @unchecked Sendable {
    package private(set) var name: String
    package let uid: UInt32
    private var isDeleted = false
    package let gid: UInt32

    private init(name: String, uid: UInt32, gid: UInt32) {
        self.name = name
        self.uid = uid
        self.gid = gid
    }

    /// Why users cannot be made here, or `nil` if they can.
    package static var unavailableReason: String? {
        if geteuid() != 0 { return "not running as root: cannot create throw-away users" }
        if !FileManager.default.isExecutableFile(atPath: "/usr/sbin/useradd") { return "no useradd on this machine" }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") { return "no setpriv on this machine" }
        return nil
    }

    /// A new user named after `label` (with the uid `uid`, else a free one), or `nil` (with the
    /// reason printed) where that is impossible.
    package static func make(_ label: String, uid: UInt32? = nil, home: URL? = nil) -> ThrowawayUser? {
        make(named: "kc\(label.prefix(6))\(UInt16.random(in: 0...UInt16.max))", uid: uid, home: home)
    }

    /// A new user called `name` (which must not exist), removed when this is released; with
    /// `home`, that is their home folder (not created: the test makes it, or tests its absence).
    package static func make(named name: String, uid: UInt32? = nil, home: URL? = nil) -> ThrowawayUser? {
        if let reason = unavailableReason {
            print("skipping the other-user part: \(reason)")
            return nil
        }
        // useradd fails while another holds /etc/passwd's lock (tests run in parallel): retry.
        var status: Int32 = -1
        for _ in 0..<20 where status != 0 {
            status = run(
                "/usr/sbin/useradd",
                ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "--user-group", name]
                    + (uid.map { ["--uid", "\($0)"] } ?? []) + (home.map { ["--home-dir", $0.path] } ?? [])
            )
            if status != 0 { Thread.sleep(forTimeInterval: 0.25) }
        }
        guard status == 0, let entry = getpwnam(name) else {
            print("skipping the other-user part: useradd \(name) failed")
            return nil
        }
        return ThrowawayUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }

    deinit {
        if !isDeleted { delete() }
    }

    /// Deletes the account now (its uid is then free for another).
    package func delete() {
        for _ in 0..<20 where Self.run("/usr/sbin/userdel", [name]) != 0 {
            Thread.sleep(forTimeInterval: 0.25)
        }
        isDeleted = true
    }

    /// Renames the account (`usermod -l`): the same uid and home, another name.
    package func rename(to newName: String) -> Bool {
        var status: Int32 = -1
        for _ in 0..<20 where status != 0 {
            status = Self.run("/usr/sbin/usermod", ["-l", newName, name])
            if status != 0 { Thread.sleep(forTimeInterval: 0.25) }
        }
        if status == 0 { name = newName }
        return status == 0
    }

    /// `setpriv` arguments that run the rest of the command line as this user.
    package var setprivArguments: [String] {
        ["--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--"]
    }

    /// Runs `path arguments…` as this user; its exit status and output (standard output, then error).
    package func run(_ path: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let result = try ProgramRun.run(
            URL(filePath: "/usr/bin/setpriv"),
            setprivArguments + [path] + arguments,
            input: nil
        )
        return (result.status, result.stdout + result.stderr)
    }

    /// Sets the account's password (`chpasswd`, as root); whether it did.
    @discardableResult
    package func setPassword(_ password: String) -> Bool {
        for _ in 0..<20 {
            let result = try? ProgramRun.run(URL(filePath: "/usr/sbin/chpasswd"), [], input: "\(name):\(password)\n")
            if result?.status == 0 { return true }
            Thread.sleep(forTimeInterval: 0.25)
        }
        return false
    }

    /// Kills every process of this user (their daemons), and waits until none is left.
    package func killProcesses() {
        for _ in 0..<50 {
            Self.run("/usr/bin/pkill", ["-KILL", "-U", "\(uid)"])
            if Self.run("/usr/bin/pgrep", ["-U", "\(uid)"]) != 0 { return }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Gives `path` to this user.
    package func own(_ path: URL) {
        chown(path.path, uid, gid)
    }

    @discardableResult
    private static func run(_ path: String, _ arguments: [String]) -> Int32 {
        (try? ProgramRun.run(URL(filePath: path), arguments, input: nil))?.status ?? -1
    }
}
