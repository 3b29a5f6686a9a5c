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
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// Reads secrets the way macOS's `security` does: from the terminal without echo, or, when
/// standard input is not a terminal, one line of standard input per prompt (so scripts can pipe them).
package enum Terminal {
    /// Writes to standard error.
    package static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// Whether standard input is a terminal.
    package static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Shows `prompt` on standard error and reads one line without echo.
    ///
    /// - Returns: The line, or `nil` at the end of input.
    package static func readSecret(prompt: String) -> String? {
        FileHandle.standardError.write(Data(prompt.utf8))
        guard isInteractive else {
            return readLine(strippingNewline: true)
        }
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }

    /// Shows `question` on standard error and reads one line with echo, from a terminal only.
    ///
    /// - Returns: The answer, or `nil` when standard input is not a terminal or at the end of input.
    package static func ask(_ question: String) -> String? {
        guard isInteractive else { return nil }
        FileHandle.standardError.write(Data(question.utf8))
        return readLine(strippingNewline: true)
    }

    /// Asks twice, as macOS does for a new password, up to three times; `nil` if it never matched.
    package static func readNewSecret(prompt: String, retypePrompt: String) -> String? {
        for _ in 0..<3 {
            guard let first = readSecret(prompt: prompt) else { return nil }
            guard let second = readSecret(prompt: retypePrompt) else { return nil }
            if first == second { return first }
            printError("passwords don't match")
        }
        return nil
    }
}
