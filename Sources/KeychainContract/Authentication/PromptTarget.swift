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

/// Where a client of `securityd` can be asked for a passcode, as the client describes itself with
/// each evaluation: its terminal and display, and which of its own prompts it can answer with.
///
/// gpg-agent learns the same from gpg (`OPTION ttyname`, `display`) to open pinentry where the
/// person is. The daemon shows its own prompter there when the client's prompt is the terminal
/// one; otherwise it relays the question to the client, whose prompt answers it.
package struct PromptTarget: Sendable, Hashable, Codable {
    /// The client's prompt: ``PasscodePrompt/Kind/terminal`` lets the daemon use pinentry.
    package var kind: PasscodePrompt.Kind
    /// The terminal of the client's standard input (or error), such as `/dev/pts/3`.
    package var terminal: String?
    /// The client's `TERM`.
    package var terminalType: String?
    /// The client's display and desktop session variables (``displayVariables`` only).
    package var display: [String: String]

    /// The variables a graphical prompter needs to reach the client's desktop; nothing else of the
    /// client's environment ever reaches a program the daemon starts.
    package static let displayVariables: Set<String> = [
        "DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "XDG_SESSION_TYPE",
    ]

    package init(
        kind: PasscodePrompt.Kind,
        terminal: String? = nil,
        terminalType: String? = nil,
        display: [String: String] = [:]
    ) {
        self.kind = kind
        self.terminal = terminal
        self.terminalType = terminalType
        self.display = display
    }

    /// This process's terminal and display, for `prompt`.
    package static func current(
        for prompt: PasscodePrompt,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> PromptTarget {
        guard prompt.kind == .terminal else { return PromptTarget(kind: prompt.kind) }
        let terminal = [STDIN_FILENO, STDERR_FILENO].lazy.compactMap(Self.terminalName).first
        return PromptTarget(
            kind: .terminal,
            terminal: terminal,
            terminalType: environment["TERM"],
            display: environment.filter { displayVariables.contains($0.key) && !$0.value.isEmpty }
        )
    }

    /// Whether the client has a graphical display a prompter can be shown on.
    package var hasDisplay: Bool {
        display["DISPLAY"] != nil || display["WAYLAND_DISPLAY"] != nil
    }

    /// Whether a prompter can be shown to this client at all: it has a terminal or a display.
    package var canShowPrompter: Bool {
        terminal != nil || hasDisplay
    }

    /// The name of the terminal open at `descriptor`, if it is one.
    private static func terminalName(_ descriptor: Int32) -> String? {
        guard isatty(descriptor) == 1 else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        guard ttyname_r(descriptor, &buffer, buffer.count) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
