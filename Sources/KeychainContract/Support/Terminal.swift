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
package import KeychainCore

#if canImport(CoreFoundation)
// `termios` reaches Swift through CoreFoundation's headers first on Linux (member import visibility).
import CoreFoundation
#endif
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
    /// Whether standard input is a terminal.
    package static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 }

    /// Writes a line to standard error when it is a terminal (someone may read it there).
    package static func showOnTerminal(_ line: String) {
        guard isatty(STDERR_FILENO) == 1 else { return }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Shows `prompt` on standard error and reads one line without echo.
    ///
    /// The line is read byte by byte (no stdio buffer keeps a copy) into a ``SecretBuffer``
    /// (locked, out of core dumps, zeroed afterwards). While echo is off, an interrupt, a hang-up,
    /// a termination or a stop restores the terminal before the signal takes effect, so Ctrl-C at
    /// the prompt never leaves the terminal silent.
    /// - Returns: The line, or `nil` at the end of input.
    /// - Throws: ``LineTooLong`` for a line longer than ``maximumLine`` (read to its end, kept nowhere).
    package static func readSecret(prompt: String) throws(LineTooLong) -> String? {
        try readSecretBytes(prompt: prompt).map(string)
    }

    /// ``readSecret(prompt:)``, keeping the line in the locked buffer (no `String` copy yet).
    package static func readSecretBytes(prompt: String) throws(LineTooLong) -> SecretBuffer? {
        // Echo goes off before the prompt shows, so nothing typed after it is ever echoed.
        guard isInteractive, EchoGuard.silence() else {
            FileHandle.standardError.write(Data(prompt.utf8))
            return try readLineBytes()
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        defer {
            EchoGuard.restore()
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return try readLineBytes()
    }

    /// Reads one line of standard input without stdio's buffering, into locked memory; `nil` at the
    /// end of input.
    ///
    /// Every reader of standard input in the tool goes through here, so that no buffered reader
    /// takes lines meant for the next prompt.
    package static func readLineUnbuffered() throws(LineTooLong) -> String? {
        try readLineBytes().map(string)
    }

    /// The bytes as a `String` (a copy outside the locked buffer).
    package static func string(_ buffer: SecretBuffer) -> String {
        buffer.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }
    }

    private static func readLineBytes() throws(LineTooLong) -> SecretBuffer? {
        // One byte over the limit tells a line of exactly the limit from a longer one.
        let buffer = SecretBuffer(limit: maximumLine + 1)
        var byte: UInt8 = 0
        var readAny = false
        var tooLong = false
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count == 1 else { break }
            readAny = true
            if byte == UInt8(ascii: "\n") { break }
            // A longer line is read to its end, so that its rest is not taken as the next line.
            if !tooLong, !buffer.append(byte) { tooLong = true }
        }
        byte = 0
        guard readAny else { return nil }
        if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
        guard !tooLong, buffer.count <= maximumLine else { throw LineTooLong() }
        return buffer
    }

    /// The longest line read: the longest secret a keychain item holds (16 MiB).
    ///
    /// Longer input is refused whole, never cut.
    package static let maximumLine = QueryParser.maximumSecretSize

    /// A line of input longer than ``maximumLine``.
    package struct LineTooLong: Error, CustomStringConvertible {
        package var description: String {
            "the input line is longer than \(maximumLine) bytes (16 MiB, the longest secret a keychain item holds); nothing was read from it"
        }
    }

    /// Shows `question` on standard error and reads one line with echo, from a terminal only.
    ///
    /// - Returns: The answer, or `nil` when standard input is not a terminal or at the end of input.
    package static func ask(_ question: String) -> String? {
        guard isInteractive else { return nil }
        FileHandle.standardError.write(Data(question.utf8))
        return try? readLineUnbuffered()
    }
}
