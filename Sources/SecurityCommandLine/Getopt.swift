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

/// Command-line options read the way BSD `getopt(3)` reads them, which macOS's `security` uses:
/// scripts written for it pass values that begin with `-` (`-w -Xy9`), attach values to their
/// letter (`-sLegacy`, `-w=x` is the password `=x`) and group flags (`-gU`).
///
/// The rules: options come first; the first argument that is not an option (or `-` alone) ends
/// them, and so does `--` (which is dropped). A letter that takes a value takes the rest of its
/// argument if anything follows it there, else the whole next argument, whatever it begins with.
/// Arguments that begin with `--` are this tool's own long options: they are kept as they are,
/// with their value attached (`--accessible=X`) when they take one.
package struct Getopt {
    /// What was read.
    package enum Element: Equatable {
        /// A letter, with its value if it takes one.
        case option(Character, String?)
        /// One of this tool's long options (`--json`, `--accessible=X`), in ArgumentParser's form.
        case long(String)
    }

    /// Why reading stopped.
    package enum Failure: Error, Equatable {
        /// A letter the command does not have (`getopt`'s "illegal option").
        case illegalOption(Character)
        /// A letter that takes a value came last, with none.
        case missingValue(Character)
    }

    /// The letters, each followed by `:` when it takes a value (`"a:s:gw"`).
    package let letters: String
    /// The long options that take a value (without the dashes: `accessible`).
    package let valuedLongOptions: Set<String>

    package init(_ letters: String, valuedLongOptions: Set<String> = []) {
        self.letters = letters
        self.valuedLongOptions = valuedLongOptions
    }

    /// Reads `arguments` (without the command's name): the options, then the operands.
    package func read(_ arguments: [String]) -> Result<(options: [Element], operands: [String]), Failure> {
        var options: [Element] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" {
                index += 1
                break
            }
            if argument.hasPrefix("--") {
                let name = String(argument.dropFirst(2))
                if valuedLongOptions.contains(name), index + 1 < arguments.count {
                    options.append(.long("\(argument)=\(arguments[index + 1])"))
                    index += 1
                } else {
                    options.append(.long(argument))
                }
                index += 1
                continue
            }
            guard argument.hasPrefix("-"), argument.count > 1 else { break }
            var rest = Substring(argument.dropFirst())
            while let letter = rest.first {
                rest = rest.dropFirst()
                guard letter != ":", let position = letters.firstIndex(of: letter) else {
                    return .failure(.illegalOption(letter))
                }
                let takesValue = letters[letters.index(after: position)...].first == ":"
                guard takesValue else {
                    options.append(.option(letter, nil))
                    continue
                }
                if !rest.isEmpty {
                    options.append(.option(letter, String(rest)))
                } else if index + 1 < arguments.count {
                    index += 1
                    options.append(.option(letter, arguments[index]))
                } else {
                    return .failure(.missingValue(letter))
                }
                rest = ""
            }
            index += 1
        }
        return .success((options, Array(arguments[index...])))
    }

    /// C's `atoi` as glibc has it (`(int)strtol`): leading blanks, an optional sign, then as many
    /// digits as there are; 0 if none; out of range, the `long` limit cut to `int`.
    package static func atoi(_ text: String) -> Int {
        var characters = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var sign = 1
        if let first = characters.first, first == "-" || first == "+" {
            sign = first == "-" ? -1 : 1
            characters = characters.dropFirst()
        }
        var value = 0
        for character in characters {
            guard let digit = character.wholeNumberValue, character.isASCII else { break }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = shifted.addingReportingOverflow(digit)
            guard !overflow, !carry else {
                value = sign < 0 ? Int.min : Int.max
                return Int(Int32(truncatingIfNeeded: value))
            }
            value = next
        }
        return Int(Int32(truncatingIfNeeded: sign * value))
    }
}
