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

/// A line of `security -i` split into words as macOS's tool splits it: blanks separate words,
/// `"…"` or `'…'` quote one (the quotes dropped), and a backslash takes the next character as
/// it is, inside quotes too. An unterminated quote ends with the line.
enum CommandLineWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        var escaped = false
        for character in line {
            if escaped {
                word = (word ?? "") + String(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
                word = word ?? ""
            } else if let open = quote {
                if character == open {
                    quote = nil
                    words.append(word ?? "")
                    word = nil
                } else {
                    word = (word ?? "") + String(character)
                }
            } else if character.isWhitespace {
                if let finished = word { words.append(finished) }
                word = nil
            } else if (character == "\"" || character == "'") && word == nil {
                quote = character
                word = ""
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let finished = word { words.append(finished) }
        return words
    }
}
