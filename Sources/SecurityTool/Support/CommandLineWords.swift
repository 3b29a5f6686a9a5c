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
/// it is, inside quotes too.
///
/// An unterminated quote ends with the line.
enum CommandLineWords {
    static func split(_ line: String) -> [String] {
        var words: [String] = []
        // The word being read, appended to in place (a secret on the line may be megabytes long);
        // `inWord` tells an empty quoted word from no word.
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        func finish() {
            if inWord { words.append(word) }
            word = ""
            inWord = false
        }
        for character in line {
            if escaped {
                word.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
                inWord = true
            } else if let open = quote {
                if character == open {
                    quote = nil
                    finish()
                } else {
                    word.append(character)
                }
            } else if character.isWhitespace {
                finish()
            } else if (character == "\"" || character == "'") && !inWord {
                quote = character
                inWord = true
            } else {
                word.append(character)
                inWord = true
            }
        }
        finish()
        return words
    }
}
