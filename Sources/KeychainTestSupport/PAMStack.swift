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

/// A PAM service with `pam_swift_keychain.so` in it, run through `pamtester` under pam_wrapper,
/// for one test: the module built from `Sources/PAMModule` with the system's C compiler (as
/// `Scripts/install.sh` builds it), a service folder of the test's own, no file of `/etc/pam.d`
/// touched — or, for a program that runs with a real uid not its effective one (`passwd` as a
/// user), where the loader ignores `LD_PRELOAD`, a service file of its own in `/etc/pam.d`
/// (root), removed with ``remove()``.
///
/// pam_wrapper (Debian's `libpam-wrapper`) makes libpam read the service from the test's folder;
/// the modules named in it are the real ones (`pam_unix` checks `/etc/shadow`, which needs root)
/// or pam_wrapper's `pam_matrix`, whose passwords are a file. Each module's `pam_syslog` lines
/// come out on pamtester's standard error (`PAM_WRAPPER_DEBUGLEVEL=2`), which ``Run/logLines``
/// collects.
package struct PAMStack: Sendable {
    /// The service's name in a folder of the test's own.
    package static let service = "swkc-login"
    /// pam_wrapper's password module.
    package static let matrix = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_matrix.so"
    /// pam_wrapper's module that sets PAM items from the environment (`PAM_AUTHTOK`, `PAM_USER`…).
    package static let setItems = "/usr/lib/x86_64-linux-gnu/pam_wrapper/pam_set_items.so"

    /// Why the stack cannot run here, or `nil` if it can.
    package static var unavailableReason: String? {
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/pamtester") {
            return "no pamtester (Debian pamtester)"
        }
        if !FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libpam_wrapper.so") {
            return "no pam_wrapper (Debian libpam-wrapper)"
        }
        if !FileManager.default.fileExists(atPath: "/usr/include/security/pam_modules.h") {
            return "no PAM headers (Debian libpam0g-dev)"
        }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/cc") { return "no C compiler" }
        return nil
    }

    /// The module, built once per test process.
    package static func module() throws -> URL {
        try built.get()
    }

    private static let built: Result<URL, any Error> = Result {
        let sources = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PAMModule")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swkc-pam-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // Readable by the throw-away users a test logs in (the module loads into pamtester, root).
        chmod(folder.path, 0o755)
        let module = folder.appendingPathComponent("pam_swift_keychain.so")
        let files = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasSuffix(".c") }
            .map { sources.appendingPathComponent($0).path }
        let result = try ProgramRun.run(
            URL(filePath: "/usr/bin/cc"),
            ["-shared", "-fPIC", "-O2", "-fvisibility=hidden", "-Wall", "-Wextra", "-Werror", "-o", module.path]
                + files + ["-lpam"]
        )
        guard result.status == 0 else { throw BuildFailed(output: result.stdout + result.stderr) }
        return module
    }

    struct BuildFailed: Error, CustomStringConvertible {
        var output: String
        var description: String { "pam_swift_keychain.so did not build:\n\(output)" }
    }

    /// The folder of the service file.
    package let folder: URL
    /// The service's name.
    package let name: String
    /// Whether the service file is in `/etc/pam.d` (no pam_wrapper).
    package let isSystemWide: Bool

    /// A service whose file holds `lines` (`MODULE` stands for the module's path); `systemWide`,
    /// in `/etc/pam.d`.
    package init(_ lines: [String], systemWide: Bool = false) throws {
        isSystemWide = systemWide
        if systemWide {
            folder = URL(filePath: "/etc/pam.d")
            name = "swkc-test-\(UUID().uuidString.prefix(8).lowercased())"
        } else {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "swkc-pam-service-\(UUID().uuidString)"
            )
            name = Self.service
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        let module = try Self.module().path
        let text = lines.map { $0.replacingOccurrences(of: "MODULE", with: module) }.joined(separator: "\n") + "\n"
        try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    /// What one pamtester run did.
    package struct Run: Sendable {
        package var status: Int32
        package var output: String
        /// The lines the modules logged (`pam_syslog`).
        package var logLines: [String] {
            output.split(separator: "\n").compactMap { line in
                line.range(of: "SYSLOG(").map { String(line[$0.lowerBound...]) }
            }
        }
        /// The lines `pam_swift_keychain.so` logged (those naming the keychain).
        package var moduleLines: [String] { logLines.filter { $0.contains("keychain") } }
    }

    /// Runs `pamtester` for `user` with `operations` (`authenticate`, `open_session`,
    /// `chauthtok`…), `input` on its standard input (the answers to its prompts); with
    /// `realUserID`, under that real uid (effective uid root), as `passwd` runs for a user; with
    /// `extra` in its environment (pam_wrapper's `pam_set_items` reads items from there).
    package func run(
        user: String,
        _ operations: [String],
        input: String,
        realUserID: UInt32? = nil,
        environment extra: [String: String] = [:]
    ) throws -> Run {
        var environment = ProcessInfo.processInfo.environment.merging(extra) { $1 }
        if !isSystemWide {
            environment["LD_PRELOAD"] = "libpam_wrapper.so"
            environment["PAM_WRAPPER"] = "1"
            environment["PAM_WRAPPER_SERVICE_DIR"] = folder.path
            environment["PAM_WRAPPER_DEBUGLEVEL"] = "2"
        }
        let pamtester = ["/usr/bin/pamtester", "-v", name, user] + operations
        let command = realUserID.map { ["/usr/bin/setpriv", "--ruid=\($0)", "--"] + pamtester } ?? pamtester
        let result = try ProgramRun.run(
            URL(filePath: command[0]),
            Array(command.dropFirst()),
            environment: environment,
            input: input
        )
        return Run(status: result.status, output: result.stdout + result.stderr)
    }

    /// Removes the service's file (and its folder, unless it is `/etc/pam.d`).
    package func remove() {
        try? FileManager.default.removeItem(at: isSystemWide ? folder.appendingPathComponent(name) : folder)
    }
}
