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

import Crypto
import Foundation
import KeychainContract
import KeychainCore
import KeychainServices
import KeychainTestSupport
import KeychainTesting
import Testing

@testable import KeychainEngine

/// A backup or restore reaches every app's items: where the daemon guards apps from each other,
/// it asks for the passcode itself, in its own words, for each one; a context the program earned
/// the passcode on for a reason of its own is not enough, and a sandboxed app is refused outright.
@Suite struct BackupGateTests {
    let keychain: TemporaryKeychain
    let engine: any Engine
    let responder: EngineResponder

    init() throws {
        keychain = try TemporaryKeychain(passcode: "1234")
        engine = try #require(keychain.device.embedded)
        var responder = EngineResponder(engine: engine)
        responder.applications = ApplicationRegistry(engine: engine)
        self.responder = responder
        keychain.run {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "mail",
                kSecValueData as String: Data("app secret".utf8),
            ]
            #expect(SecItemAdd(query as CFDictionary, nil) == errSecSuccess)
        }
    }

    /// A conversation whose prompt answers `passcode` (or nobody answers), recording the reasons
    /// it was asked for, and which takes every piece of a backup.
    static func conversation(
        _ client: ClientIdentity = .unsandboxed,
        answering passcode: String?,
        reasons: LockedState<[String]>,
        received: LockedState<Int>
    ) -> EngineConversation {
        EngineConversation(
            program: "test",
            client: client,
            report: { _ in },
            ask: { question in
                switch try? EngineWire.decode(EngineResponse.self, from: question) {
                case .ask(let asked)?:
                    reasons.withLock { $0.append(asked.reason) }
                    return passcode.flatMap { try? EngineWire.encode(EngineRequest.answer(.entered($0))) }
                case .backupBytes(let bytes)?:
                    received.withLock { $0 += bytes.count }
                    return try? EngineWire.encode(EngineRequest.backupBytes(Data()))
                default:
                    return nil
                }
            }
        )
    }

    static var sealing: BackupSealing {
        .recipient(publicKey: P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
    }

    static let target = PromptTarget(kind: .custom)

    @Test func aContextEarnedForAnotherReasonIsNotEnough() throws {
        let context = try engine.makeContext()
        defer { engine.releaseContext(context) }
        try engine.evaluate(
            .deviceOwner,
            for: context,
            reason: "sync your mail",
            interactionAllowed: true,
            prompt: PasscodePrompt { _, _ in .entered("1234") }
        )
        let reasons = LockedState<[String]>([])
        let received = LockedState(0)
        let refused = responder.run(
            .backup(Self.sealing, context: context, target: Self.target, reportsProgress: false),
            conversation: Self.conversation(answering: nil, reasons: reasons, received: received)
        )
        guard case .keychainError(let error) = refused else {
            Issue.record("a backup was written: \(refused)")
            return
        }
        #expect(error.message.contains("needs its passcode"))
        #expect(received.withLock { $0 } == 0)
        #expect(reasons.withLock { $0 } == ["let test back up every item of the keychain"])

        let restore = responder.run(
            .restore(.password("p"), context: context, target: Self.target, checkOnly: false, reportsProgress: false),
            conversation: Self.conversation(answering: nil, reasons: reasons, received: received)
        )
        guard case .keychainError = restore else {
            Issue.record("a restore ran: \(restore)")
            return
        }
        #expect(reasons.withLock { $0.last } == "let test restore a backup into the keychain, over its older items")
    }

    @Test func thePasscodeAskedInTheDaemonsWordsBacksUp() throws {
        let reasons = LockedState<[String]>([])
        let received = LockedState(0)
        let reply = responder.run(
            .backup(Self.sealing, context: nil, target: Self.target, reportsProgress: false),
            conversation: Self.conversation(answering: "1234", reasons: reasons, received: received)
        )
        guard case .backupSummary(let summary) = reply else {
            Issue.record("no backup: \(reply)")
            return
        }
        #expect(summary.written == 1)
        #expect(received.withLock { $0 } > 0)
        #expect(reasons.withLock { $0.count } == 1)
    }

    @Test func aSandboxedAppIsRefusedWithoutAQuestion() throws {
        let reasons = LockedState<[String]>([])
        let received = LockedState(0)
        let app = ClientIdentity.flatpak(appID: "org.example.Notes")
        let requests: [EngineRequest] = [
            .backup(Self.sealing, context: nil, target: Self.target, reportsProgress: false),
            .restore(.password("p"), context: nil, target: Self.target, checkOnly: true, reportsProgress: false),
        ]
        for request in requests {
            let reply = responder.run(
                request,
                conversation: Self.conversation(app, answering: "1234", reasons: reasons, received: received)
            )
            guard case .keychainError(let error) = reply else {
                Issue.record("a sandboxed app was served: \(reply)")
                continue
            }
            #expect(error.code == .missingEntitlement)
        }
        #expect(reasons.withLock { $0.isEmpty })
    }
}
