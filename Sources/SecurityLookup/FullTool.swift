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

/// The full `security` tool, which `security-lookup` becomes for every command line it does
/// not answer: `security` in the same folder (`libexec/swift-keychain` when installed, the
/// build's folder otherwise).
enum FullTool {
    static let missing =
        "security: cannot find the full security tool beside security-lookup; reinstall it with Scripts/install.sh\n"

    /// Replaces this process with the full tool, given `arguments`; returns only to exit with a
    /// message when the tool cannot be run.
    static func run(_ arguments: [String]) -> Never {
        guard let program = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            fail(missing)
        }
        let tool = URL(fileURLWithPath: program).deletingLastPathComponent().appendingPathComponent("security").path
        guard access(tool, X_OK) == 0 else { fail(missing) }
        let argv = ([tool] + arguments).map { strdup($0) } + [nil]
        execv(tool, argv)
        fail("security: cannot run \(tool): \(String(cString: strerror(errno)))\n")
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data(message.utf8))
        exit(1)
    }
}
