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

package import KeychainCore

/// What carries engine messages between a client and an ``EngineResponder``.
///
/// A transport moves bytes only: ``WireEngine`` encodes the requests and decodes the replies.
package protocol EngineTransport: Sendable {
    /// Sends one request message and reads replies until the final one.
    ///
    /// - Parameters:
    ///   - message: The request, as ``EngineWire`` encodes it.
    ///   - receive: Decodes each reply and says what it is: interim (progress, or a question
    ///     whose answer the transport sends back) or the final reply, which ends the exchange.
    /// - Returns: The response the final reply holds.
    /// - Throws: ``KeychainError/Code/io`` when the far side cannot be reached or stops
    ///   answering (the request may or may not have run), or what `receive` throws.
    func exchange(
        _ message: [UInt8],
        receive: @escaping @Sendable (_ reply: [UInt8]) throws(KeychainError) -> ReplyStep
    ) throws(KeychainError) -> EngineResponse
}

/// What one reply of an exchange is, once the client has decoded it.
package enum ReplyStep: Sendable {
    /// An interim reply; `answer` (to a question) goes back to the far side.
    case interim(answer: [UInt8]?)
    /// The final reply.
    case final(EngineResponse)
}

/// The transport of the boundary test: the responder runs in this process, on the caller's thread.
package struct LoopbackTransport: EngineTransport {
    private let responder: EngineResponder

    /// The engine on the far side.
    package var engine: any Engine { responder.engine }

    /// A transport to a responder of `engine`.
    package init(serving engine: any Engine) {
        responder = EngineResponder(engine: engine)
    }

    package func exchange(
        _ message: [UInt8],
        receive: @escaping @Sendable (_ reply: [UInt8]) throws(KeychainError) -> ReplyStep
    ) throws(KeychainError) -> EngineResponse {
        do {
            let failure = LockedState<KeychainError?>(nil)
            let interim = { @Sendable (bytes: [UInt8]) -> [UInt8]? in
                do throws(KeychainError) {
                    if case .interim(let answer) = try receive(bytes) { return answer }
                } catch {
                    failure.withLock { $0 = error }
                }
                return nil
            }
            let conversation = EngineConversation(program: nil, report: { _ = interim($0) }, ask: interim)
            let reply = responder.respond(to: message, conversation: conversation)
            if let error = failure.withLock({ $0 }) { throw error }
            guard case .final(let response) = try receive(reply) else {
                throw KeychainError(.internalInconsistency, "the engine's final reply was an interim one")
            }
            return response
        }
    }
}

extension WireEngine {
    /// An engine that sends every request through the wire format to `engine`, in this process;
    /// `prompt` answers the questions the engine relays.
    package convenience init(serving engine: any Engine, prompt: PasscodePrompt, accessGroups: AccessGroups? = nil) {
        self.init(transport: LoopbackTransport(serving: engine), prompt: prompt, accessGroups: accessGroups)
    }

    /// The engine behind a loopback transport; `nil` for any other transport.
    package var served: (any Engine)? {
        (transport as? LoopbackTransport)?.engine
    }
}
