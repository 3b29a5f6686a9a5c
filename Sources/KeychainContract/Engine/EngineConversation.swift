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

/// The server's line back to the client whose request is running: interim replies, and
/// questions for the client's prompt.
///
/// In the daemon it writes frames to the client's connection; in the loopback engine it calls
/// the client directly.
package struct EngineConversation: Sendable {
    /// The requesting program's name, as the server identified it (not as the client claims).
    package var program: String?
    /// Sends an interim reply (progress).
    package var report: @Sendable ([UInt8]) -> Void
    /// Sends a question and waits for the client's answer; `nil` when the client is gone or
    /// cannot answer.
    package var ask: @Sendable ([UInt8]) -> [UInt8]?
    /// Which application the client is, as the server verified it; `nil` leaves its item requests
    /// as it asked (a client in the server's own process).
    package var client: ClientIdentity?

    package init(
        program: String?,
        client: ClientIdentity? = nil,
        report: @escaping @Sendable ([UInt8]) -> Void,
        ask: @escaping @Sendable ([UInt8]) -> [UInt8]?
    ) {
        self.program = program
        self.client = client
        self.report = report
        self.ask = ask
    }

    /// A conversation with no client on the other end: progress is dropped, questions go unanswered.
    package static let silent = EngineConversation(program: nil, report: { _ in }, ask: { _ in nil })
}

/// How an ``EngineResponder`` asks a person for a client's evaluation.
///
/// ``relaying`` sends every question to the client's own prompt (the loopback engine, and the
/// daemon's fallback); the daemon first tries its own prompter on the client's terminal or display.
package struct PromptRouting: Sendable {
    /// The prompt for one evaluation.
    ///
    /// - Parameters:
    ///   - target: Where the client says it can be asked.
    ///   - program: The requesting program, as the server identified it.
    ///   - relay: A prompt that asks the client's own prompt through the conversation.
    package var prompt:
        @Sendable (_ target: PromptTarget, _ program: String?, _ relay: PasscodePrompt) -> PasscodePrompt

    package init(prompt: @escaping @Sendable (PromptTarget, String?, PasscodePrompt) -> PasscodePrompt) {
        self.prompt = prompt
    }

    /// Every question goes to the client's prompt; a client whose prompt is ``PasscodePrompt/none``
    /// is not asked at all.
    package static let relaying = PromptRouting { target, _, relay in
        target.kind == .none ? .none : relay
    }
}
