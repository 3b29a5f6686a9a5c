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

import KeychainContract

extension PromptRouting {
    /// The daemon's prompts: a client whose prompt is the terminal one is asked through
    /// `pinentry` on its terminal or display, so that the passcode never passes through the
    /// requesting program; when that cannot be done (no pinentry, no usable terminal or display,
    /// a pinentry that fails), and for clients with a prompt of their own, the question is
    /// relayed to the client — the weaker path, since the program then sees what is typed.
    static func daemon(pinentry: Pinentry?) -> PromptRouting {
        PromptRouting { target, program, relay in
            guard target.kind == .terminal, let pinentry, target.canShowPrompter else {
                return target.kind == .none ? .none : relay
            }
            var prompt = PasscodePrompt { purpose, reason in
                let question = PromptQuestion(purpose: purpose, reason: reason)
                return pinentry.ask(question, program: program, target: target) ?? relay.ask(purpose, reason: reason)
            }
            // The simulated sensor's question, with nothing queued: on the same terminal or display.
            prompt.askWord = { question in pinentry.askWord(question, program: program, target: target) }
            return prompt
        }
    }
}
