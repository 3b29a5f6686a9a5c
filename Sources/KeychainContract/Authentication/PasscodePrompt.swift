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
import KeychainCore

/// How the device asks a person for the passcode or an application password, and whether the
/// simulated sensor may ask them about a biometric match.
///
/// On Apple platforms the system shows these dialogs; on Linux the keychain's owner chooses:
///
/// ```swift
/// let device = try Device(home: home, configuration: DeviceConfiguration(passcodePrompt: .terminal))
/// let scripted = PasscodePrompt.scripted(["123456"])   // tests: answers in order, then none
/// ```
public struct PasscodePrompt: Sendable {
    /// What is being asked for.
    public enum Purpose: Sendable, Hashable, Codable {
        /// The device passcode (`devicePasscode`, `userPresence`, `deviceOwnerAuthentication`).
        case devicePasscode
        /// An item's application password, when the `LAContext` has none set.
        case applicationPassword
    }

    /// A person's answer.
    public enum Reply: Sendable, Hashable, Codable {
        case entered(String)
        /// The person declined (`LAError.userCancel`).
        case cancelled
        /// Nobody can be asked (`LAError.notInteractive`).
        case unavailable
    }

    // MARK: Properties

    /// Which of the prompts this is: the daemon shows its own prompter (pinentry) in place of
    /// ``terminal``, asks the client for any ``custom`` one, and nobody for ``none``.
    package enum Kind: Sendable, Hashable, Codable {
        case terminal
        case custom
        case none
    }

    private let answer: @Sendable (Purpose, String) -> Reply
    package let kind: Kind
    /// Shows a line that needs no answer ("touch the fingerprint reader to …"): on standard error when
    /// it is a terminal, unless replaced (the daemon sends it to the requesting program).
    package var notify: @Sendable (String) -> Void = { text in
        Terminal.showOnTerminal(text)
    }

    /// Asks a question answered with a word, shown as it is typed — the simulated sensor's
    /// "match? [y]es, [n]o, …" when nothing is queued; `nil` when this prompt cannot ask one (then
    /// the sensor is not interactive).
    ///
    /// The terminal prompt asks at the terminal; the daemon puts its prompter (pinentry) on the
    /// requesting program's terminal or display.
    package var askWord: (@Sendable (_ question: String) -> String?)?

    // MARK: Initialization

    /// A prompt that calls `answer` with the purpose and the localized reason.
    public init(_ answer: @escaping @Sendable (_ purpose: Purpose, _ reason: String) -> Reply) {
        self.answer = answer
        kind = .custom
    }

    private init(kind: Kind, _ answer: @escaping @Sendable (Purpose, String) -> Reply) {
        self.answer = answer
        self.kind = kind
        if kind == .terminal { askWord = { question in Terminal.ask(question) } }
    }

    // MARK: Prompts

    /// Never asks: evaluations that need a person fail as not interactive.
    public static let none = PasscodePrompt(kind: .none) { _, _ in .unavailable }

    /// Asks at the terminal without echo; not interactive when standard input is not a terminal.
    ///
    /// An empty answer cancels.
    public static let terminal = PasscodePrompt(kind: .terminal) { purpose, reason in
        guard Terminal.isInteractive else { return .unavailable }
        do {
            guard let line = try Terminal.readSecret(prompt: "\(purpose.label) (\(reason)): ") else {
                return .unavailable
            }
            return line.isEmpty ? .cancelled : .entered(line)
        } catch {
            Terminal.showOnTerminal("\(error)")
            return .cancelled
        }
    }

    /// Reads one line of standard input per question (for scripts); the end of input is not interactive.
    public static let standardInput = PasscodePrompt { _, _ in
        do {
            guard let line = try Terminal.readLineUnbuffered() else { return .unavailable }
            return .entered(line)
        } catch {
            FileHandle.standardError.write(Data("\(error)\n".utf8))
            return .cancelled
        }
    }

    /// Answers with `entries` in order, then as ``none``.
    public static func scripted(_ entries: [String]) -> PasscodePrompt {
        let queue = LockedState(entries[...])
        return PasscodePrompt { _, _ in
            queue.withLock { remaining in
                guard let next = remaining.popFirst() else { return .unavailable }
                return .entered(next)
            }
        }
    }

    /// The prompt named by `KEYCHAIN_PROMPT` (`terminal`, `stdin`, `none`), else ``terminal``.
    public static func fromEnvironment(_ environment: [String: String]) -> PasscodePrompt {
        switch environment["KEYCHAIN_PROMPT"] {
        case "none": .none
        case "stdin": .standardInput
        default: .terminal
        }
    }

    // MARK: Asking

    /// Asks for the passcode or an application password.
    package func ask(_ purpose: Purpose, reason: String) -> Reply {
        answer(purpose, reason)
    }

    /// Tells the person something that needs no answer.
    package func notice(_ text: String) {
        notify(text)
    }
}

extension PasscodePrompt.Purpose {
    var label: String {
        switch self {
        case .devicePasscode: "Passcode"
        case .applicationPassword: "Application password"
        }
    }
}
