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

/// The engine's boundary, attacked from the client's side: bytes that are not a request, a foreign
/// version, and credential references the client was never given or already gave back.
@Suite struct EngineBoundaryTests {
    static func query(_ dictionary: [String: Any], for operation: KeychainOperation) throws -> ItemQuery {
        try QueryParser.parse(dictionary, for: operation)
    }

    static var addition: [String: Any] {
        [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Boundary",
            kSecAttrAccount as String: "me",
            kSecValueData as String: Data("wire secret".utf8),
        ]
    }

    static func decodeReply(_ bytes: [UInt8]) throws -> EngineResponse {
        try EngineWire.decode(EngineResponse.self, from: bytes)
    }

    /// The code of the error a reply carries, `nil` for anything else.
    static func errorCode(_ bytes: [UInt8]) throws -> KeychainError.Code? {
        if case .keychainError(let error) = try decodeReply(bytes) { return error.code }
        return nil
    }

    static func itemCount(_ engine: any Engine) throws -> Int {
        let search = try query(
            [kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll],
            for: .copyMatching
        )
        let found = Result { () throws(KeychainError) in try engine.search(search).count }
        if case .failure(let error) = found, error.code == .itemNotFound { return 0 }
        return try found.get()
    }

    @Test func bytesThatAreNotARequestRunNothing() throws {
        let keychain = try TemporaryKeychain()
        let engine = try #require(keychain.device.embedded)
        let server = EngineResponder(engine: engine)
        let valid = try EngineWire.encode(EngineRequest.add(try Self.query(Self.addition, for: .add)))

        var foreignVersion = valid
        foreignVersion[0] = EngineWire.version &+ 1
        var truncated = valid
        truncated.removeLast(valid.count / 2)
        var flipped = valid
        for index in stride(from: 1, to: flipped.count, by: 7) { flipped[index] ^= 0x5A }
        let wrongMessage = try EngineWire.encode(EngineResponse.done)
        let oversized = [EngineWire.version] + [UInt8](repeating: 0, count: EngineWire.maximumMessageSize)

        for hostile in [[], [EngineWire.version], foreignVersion, truncated, flipped, wrongMessage, oversized] {
            let conversation = EngineConversation(program: nil) { _ in
                Issue.record("a hostile message produced an interim reply")
            } ask: { _ in
                Issue.record("a hostile message asked a question")
                return nil
            }
            let reply = server.respond(to: hostile, conversation: conversation)
            #expect(try Self.errorCode(reply) == .invalidParameter)
        }
        #expect(try Self.itemCount(engine) == 0)

        // The same request, well formed, runs.
        let reply = server.respond(to: valid, conversation: .silent)
        guard case .item = try Self.decodeReply(reply) else {
            Issue.record("a valid add was not answered with the item")
            return
        }
        #expect(try Self.itemCount(engine) == 1)
    }

    @Test func errorsCrossWithoutSecretsOrCauses() throws {
        let keychain = try TemporaryKeychain()
        let loopback = WireEngine(
            serving: try #require(keychain.device.embedded),
            prompt: keychain.device.configuration.passcodePrompt
        )
        let addition = try Self.query(Self.addition, for: .add)
        _ = try loopback.add(addition)
        do {
            _ = try loopback.add(addition)
            Issue.record("a duplicate was added")
        } catch {
            #expect(error.code == .duplicateItem)
            #expect(!error.message.contains("wire secret") && !String(describing: error).contains("wire secret"))
        }
    }

