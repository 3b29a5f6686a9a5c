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
import KeychainTesting
import Testing

@testable import KeychainContract
@testable import KeychainCore

/// The hand-written form of the item requests and replies: every field arrives as the general
/// format would carry it, and bytes from an attacker end in an error, never in a crash.
@Suite struct CompactFormTests {
    // MARK: Every field survives

    @Test func everyFieldOfAnItemRequestSurvives() throws {
        var generator = SplitMix64(seed: 0x0C0A_9AC7)
        for round in 0..<300 {
            let query = Self.query(&generator, full: round == 0)
            let update = Self.update(&generator)
            for request in [
                EngineRequest.add(query), .search(query), .update(query, update), .delete(query), .lockState,
            ] {
                let bytes = try EngineWire.encode(request)
                #expect(bytes[1] == CompactForm.Kind.request.rawValue)
                let decoded = try EngineWire.decode(EngineRequest.self, from: bytes)
                #expect(try Self.general(decoded) == Self.general(request), "round \(round)")
            }
        }
    }

    @Test func everyLoginEventAndOutcomeSurvives() throws {
        let events: [LoginEvent] = [
            .sessionOpened(password: "Corr3ct-Horse é", setsFirstPasscode: true),
            .sessionOpened(password: "", setsFirstPasscode: false),
            .passwordChanged(old: "old", new: "new ✓"), .sessionLocked(reopensWithinSeconds: 172_800),
            .sessionLocked(reopensWithinSeconds: 0), .sessionUnlocked,
        ]
        for event in events {
            for userID: UInt32 in [0, 1000, .max] {
                let bytes = try EngineWire.encode(EngineRequest.login(event, userID: userID))
                #expect(bytes[1] == CompactForm.Kind.request.rawValue)
                guard case .login(let decoded, let decodedUser) = try EngineWire.decode(EngineRequest.self, from: bytes)
                else {
                    Issue.record("\(event) did not come back as a login event")
                    continue
                }
                #expect(decoded == event)
                #expect(decodedUser == userID)
            }
        }
        for outcome in LoginOutcome.allCases {
            let bytes = try EngineWire.encode(EngineResponse.login(outcome))
            #expect(bytes == [EngineWire.version, CompactForm.Kind.response.rawValue, 5, outcome.rawValue])
            guard case .login(let decoded) = try EngineWire.decode(EngineResponse.self, from: bytes) else {
                Issue.record("\(outcome) did not come back")
                continue
            }
            #expect(decoded == outcome)
        }
        // An outcome this build does not know, an event kind it does not know: malformed, not a crash.
        #expect(throws: KeychainError.self) {
            _ = try EngineWire.decode(EngineResponse.self, from: [EngineWire.version, 2, 5, 200])
        }
        #expect(throws: KeychainError.self) {
            _ = try EngineWire.decode(EngineRequest.self, from: [EngineWire.version, 1, 5, 9, 0])
        }
    }

    @Test func everyFieldOfAnItemReplySurvives() throws {
        var generator = SplitMix64(seed: 0x0E5B_0A5E)
        for round in 0..<300 {
            let results = (0..<Int.random(in: 0...3, using: &generator)).map { _ in Self.result(&generator) }
            let error = Self.error(&generator)
            let lockState = LockState(
                hasPasscode: Bool.random(using: &generator),
                isUnlocked: Bool.random(using: &generator),
                hasBeenUnlocked: Bool.random(using: &generator),
                failedAttempts: Int.random(in: 0...20, using: &generator),
                nextAttempt: Bool.random(using: &generator)
                    ? Date(timeIntervalSinceReferenceDate: Double.random(in: 0...1e9, using: &generator)) : nil,
                secretStore: Bool.random(using: &generator)
                    ? "TPM 2.0 (IBM SWTPM, firmware 8217.4131)" : "file (no TPM: é)"
            )
            var replies: [EngineResponse] = [.done, .items(results), .keychainError(error), .lockState(lockState)]
            if let first = results.first { replies.append(.item(first)) }
            for reply in replies {
                let bytes = try EngineWire.encode(reply)
                #expect(bytes[1] == CompactForm.Kind.response.rawValue)
                let decoded = try EngineWire.decode(EngineResponse.self, from: bytes)
                #expect(try Self.general(decoded) == Self.general(reply), "round \(round)")
            }
        }
    }

    /// A field added to one of these types must be given its place in `CompactForm+Items.swift`
    /// (and then counted here): the compact form would silently drop it.
    @Test func theCompactFormKnowsEveryField() {
        #expect(Mirror(reflecting: ItemQuery(itemClass: .genericPassword)).children.count == 15)
        #expect(Mirror(reflecting: ItemUpdate()).children.count == 4)
        #expect(Mirror(reflecting: Self.result(&Self.fixed)).children.count == 5)
        #expect(Mirror(reflecting: KeychainError(.io, "")).children.count == 5)
        #expect(
            Mirror(
                reflecting: AuthenticationRequest(
                    accessControl: AccessControl(protection: .whenUnlocked),
                    operation: .useItem
                )
            ).children.count == 3
        )
        #expect(Mirror(reflecting: KeychainError.SourceLocation(file: "", line: 0)).children.count == 2)
        #expect(Mirror(reflecting: AccessControl(protection: .whenUnlocked)).children.count == 2)
        #expect(Mirror(reflecting: AccessGroups(["a"])).children.count == 2)
        #expect(
            Mirror(reflecting: PersistentReference(itemClass: .genericPassword, identifier: Data())).children.count == 2
        )
        let lockState = LockState(
            hasPasscode: true,
            isUnlocked: true,
            hasBeenUnlocked: true,
            failedAttempts: 0,
            nextAttempt: nil
        )
        #expect(Mirror(reflecting: lockState).children.count == 6)
    }

    @Test func otherMessagesKeepTheGeneralFormat() throws {
        #expect(try EngineWire.encode(EngineRequest.biometryState)[1] == CompactForm.Kind.general.rawValue)
        #expect(
            try EngineWire.encode(EngineResponse.context(ContextReference()))[1] == CompactForm.Kind.general.rawValue
        )
    }

    // MARK: Hostile bytes

    @Test func aReplyIsNotARequestNorARequestAReply() throws {
        let reply = try EngineWire.encode(EngineResponse.items([Self.result(&Self.fixed)]))
        #expect(throws: KeychainError.self) { try EngineWire.decode(EngineRequest.self, from: reply) }
        let request = try EngineWire.encode(EngineRequest.search(ItemQuery(itemClass: .internetPassword)))
        #expect(throws: KeychainError.self) { try EngineWire.decode(EngineResponse.self, from: request) }
        for kind: UInt8 in [3, 255] {
            #expect(throws: KeychainError.self) {
                try EngineWire.decode(EngineRequest.self, from: [EngineWire.version, kind, 1])
            }
        }
    }

    @Test func everyTruncationAndExtraByteIsRefused() throws {
        var generator = SplitMix64(seed: 7)
        let request = try EngineWire.encode(
            EngineRequest.update(Self.query(&generator, full: true), Self.update(&generator))
        )
        for length in 0..<request.count {
            #expect(throws: KeychainError.self) {
                try EngineWire.decode(EngineRequest.self, from: Array(request.prefix(length)))
            }
        }
        #expect(throws: KeychainError.self) { try EngineWire.decode(EngineRequest.self, from: request + [0]) }
        let reply = try EngineWire.encode(EngineResponse.items([Self.result(&generator), Self.result(&generator)]))
        for length in 0..<reply.count {
            #expect(throws: KeychainError.self) {
                try EngineWire.decode(EngineResponse.self, from: Array(reply.prefix(length)))
            }
        }
    }

    @Test func hugeCountsAreRefusedBeforeAnythingIsAllocated() {
        // A search whose attribute dictionary claims four billion pairs; replies claiming as many items.
        let attributes: [UInt8] = [EngineWire.version, 1, 1, 4] + Array("genp".utf8) + [0xff, 0xff, 0xff, 0xff, 0x0f]
        #expect(throws: KeychainError.self) { try EngineWire.decode(EngineRequest.self, from: attributes) }
        let items: [UInt8] = [EngineWire.version, 2, 2, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]
        #expect(throws: KeychainError.self) { try EngineWire.decode(EngineResponse.self, from: items) }
    }

    @Test func anAttributeGivenTwiceIsRefused() throws {
        var query = ItemQuery(itemClass: .genericPassword)
        query.attributes = ["acct": .string("a")]
        let bytes = try EngineWire.encode(EngineRequest.search(query))
        // The class ("genp") is followed by the attribute count (1), then "acct" and its value.
        let count = 3 + 1 + 4
        #expect(bytes[count] == 1)
        // The pair: the key's length and bytes, the value's tag, length and byte.
        let pair = Array(bytes[(count + 1)..<(count + 1 + 1 + 4 + 1 + 1 + 1)])
        func withSecond(_ pair: [UInt8]) -> [UInt8] {
            var bytes = bytes
            bytes[count] = 2
            bytes.insert(contentsOf: pair, at: count + 1)
            return bytes
        }
        #expect(throws: KeychainError.self) { try EngineWire.decode(EngineRequest.self, from: withSecond(pair)) }
        // The same bytes with another key are two attributes.
        let other = [pair[0]] + Array("svce".utf8) + pair[5...]
        guard case .search(let decoded) = try EngineWire.decode(EngineRequest.self, from: withSecond(other)) else {
            Issue.record("not a search")
            return
        }
        #expect(decoded.attributes == ["acct": .string("a"), "svce": .string("a")])
    }

    /// What the daemon answers on its event loop: look-ups the index answers, nothing that may
    /// scan the keychain or derive a key.
    @Test func onlyIndexedLookUpsOfOneItemAreBrief() {
        func search(_ change: (inout ItemQuery) -> Void) -> Bool {
            var query = ItemQuery(itemClass: .genericPassword)
            query.attributes = ["svce": .string("Example"), "acct": .string("me")]
            change(&query)
            return EngineRequest.search(query).isBrief
        }
        #expect(search { _ in })
        #expect(
            search {
                $0.attributes = [:]
                $0.persistentReference = PersistentReference(itemClass: .genericPassword, identifier: Data(count: 16))
            }
        )
        #expect(!search { $0.attributes = [:] })
        #expect(!search { $0.attributes["labl"] = .string("a label") })
        #expect(!search { $0.matchLimit = .all })
        #expect(!search { $0.matchLimit = .count(1) })
        #expect(!search { $0.credentialReference = ContextReference() })
        #expect(!search { $0.authenticationUI = .skip })
        #expect(!search { $0.hostOrSubdomainOf = "example.com" })
        #expect(!search { $0.itemClass = .identity })
        #expect(!EngineRequest.add(ItemQuery(itemClass: .genericPassword)).isBrief)
        #expect(EngineRequest.lockState.isBrief)
    }

    @Test func mutatedMessagesNeverCrashTheDecoder() throws {
        var generator = SplitMix64(seed: 0xBAD_B17E)
        let seeds = [
            try EngineWire.encode(EngineRequest.update(Self.query(&generator, full: true), Self.update(&generator))),
            try EngineWire.encode(EngineRequest.search(Self.query(&generator, full: false))),
        ]
        let replies = [
            try EngineWire.encode(EngineResponse.items([Self.result(&generator), Self.result(&generator)])),
            try EngineWire.encode(EngineResponse.keychainError(Self.error(&generator))),
        ]
        for round in 0..<20_000 {
            var bytes = round % 2 == 0 ? seeds[round / 2 % 2] : replies[round / 2 % 2]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? EngineWire.decode(EngineRequest.self, from: bytes)
            _ = try? EngineWire.decode(EngineResponse.self, from: bytes)
        }
    }

    // MARK: Values

    nonisolated(unsafe) static var fixed = SplitMix64(seed: 1)

    /// A message in the general format, as a tree whose keyed containers are sorted (a
    /// dictionary's order is not part of its value).
    static func general(_ message: some Encodable) throws -> WireValue {
        func sorted(_ value: WireValue) -> WireValue {
            switch value {
            case .array(let elements): .array(elements.map(sorted))
            case .keyed(let pairs): .keyed(pairs.map { ($0.key, sorted($0.value)) }.sorted { $0.key < $1.key })
            default: value
            }
        }
        return sorted(try WireValue(reading: WireEncoder().encode(message)))
    }

    static func string(_ generator: inout SplitMix64) -> String {
        ["", "a", "Example", "é漢\u{0}", String(repeating: "x", count: 200)].anyElement(using: &generator)
    }

    static func bytes(_ generator: inout SplitMix64) -> Data {
        Data((0..<Int.random(in: 0...40, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    static func attributes(_ generator: inout SplitMix64) -> [String: AttributeValue] {
        var attributes: [String: AttributeValue] = [:]
        for code in ["acct", "svce", "labl", "gena", "type", "cdat", "invi", ""] where Bool.random(using: &generator) {
            attributes[code] =
                switch Int.random(in: 0..<5, using: &generator) {
                case 0: .string(string(&generator))
                case 1: .data(bytes(&generator))
                case 2: .number(Int64.random(in: .min ... .max, using: &generator))
                case 3: .bool(Bool.random(using: &generator))
                default: .date(Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &generator)))
                }
        }
        return attributes
    }

    static func accessControl(_ generator: inout SplitMix64) -> AccessControl {
        AccessControl(
            protection: ProtectionClass.allCases.anyElement(using: &generator),
            flags: UInt.random(in: 0...UInt(UInt32.max), using: &generator)
        )
    }

    static func maybe<Value>(_ generator: inout SplitMix64, _ full: Bool, _ make: (inout SplitMix64) -> Value) -> Value?
    {
        full || Bool.random(using: &generator) ? make(&generator) : nil
    }

    static func query(_ generator: inout SplitMix64, full: Bool) -> ItemQuery {
        var query = ItemQuery(itemClass: ItemClass.allCases.anyElement(using: &generator))
        query.attributes = attributes(&generator)
        query.matchesAnySynchronizable = Bool.random(using: &generator)
        query.protection = maybe(&generator, full) { ProtectionClass.allCases.anyElement(using: &$0) }
        query.accessControl = maybe(&generator, full, accessControl)
        query.valueData = maybe(&generator, full, bytes)
        query.persistentReference = maybe(&generator, full) {
            PersistentReference(itemClass: .key, identifier: bytes(&$0))
        }
        query.matchLimit = [MatchLimit.one, .all, .count(Int.random(in: .min ... .max, using: &generator))]
            .anyElement(using: &generator)
        query.returnTypes = ReturnTypes(rawValue: UInt8.random(in: 0...255, using: &generator))
        query.authenticationUI = [AuthenticationUI.allow, .fail, .skip].anyElement(using: &generator)
        query.operationPrompt = maybe(&generator, full, string)
        query.credentialReference = maybe(&generator, full) { _ in ContextReference() }
        query.accessGroups = maybe(&generator, full) { AccessGroups([string(&$0), "*"], excluding: [string(&$0)]) }
        query.hostOrSubdomainOf = maybe(&generator, full, string)
        query.keyOperation = maybe(&generator, full) { generator -> KeyOperation in
            switch Int.random(in: 0...6, using: &generator) {
            case 0: .generate
            case 1: .sign(digest: bytes(&generator))
            case 2: .keyExchange(publicKey: bytes(&generator))
            case 3: .generateWrapped(compactRepresentable: Bool.random(using: &generator))
            case 4: .publicKeyOfWrapped(blob: bytes(&generator))
            case 5: .signWrapped(blob: bytes(&generator), digest: bytes(&generator))
            default: .keyExchangeWrapped(blob: bytes(&generator), publicKey: bytes(&generator))
            }
        }
        return query
    }

    static func update(_ generator: inout SplitMix64) -> ItemUpdate {
        var update = ItemUpdate()
        update.attributes = attributes(&generator)
        update.protection = maybe(&generator, false) { ProtectionClass.allCases.anyElement(using: &$0) }
        update.accessControl = maybe(&generator, false, accessControl)
        update.valueData = maybe(&generator, false, bytes)
        return update
    }

    static func result(_ generator: inout SplitMix64) -> ItemResult {
        ItemResult(
            itemClass: ItemClass.storedClasses.anyElement(using: &generator),
            attributes: attributes(&generator),
            accessControl: accessControl(&generator),
            data: maybe(&generator, false, bytes),
            persistentReference: PersistentReference(itemClass: .genericPassword, identifier: bytes(&generator))
        )
    }

    /// An item or key operation (raw values 0 to 5).
    static func accessOperation(_ generator: inout SplitMix64) -> AccessOperation {
        guard let operation = AccessOperation(rawValue: Int.random(in: 0...5, using: &generator)) else {
            preconditionFailure("0 to 5 are the raw values of the item and key operations")
        }
        return operation
    }

    static func error(_ generator: inout SplitMix64) -> KeychainError {
        var error = KeychainError(
            KeychainError.Code(KeychainError.Code.Kind.allCases.anyElement(using: &generator)),
            string(&generator),
            cause: maybe(&generator, false) { DescribedError(string(&$0)) },
            line: Int.random(in: .min ... .max, using: &generator)
        )
        error.authenticationRequest = maybe(&generator, false) { generator in
            AuthenticationRequest(
                accessControl: accessControl(&generator),
                operation: accessOperation(&generator),
                // one each: a set's order is not part of its value
                missingAlternatives: [[.passcode], [], [.biometryAny]]
            )
        }
        return error
    }
}

extension Collection {
    /// `randomElement(using:)` of a collection these tests never leave empty: the same draw, unwrapped.
    fileprivate func anyElement(using generator: inout SplitMix64) -> Element {
        guard let element = randomElement(using: &generator) else {
            preconditionFailure("a non-empty literal or a type's non-empty list of cases")
        }
        return element
    }
}
