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

import ArgumentParser
import Foundation
import KeychainCore
import KeychainDevice

// What only the tool prints and asks at the terminal; reading a passcode is the library's
// (`Terminal`, used by `PasscodePrompt.terminal`).
extension Terminal {
    /// Writes to standard error, each line ``escaped(_:)`` (messages quote names others chose).
    static func printError(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    /// `text` safe to print on a terminal: control characters (escape sequences, carriage
    /// returns, bidirectional overrides) and backslashes are written as escapes, so a name chosen
    /// by someone else can neither move the cursor nor disguise itself.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse:
                out +=
                    scalar.value < 0x80
                    ? "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
                    : "\\u{" + String(scalar.value, radix: 16) + "}"
            default:
                out += scalar == "\\" ? "\\\\" : String(scalar)
            }
        }
        return out
    }

    /// The result of `read`, a read of standard input; a line longer than a secret may be stops the
    /// command with a message saying so (exit 1), and nothing is stored.
    static func refusingLongLines<Result>(_ read: () throws(LineTooLong) -> Result) throws -> Result {
        do {
            return try read()
        } catch {
            printError("security: \(error)")
            throw ExitCode(1)
        }
    }

    /// Asks twice, as macOS does for a new password, up to three times; `nil` if it never matched.
    ///
    /// While the second answer is awaited, the first is only in locked memory; the `String`
    /// returned is made once both match.
    /// - Throws: ``Terminal/LineTooLong`` for an answer longer than a secret may be.
    static func readNewSecret(prompt: String, retypePrompt: String) throws(LineTooLong) -> String? {
        for _ in 0..<3 {
            guard let first = try readSecretBytes(prompt: prompt) else { return nil }
            guard let second = try readSecretBytes(prompt: retypePrompt) else { return nil }
            let same = first.withUnsafeBytes { one in second.withUnsafeBytes { other in one.elementsEqual(other) } }
            if same { return string(second) }
            printError("passwords don't match")
        }
        return nil
    }
}

extension String {
    /// The string with zeros in front, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