    @Test func credentialsStayWithTheirReference() throws {
        let keychain = try TemporaryKeychain(passcode: "2468")
        let engine = WireEngine(
            serving: try #require(keychain.device.embedded),
            prompt: keychain.device.configuration.passcodePrompt
        )
        let access = AccessControl(protection: .whenUnlockedThisDeviceOnly, flags: AccessControl.devicePasscode)
        var addition = try Self.query(Self.addition, for: .add)
        addition.accessControl = access
        addition.protection = access.protection
        _ = try engine.add(addition)

        let read = try Self.query(
            [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "Boundary",
                kSecReturnData as String: true,
            ],
            for: .copyMatching
        )
        let context = try engine.makeContext()
        keychain.queuePasscodeReplies([.entered("2468")])
        try engine.evaluate(
            access,
            operation: .useItem,
            missing: nil,
            for: context,
            reason: "test",
            interactionAllowed: true
        )
        #expect(Self.searchError(engine, read, with: context) == nil)
        var authorized = read
        authorized.credentialReference = context
        let found = try engine.search(authorized).first?.data
        #expect(found == Data("wire secret".utf8))

        // A reference nobody was given, and the evaluated one once given back, earn nothing.
        let stranger = ContextReference()
        let fresh = try engine.makeContext()
        engine.releaseContext(context)
        for reference in [stranger, fresh, context] {
            #expect(Self.searchError(engine, read, with: reference) == .authenticationNeeded)
        }
        do {
            try engine.evaluate(
                access,
                operation: .useItem,
                missing: nil,
                for: context,
                reason: "test",
                interactionAllowed: false
            )
            Issue.record("a released context was evaluated")
        } catch {
            #expect(error.code == .invalidContext)
        }
    }

    /// The code a search with `reference` fails with, `nil` if it succeeds.
    static func searchError(
        _ engine: any Engine,
        _ query: ItemQuery,
        with reference: ContextReference
    ) -> KeychainError.Code? {
        var query = query
        query.credentialReference = reference
        do {
            _ = try engine.search(query)
            return nil
        } catch {
            return error.code
        }
    }

    @Test func anInvalidatedContextLosesWhatItEarned() throws {
        let keychain = try TemporaryKeychain(passcode: "2468")
        let engine = try #require(keychain.device.embedded)
        let context = try engine.makeContext()
        keychain.queuePasscodeReplies([.entered("2468")])
        try engine.evaluate(.deviceOwner, for: context, reason: "test", interactionAllowed: true)
        #expect(!engine.gate.credentials(of: context).isEmpty)
        engine.invalidateContext(context)
        #expect(engine.gate.credentials(of: context).isEmpty)
        #expect(engine.preflight(.deviceOwner, for: context)?.code == .invalidContext)
    }

    @Test func aCallerSuppliedReferenceMustBeOne() throws {
        let keychain = try TemporaryKeychain()
        let short: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecUseCredentialReference as String: Data([1, 2, 3]),
        ]
        let unknown: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecUseCredentialReference as String: Data(count: ContextReference.length),
        ]
        let statuses = keychain.run {
            (SecItemCopyMatching(short as CFDictionary, nil), SecItemCopyMatching(unknown as CFDictionary, nil))
        }
        #expect(statuses.0 == errSecParam)
        #expect(statuses.1 == errSecItemNotFound)
    }

    @Test func progressCrossesTheBoundary() throws {
        let keychain = try TemporaryKeychain()
        let engine = WireEngine(
            serving: try #require(keychain.device.embedded),
            prompt: keychain.device.configuration.passcodePrompt
        )
        for index in 0..<5 {
            var addition = Self.addition
            addition[kSecAttrAccount as String] = "account \(index)"
            _ = try engine.add(try Self.query(addition, for: .add))
        }
        let reports = Reports()
        try engine.setPasscode("1357", current: nil) { completed, total in reports.append(completed, total) }
        let seen = reports.all
        #expect(seen.last?.completed == seen.last?.total)
        #expect(seen.last?.total == 5)
    }
}

/// Progress reports, gathered from whichever thread reports them.
private final class Reports: Sendable {
    private let reports = Mutex<[(completed: Int, total: Int)]>([])

    func append(_ completed: Int, _ total: Int) {
        reports.withLock { $0.append((completed, total)) }
    }

    var all: [(completed: Int, total: Int)] {
        reports.withLock { $0 }
    }
}
