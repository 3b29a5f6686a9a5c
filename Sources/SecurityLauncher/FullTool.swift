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

/// The full `security` tool, which the launcher becomes for every command it does not answer.
enum FullTool {
    /// Where the full tool is: `libexec/swift-keychain/security` of the installation
    /// (`Scripts/install.sh` puts this program in `bin` as `security`), else `security` in this
    /// program's folder (a build, where this program is `security-launcher`).
    static func locate() -> String? {
        guard let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let folder = URL(fileURLWithPath: program).deletingLastPathComponent()
        let installed = folder.deletingLastPathComponent().appendingPathComponent("libexec/swift-keychain/security").path
        if access(installed, X_OK) == 0 { return installed }
        let beside = folder.appendingPathComponent("security").path
        // Never this program itself, installed as `security` with no full tool.
        guard access(beside, X_OK) == 0, !isSameFile(beside, program) else { return nil }
        return beside
    }

    private static func isSameFile(_ first: String, _ second: String) -> Bool {
        var a = stat()
        var b = stat()
        guard stat(first, &a) == 0, stat(second, &b) == 0 else { return false }
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino
    }

    /// Replaces this process with the full tool, given `arguments`; returns only to exit with a
    /// message when the tool cannot be run.
    static func run(_ arguments: [String]) -> Never {
        guard let tool = locate() else {
            FileHandle.standardError.write(Data("security: cannot find the full security tool (libexec/swift-keychain/security in this installation); reinstall it with Scripts/install.sh\n".utf8))
            exit(1)
        }
        if ProcessInfo.processInfo.environment["KEYCHAIN_SECURITYD"] == nil, let daemon = installedDaemon(forTool: tool) {
            // An installed tool lives in libexec: it starts the securityd installed beside this program.
            setenv("KEYCHAIN_SECURITYD", daemon, 1)
        }
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        execv(tool, argv)
        let reason = String(cString: strerror(errno))
        FileHandle.standardError.write(Data("security: cannot run \(tool): \(reason)\n".utf8))
        exit(1)
    }

    /// The `securityd` beside this program, when the full tool is not in this program's folder.
    private static func installedDaemon(forTool tool: String) -> String? {
        guard let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        let folder = URL(fileURLWithPath: program).deletingLastPathComponent()
        guard URL(fileURLWithPath: tool).deletingLastPathComponent().path != folder.path else { return nil }
        let daemon = folder.appendingPathComponent("securityd").path
        return access(daemon, X_OK) == 0 ? daemon : nil
    }
}
