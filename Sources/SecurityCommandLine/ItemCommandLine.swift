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

/// The item commands' arguments, read as macOS's tool reads them (`Getopt`, with each command's
/// letters) and handed to ArgumentParser in its long form (`--password=-Xy9`), which takes any
/// value as it is.
package enum ItemCommandLine {
    /// What the arguments turned out to be.
    package enum Reading: Equatable {
        /// Arguments for the command's ArgumentParser type.
        case arguments([String])
        /// A usage error: the message `getopt` prints, if any; the command's usage follows, exit 2.
        case usage(String?)
        /// `-h`: the command's usage, exit 2, as macOS's tool answers it.
        case help
    }

    /// One command's letters and what each means.
    package struct Grammar {
        /// The letters, as `getopt` takes them; a leading `:` makes it quiet about errors.
        package let letters: String
        /// Each letter's long option in the ArgumentParser type.
        package let names: [Character: String]
        /// The letters that prompt for the password when given last without a value.
        package var promptingLetters: Set<Character> = []
        /// The letters whose value is a number read as `atoi` reads it (`-P abc` is port 0).
        package var numericLetters: Set<Character> = []
    }

    /// The long options whose value is a password.
    package static let passwordOptions: Set<String> = ["password", "hex-password"]

    /// The tool's own long options that take a value.
    package static let valuedLongOptions: Set<String> = ["accessible", "access-control"]

    private static let shared: [Character: String] = [
        "a": "account", "c": "creator", "C": "type", "D": "kind", "j": "comment", "l": "label",
    ]

    /// macOS's letters for each item command (`SecurityTool/macOS/keychain_add.c`, `keychain_find.c`).
    package static let grammars: [String: Grammar] = [
        "add-generic-password": Grammar(
            letters: ":a:c:C:D:G:j:l:s:p:w:X:UAT:h",
            names: shared.merging([
                "G": "generic", "s": "service", "p": "password", "w": "password", "X": "hex-password",
                "U": "update", "A": "allow-any-application", "T": "trusted-application",
            ]) { $1 },
            promptingLetters: ["p", "w"]
        ),
        "add-internet-password": Grammar(
            letters: ":a:c:C:d:D:j:l:p:P:r:s:t:w:X:UAT:h",
            names: shared.merging([
                "d": "security-domain", "p": "path", "P": "port", "r": "protocol", "s": "server",
                "t": "authentication-type", "w": "password", "X": "hex-password", "U": "update",
                "A": "allow-any-application", "T": "trusted-application",
            ]) { $1 },
            promptingLetters: ["w", "p"],  // -p is the path, but given last it prompts, as on macOS
            numericLetters: ["P"]
        ),
        "find-generic-password": Grammar(
            letters: "ha:c:C:D:G:j:l:s:wg",
            names: shared.merging(["G": "generic", "s": "service", "w": "password-only", "g": "show-password"]) { $1 }
        ),
        "delete-generic-password": Grammar(
            letters: "ha:c:C:D:G:j:l:s:g",
            names: shared.merging(["G": "generic", "s": "service", "g": "show-password"]) { $1 }
        ),
        "find-internet-password": Grammar(
            letters: "ha:c:C:d:D:hgj:l:p:P:r:s:wt:",
            names: shared.merging(internetMatching.merging(["w": "password-only", "g": "show-password"]) { $1 }) { $1 },
            numericLetters: ["P"]
        ),
        "delete-internet-password": Grammar(
            letters: "ha:c:C:d:D:hgj:l:p:P:r:s:t:",
            names: shared.merging(internetMatching.merging(["g": "show-password"]) { $1 }) { $1 },
            numericLetters: ["P"]
        ),
    ]

    private static let internetMatching: [Character: String] = [
        "d": "security-domain", "p": "path", "P": "port", "r": "protocol", "s": "server", "t": "authentication-type",
    ]

    /// Reads `arguments` (after the command's name) for `command`.
    package static func read(_ arguments: [String], for command: String) -> Reading? {
        guard let grammar = grammars[command] else { return nil }
        let quiet = grammar.letters.hasPrefix(":")
        var rewritten: [String] = []
        let reading = Getopt(grammar.letters, valuedLongOptions: valuedLongOptions).read(arguments)
        switch reading {
        case .failure(.missingValue(let letter)) where grammar.promptingLetters.contains(letter):
            // Given last without a value: prompt for it. Everything before it still counts.
            let last = arguments.last ?? ""
            let grouped = String(last.dropLast())  // `-Uw`: the flags before the letter still count
            let before = Array(arguments.dropLast()) + (grouped == "-" ? [] : [grouped])
            let earlier = read(before, for: command)
            guard case .arguments(let arguments) = earlier else { return earlier }
            return .arguments(insertBeforeOperands(["--prompt-for-password"], into: arguments))
        case .failure(.missingValue(let letter)):
            return .usage(quiet ? nil : "security: option requires an argument -- \(letter)")
        case .failure(.illegalOption(let letter)):
            return .usage(quiet ? nil : "security: illegal option -- \(letter)")
        case .success(let (options, operands)):
            for element in options {
                switch element {
                case .long(let text):
                    rewritten.append(text)
                case .option("h", _):
                    return .help
                case .option(let letter, let value):
                    guard let name = grammar.names[letter] else { return .usage(nil) }
                    if let value {
                        let given =
                            grammar.numericLetters.contains(letter)
                            ? String(UInt16(truncatingIfNeeded: Getopt.atoi(value))) : value
                        rewritten.append("--\(name)=\(given)")
                    } else {
                        rewritten.append("--\(name)")
                    }
                }
            }
            if !operands.isEmpty {
                rewritten.append("--")
                rewritten.append(contentsOf: operands)
            }
            return .arguments(rewritten)
        }
    }

    private static func insertBeforeOperands(_ extra: [String], into arguments: [String]) -> [String] {
        guard let separator = arguments.firstIndex(of: "--") else { return arguments + extra }
        var result = arguments
        result.insert(contentsOf: extra, at: separator)
        return result
    }
}
