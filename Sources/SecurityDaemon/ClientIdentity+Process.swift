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

// `struct stat`'s fields need the module that declared it for Swift (see DaemonLog).
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// Reading a client's identity from `/proc`.
extension ClientIdentity {
    /// The identity of process `processID`, whose `/proc` folder is `proc` (for tests).
    ///
    /// - Parameters:
    ///   - processID: The client's process ID.
    ///   - proc: The `/proc` folder to read it from.
    ///   - baseline: The confinement a client must exceed to count as sandboxed when the
    ///     daemon cannot look into its root: what confines every process here (`nil`, see
    ///     ``isConfined(processID:proc:baseline:)``), or none at all for a system-mode daemon, which
    ///     cannot look into any user's processes.
    /// - Returns: The Flatpak app the process runs, or whether it is unsandboxed or cannot be verified.
    static func of(processID: Int32, proc: String = "/proc", baseline: Confinement? = nil) -> ClientIdentity {
        let root = "\(proc)/\(processID)/root"
        // Never blocking (a FIFO put there would stop the event loop), and only a regular file.
        let descriptor = open(root + "/.flatpak-info", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        if descriptor >= 0 {
            defer { close(descriptor) }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .unverifiable }
            guard let appID = flatpakAppID(Self.read(descriptor, limit: 64 << 10)) else { return .unverifiable }
            return .flatpak(appID: appID)
        }
        let reason = errno
        // No such file under a root the daemon could look into: no Flatpak sandbox.
        if reason == ENOENT, access(root + "/", F_OK) == 0 { return .unsandboxed }
        // The root is closed to the daemon (a non-dumpable process of the same user). The tool and
        // hardened programs are non-dumpable too; sandboxes also set no_new_privs and seccomp
        // filters, which a process cannot undo.
        return isConfined(processID: processID, proc: proc, baseline: baseline) ? .unverifiable : .unsandboxed
    }

    /// The `name` of the `[Application]` group of a `.flatpak-info` key file.
    static func flatpakAppID(_ text: String) -> String? {
        var inApplication = false
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                inApplication = line == "[Application]"
            } else if inApplication, line.hasPrefix("name=") {
                let name = String(line.dropFirst(5))
                // Flatpak's app ids: reverse-DNS names of ASCII letters, digits, `_`, `-` and dots.
                let wellFormed = name.utf8.count <= 255 && name.contains(".") && name.utf8.allSatisfy(isAppIDByte)
                return wellFormed ? name : nil
            }
        }
        return nil
    }

    private static func isAppIDByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default:
            false
        }
    }

    /// Whether the process runs more confined than every process here: `no_new_privs` the baseline
    /// lacks, or a stricter seccomp mode or more seccomp filters (as a sandbox adds).
    ///
    /// The baseline is what confines every process of this machine or container (Docker's seccomp
    /// profile confines them all, and none of them is a sandbox): the lesser of this daemon's own
    /// confinement and that of the first process it can see (PID 1). Never the daemon's alone: the
    /// shipped unit (`NoNewPrivileges=`, `LockPersonality=`, …) confines the daemon as much as
    /// Flatpak confines an app, and a hardened app would then pass for an unsandboxed program and
    /// read every `default` item. A status that cannot be read counts as confined; a PID 1 that
    /// cannot be read (`/proc` mounted with `hidepid`) as unconfined, which judges clients strictly.
    static func isConfined(processID: Int32, proc: String, baseline: Confinement? = nil) -> Bool {
        guard let client = Confinement(statusOf: "\(proc)/\(processID)/status") else { return true }
        let floor = baseline ?? (proc == "/proc" ? Confinement.machineBaseline : Confinement.baseline(proc: proc))
        return client.exceeds(floor)
    }

    /// What `/proc/PID/status` says of a process's confinement.
    struct Confinement: Sendable {
        var noNewPrivileges: Bool
        var seccompMode: Int
        var seccompFilters: Int

        static let ofThisProcess = Confinement(statusOf: "/proc/self/status")
        /// No `no_new_privs`, no seccomp.
        static let none = Confinement(noNewPrivileges: false, seccompMode: 0, seccompFilters: 0)
        /// What confines every process here, from the real `/proc` (PID 1's confinement does not change).
        static let machineBaseline = baseline(proc: "/proc")

        /// The lesser of this process's confinement and PID 1's in `proc`; `none` for one that
        /// cannot be read.
        static func baseline(proc: String) -> Confinement {
            let own = ofThisProcess ?? .none
            let first = Confinement(statusOf: "\(proc)/1/status") ?? .none
            return own.lesser(first)
        }

        /// What both `self` and `other` impose.
        func lesser(_ other: Confinement) -> Confinement {
            Confinement(
                noNewPrivileges: noNewPrivileges && other.noNewPrivileges,
                seccompMode: min(seccompMode, other.seccompMode),
                seccompFilters: min(seccompFilters, other.seccompFilters)
            )
        }

        /// Whether `self` is confined beyond `baseline`.
        func exceeds(_ baseline: Confinement) -> Bool {
            (noNewPrivileges && !baseline.noNewPrivileges) || seccompMode > baseline.seccompMode
                || seccompFilters > baseline.seccompFilters
        }

        init(noNewPrivileges: Bool, seccompMode: Int, seccompFilters: Int) {
            self.noNewPrivileges = noNewPrivileges
            self.seccompMode = seccompMode
            self.seccompFilters = seccompFilters
        }

        init?(statusOf path: String) {
            guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
            var fields: [String: Int] = [:]
            for line in status.split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, let value = Int(parts[1]) { fields[parts[0]] = value }
            }
            // A kernel too old to report them reports none: assume the worst of the client.
            guard let noNewPrivileges = fields["NoNewPrivs"], let mode = fields["Seccomp"] else { return nil }
            self.init(
                noNewPrivileges: noNewPrivileges != 0,
                seccompMode: mode,
                seccompFilters: fields["Seccomp_filters"] ?? 0
            )
        }
    }

    private static func read(_ descriptor: Int32, limit: Int) -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
