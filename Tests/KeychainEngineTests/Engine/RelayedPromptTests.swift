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
import KeychainContract
import KeychainServices
import KeychainTestSupport
import KeychainTesting
import Synchronization
import Testing

@testable import KeychainCore
@testable import KeychainDevice
@testable import KeychainEngine

/// Questions the engine asks a client's prompt cross the boundary as interim replies, and the
/// client's answer comes back on the same request: the way the daemon reaches a program's own
/// prompt (a scripted one in tests, the terminal where no pinentry can be shown).
@Suite struct RelayedPromptTests {
    /// A passcode-protected item in a keychain whose own prompt has nothing queued: only the
    /// relayed prompt can answer.
    static func protectedKeychain() throws -> (TemporaryKeychain, AccessControl) {
        let keychain = try TemporaryKeychain(passcode: "2468")
        let access = AccessControl(protection: .whenUnlockedThisDeviceOnly, flags: AccessControl.devicePasscode)
        var addition = try EngineBoundaryTests.query(EngineBoundaryTests.addition, for: .add)
        addition.accessControl = access
        addition.protection = access.protection
        _ = try #require(keychain.device.embedded).add(addition)
        return (keychain, access)
    }

    @Test func theClientsPromptAnswersTheEnginesQuestion() throws {
        let (keychain, access) = try Self.protectedKeychain()
        let asked = Mutex<[PromptQuestion]>([])
        let prompt = PasscodePrompt { purpose, reason in
            asked.withLock { $0.append(PromptQuestion(purpose: purpose, reason: reason)) }
            return .entered("2468")
        }
        let engine = WireEngine(serving: try #require(keychain.device.embedded), prompt: prompt)
        let context = try engine.makeContext()
        try engine.evaluate(
            access,
            operation: .useItem,
            missing: nil,
            for: context,
            reason: "Read the boundary item",
            interactionAllowed: true
        )
        #expect(asked.withLock { $0 } == [PromptQuestion(purpose: .devicePasscode, reason: "Read the boundary item")])

        var read = try EngineBoundaryTests.query(
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Boundary",
                kSecReturnData as String: true,
            ],
            for: .copyMatching
        )
        read.credentialReference = context
        #expect(try engine.search(read).first?.data == Data("wire secret".utf8))
    }

    @Test func aWrongRelayedAnswerIsAFailureAndACancelIsACancel() throws {
        let (keychain, access) = try Self.protectedKeychain()
        let replies = Mutex<[PasscodePrompt.Reply]>([.entered("1111"), .cancelled])
        let prompt = PasscodePrompt { _, _ in replies.withLock { $0.removeFirst() } }
        let engine = WireEngine(serving: try #require(keychain.device.embedded), prompt: prompt)
        let context = try engine.makeContext()
        for expected in [AuthenticationFailure.Code.authenticationFailed, .userCancel] {
            let outcome = Result { () throws(AuthenticationFailure) in
                try engine.evaluate(
                    access,
                    operation: .useItem,
                    missing: nil,
                    for: context,
                    reason: "test",
                    interactionAllowed: true
                )
            }
            guard case .failure(let failure) = outcome else {
                Issue.record("the evaluation succeeded without the passcode")
                continue
            }
            #expect(failure.code == expected)
        }
    }

    @Test func aClientWithoutAPromptIsNeverAsked() throws {
        let (keychain, access) = try Self.protectedKeychain()
        let engine = WireEngine(serving: try #require(keychain.device.embedded), prompt: .none)
        keychain.queuePasscodeReplies([.entered("2468")])  // the engine's own prompt must not be used
        let context = try engine.makeContext()
        let outcome = Result { () throws(AuthenticationFailure) in
            try engine.evaluate(
                access,
                operation: .useItem,
                missing: nil,
                for: context,
                reason: "test",
                interactionAllowed: true
            )
        }
        guard case .failure(let failure) = outcome else {
            Issue.record("a client with no prompt was authenticated")
            return
        }
        #expect(failure.code == .notInteractive)
    }

    @Test func anAnswerNobodyAskedForRunsNothing() throws {
        let keychain = try TemporaryKeychain()
        let responder = EngineResponder(engine: try #require(keychain.device.embedded))
        let unasked = try EngineWire.encode(EngineRequest.answer(.entered("2468")))
        #expect(
            try EngineBoundaryTests.errorCode(responder.respond(to: unasked, conversation: .silent))
                == .invalidParameter
        )
    }

    @Test func aClientThatCannotAnswerIsNotInteractive() throws {
        let (keychain, access) = try Self.protectedKeychain()
        let responder = EngineResponder(engine: try #require(keychain.device.embedded))
        let context = try #require(keychain.device.embedded).makeContext()
        let request = EngineRequest.evaluateAccessControl(
            access,
            operation: .useItem,
            missing: nil,
            context: context,
            reason: "test",
            interactionAllowed: true,
            target: PromptTarget(kind: .custom)
        )
        // The client hangs up, or answers with something that is not an answer.
        let nonsense = try EngineWire.encode(EngineRequest.lock)
        for answer in [nil, nonsense, [0xFF, 0x00]] as [[UInt8]?] {
            let conversation = EngineConversation(program: nil, report: { _ in }, ask: { _ in answer })
            let reply = try EngineBoundaryTests.decodeReply(
                responder.respond(to: try EngineWire.encode(request), conversation: conversation)
            )
            guard case .authenticationFailure(let failure) = reply else {
                Issue.record("a client that cannot answer was authenticated")
                continue
            }
            #expect(failure.code == .notInteractive)
        }
        #expect(try keychain.device.engine.lockState().isUnlocked)
    }
}
