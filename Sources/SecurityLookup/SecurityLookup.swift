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

import CKeychainSystem
import Foundation
import KeychainDevice
import SecurityCommandLine

/// `security-lookup`: answers the command line scripts run most — a password look-up
/// (`find-generic-password … -w`) in a keychain that `securityd` serves — and hands every other
/// command line, unchanged, to the full tool (`SecurityTool`) beside it.
///
/// The installed `security` (`SecurityLauncher`) runs it for the `find-…-password` commands.
///
/// The full tool links the engine, SQLite, swift-crypto and ArgumentParser, and starting it costs
/// several times what the look-up itself costs; this program links only the wire format and the
/// transport to the daemon. Whatever it does not answer with the password — an option it does not
/// take, no daemon, an item that asks for authentication, no such item — the full tool runs from
/// the start, so that every message, prompt and exit status is the tool's own.
@main
enum SecurityLookup {
    static func main() {
        // A password passes through this process: no core dumps, no reading of its memory by others.
        _ = c_keychain_disable_core_files()
        _ = c_keychain_set_non_dumpable()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let lookup = PasswordLookup(arguments), let password = DaemonLookup.password(for: lookup) {
            writeLine(PasswordLine.render(password))
            exit(0)
        }
        FullTool.run(arguments)
    }

    /// Writes `line` and a newline to standard output, unbuffered (what the full tool's `print`
    /// leaves there when it exits).
    private static func writeLine(_ line: String) {
        DescriptorWrite.all(Array(line.utf8) + [UInt8(ascii: "\n")], to: STDOUT_FILENO)
    }
}
