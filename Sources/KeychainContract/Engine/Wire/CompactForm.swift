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

import KeychainCore

/// The hand-written form of the messages of every `SecItem*` call: the four item requests and
/// their replies (done, items, an error); and of the login's events and outcomes, which the PAM
/// module `pam_swift_keychain.so` writes and reads in C (`Sources/PAMModule/login_message.c`).
///
/// The general format (``WireValue`` through `Codable`) names every field and builds a tree on the
/// way in and out; for these messages that cost more than the engine's own work. The compact form
/// writes the same fields in a fixed order (see `CompactForm+Items.swift`). Every other message
/// keeps the general format; a message's second byte says which form follows.
enum CompactForm {
    /// The byte after the version: which form the rest of the message has.
    enum Kind: UInt8 {
        case general = 0
        case request = 1
        case response = 2
    }

    // MARK: Requests

    /// The compact form of `request` (without the version and kind bytes), or `nil` when it has none.
    static func encode(_ request: EngineRequest) -> [UInt8]? {
        var writer = CompactWriter()
        switch request {
        case .add(let query):
            writer.byte(0)
            writer.query(query)
        case .search(let query):
            writer.byte(1)
            writer.query(query)
        case .update(let query, let changes):
            writer.byte(2)
            writer.query(query)
            writer.update(changes)
        case .delete(let query):
            writer.byte(3)
            writer.query(query)
        case .lockState:
            writer.byte(4)
        case .login(let event, let userID):
            writer.byte(5)
            writer.loginEvent(event, userID: userID)
        default:
            return nil
        }
        return writer.bytes
    }

    /// The request `bytes` hold from `offset` on, all of them.
    static func request(in bytes: [UInt8], from offset: Int) throws(WireValue.Malformed) -> EngineRequest {
        var reader = CompactReader(bytes, from: offset)
        let request: EngineRequest =
            switch try reader.byte() {
            case 0: .add(try reader.query())
            case 1: .search(try reader.query())
            case 2: .update(try reader.query(), try reader.update())
            case 3: .delete(try reader.query())
            case 4: .lockState
            case 5: try reader.login()
            default: throw WireValue.Malformed()
            }
        guard reader.isAtEnd else { throw WireValue.Malformed() }
        return request
    }

    // MARK: Responses

    /// The compact form of `response` (without the version and kind bytes), or `nil` when it has none.
    static func encode(_ response: EngineResponse) -> [UInt8]? {
        var writer = CompactWriter()
        switch response {
        case .done:
            writer.byte(0)
        case .item(let result):
            writer.byte(1)
            writer.result(result)
        case .items(let results):
            writer.byte(2)
            writer.array(results) { $0.result($1) }
        case .keychainError(let error):
            writer.byte(3)
            writer.error(error)
        case .lockState(let state):
            writer.byte(4)
            writer.lockState(state)
        case .login(let outcome):
            writer.byte(5)
            writer.byte(outcome.rawValue)
        default:
            return nil
        }
        return writer.bytes
    }

    /// The response `bytes` hold from `offset` on, all of them.
    static func response(in bytes: [UInt8], from offset: Int) throws(WireValue.Malformed) -> EngineResponse {
        var reader = CompactReader(bytes, from: offset)
        let response: EngineResponse =
            switch try reader.byte() {
            case 0: .done
            case 1: .item(try reader.result())
            // A result takes at least eight bytes (its class, attribute count, access control, data, reference).
            case 2:
                .items(
                    try reader.array(elementsAtLeast: 8) { reader throws(WireValue.Malformed) in try reader.result() }
                )
            case 3: .keychainError(try reader.error())
            case 4: .lockState(try reader.lockState())
            case 5: .login(try reader.loginOutcome())
            default: throw WireValue.Malformed()
            }
        guard reader.isAtEnd else { throw WireValue.Malformed() }
        return response
    }
}
