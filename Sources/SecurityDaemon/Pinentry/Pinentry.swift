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
package import KeychainContract

// `struct stat`'s fields need the module that declared it for Swift (see DaemonLog).
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// Asks for a passcode through pinentry, the PIN prompter of GnuPG (`pinentry-tty`,
/// `pinentry-curses`, `pinentry-gnome3`, …), on the requesting client's terminal or display.
///
/// The daemon runs it, so the passcode goes from the person to the daemon and never through the
/// requesting program. pinentry speaks the Assuan protocol on its standard input and output: the
/// daemon sets the terminal, the title, a description naming the program and its reason, then
/// sends `GETPIN`; the reply is `D <percent-escaped PIN>` and `OK`, or `ERR` (cancelled).
package struct Pinentry: Sendable {
    /// The pinentry program.
    package let executable: String

    /// A pinentry at `executable`.
    package init(executable: String) {
        self.executable = executable
    }

    // MARK: Asking

    /// Asks the person at `target` on behalf of `program`.
    ///
    /// - Returns: The person's reply, or `nil` when pinentry could not ask (it is missing, the
    ///   target's terminal is unusable, or it broke off): the caller then asks another way.
    package func ask(_ question: PromptQuestion, program: String?, target: PromptTarget) -> PasscodePrompt.Reply? {
        getPin(
            description: Self.description(of: question, program: program),
            prompt: question.purpose == .devicePasscode ? "Passcode:" : "Password:",
            target: target
        )
    }

    /// Asks the person at `target` a question answered with a word (the simulated sensor's
    /// "match?"), on behalf of `program`.
    ///
    /// - Returns: The word (`cancel` when the person closed the prompter); `nil` when pinentry
    ///   could not ask.
    package func askWord(_ question: String, program: String?, target: PromptTarget) -> String? {
        let who = program.map { "“\($0)”" } ?? "A program"
        let description = "\(who) asks the simulated biometric sensor.\n\n\(Assuan.truncated(question, toBytes: 600))"
        switch getPin(description: description, prompt: "Answer:", target: target) {
        case .entered(let word)?: return word
        case .cancelled?: return "cancel"
        case .unavailable?, nil: return nil
        }
    }

    /// What the person answered when a program asked for a secret.
    package enum Consent: Sendable, Equatable {
        /// Always allow this program to read this item.
        case always
        /// Allow it this time.
        case once
        case denied
    }

    /// Asks the person at `target` whether a program may read a secret, with macOS's keychain access
    /// dialog's three buttons: Always Allow, Deny, and Allow, the default (Enter allows this once,
    /// never always).
    ///
    /// - Returns: The answer (closing the prompter denies); `nil` when pinentry could not ask.
    package func consent(_ description: String, target: PromptTarget) -> Consent? {
        let reply = converse(
            [
                "SETDESC " + Assuan.escape(Assuan.truncated(description, toBytes: 600)),
                "SETOK " + Assuan.escape("Allow"),
                "SETNOTOK " + Assuan.escape("Always Allow"),
                "SETCANCEL " + Assuan.escape("Deny"),
            ],
            then: "CONFIRM",
            target: target
        )
        switch reply {
        case .ok?: return .once
        // pinentry's "not confirmed" (GPG_ERR_NOT_CONFIRMED): the second button.
        case .error(let code)? where code & 0xFFFF == 114: return .always
        case .error(let code)? where Assuan.isCancellation(code): return .denied
        case .error?, .broken?, nil: return nil
        }
    }

    private func getPin(description: String, prompt: String, target: PromptTarget) -> PasscodePrompt.Reply? {
        let reply = converse(
            ["SETDESC " + Assuan.escape(description), "SETPROMPT " + Assuan.escape(prompt)],
            then: "GETPIN",
            target: target
        )
        switch reply {
        case .ok(var data)?:
            defer { data.resetBytes(in: data.startIndex..<data.endIndex) }
            return data.isEmpty ? .cancelled : .entered(String(decoding: data, as: UTF8.self))
        case .error(let code)? where Assuan.isCancellation(code):
            return .cancelled
        case .error?, .broken?, nil:
            return nil
        }
    }

    /// Runs pinentry on `target`'s terminal or display, sends `commands` after its title, and
    /// returns the reply to `final`; `nil` when it cannot be run or refuses a command.
    private func converse(_ commands: [String], then final: String, target: PromptTarget) -> AssuanSession.Reply? {
        let terminal = target.terminal.flatMap(Self.usableTerminal)
        guard terminal != nil || target.hasDisplay else { return nil }
        guard let session = AssuanSession(executable: executable, environment: environment(for: target)) else {
            return nil
        }
        defer { session.finish() }
        guard session.greeting() else { return nil }
        // Options pinentry does not know are refused with an error that changes nothing.
        if let terminal { _ = session.command("OPTION ttyname=\(Assuan.escape(terminal))") }
        if let type = target.terminalType { _ = session.command("OPTION ttytype=\(Assuan.escape(type))") }
        if let display = target.display["DISPLAY"] { _ = session.command("OPTION display=\(Assuan.escape(display))") }
        for command in ["SETTITLE swift-keychain"] + commands {
            guard case .ok = session.command(command) else { return nil }
        }
        let reply = session.command(final)
        _ = session.command("BYE")
        return reply
    }

    /// What the prompt says: who asks, what for, and the application's reason.
    static func description(of question: PromptQuestion, program: String?) -> String {
        let who = program.map { "“\($0)”" } ?? "A program"
        let what = question.purpose == .devicePasscode ? "your passcode" : "the item's application password"
        return "\(who) wants \(what) to use the keychain.\n\n\(Assuan.truncated(question.reason, toBytes: 400))"
    }

    /// The environment pinentry runs with: the daemon's own minimal settings and the target's
    /// display variables, nothing else the client sent.
    private func environment(for target: PromptTarget) -> [String] {
        let own = ProcessInfo.processInfo.environment
        var variables: [String: String] = [:]
        for key in ["PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "XDG_RUNTIME_DIR"] {
            variables[key] = own[key]
        }
        for (key, value) in target.display where PromptTarget.displayVariables.contains(key) && !value.contains("\0") {
            variables[key] = value
        }
        if let type = target.terminalType, !type.contains("\0") { variables["TERM"] = type }
        return variables.map { "\($0.key)=\($0.value)" }
    }

    /// `path` when it is a terminal device of this user that can be opened; pinentry-tty reports
    /// an unusable terminal as a cancellation, so it is checked first.
    private static func usableTerminal(_ path: String) -> String? {
        guard path.hasPrefix("/dev/"), !path.contains(".."), path.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else {
            return nil
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFCHR, status.st_uid == getuid() else {
            return nil
        }
        let descriptor = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        close(descriptor)
        return path
    }
}
