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

/// What carries engine messages between a client and an ``EngineServer``.
///
/// A transport moves bytes only: ``WireEngine`` encodes the requests and decodes the replies.
package protocol EngineTransport: Sendable {
    /// Sends one request message and returns the final reply message.
    ///
    /// - Parameters:
    ///   - message: The request, as ``EngineWire`` encodes it.
    ///   - interim: Receives each interim reply (progress, a question) before the final one
    ///     arrives; a message it returns (an answer) is sent to the far side.
    /// - Throws: ``KeychainCoreError/Code/io`` when the far side cannot be reached or stops
    ///   answering; the request may or may not have run.
    func exchange(_ message: [UInt8], interim: @escaping @Sendable ([UInt8]) -> [UInt8]?) throws(KeychainCoreError) -> [UInt8]
}

/// The transport of the boundary test: the server runs in this process, on the caller's thread.
package struct LoopbackTransport: EngineTransport {
    private let server: EngineServer

    /// The engine on the far side.
    package var engine: any KeychainEngine { server.engine }

    /// A transport to a server of `engine`.
    package init(serving engine: any KeychainEngine) {
        server = EngineServer(engine: engine)
    }

    package func exchange(_ message: [UInt8], interim: @escaping @Sendable ([UInt8]) -> [UInt8]?) throws(KeychainCoreError) -> [UInt8] {
        server.respond(to: message, conversation: EngineConversation(program: nil, report: { _ = interim($0) }, ask: interim))
    }
}

extension WireEngine {
    /// An engine that sends every request through the wire format to `engine`, in this process;
    /// `prompt` answers the questions the engine relays.
    package convenience init(serving engine: any KeychainEngine, prompt: PasscodePrompt) {
        self.init(transport: LoopbackTransport(serving: engine), prompt: prompt)
    }

    /// The engine behind a loopback transport; `nil` for any other transport.
    package var served: (any KeychainEngine)? {
        (transport as? LoopbackTransport)?.engine
    }
}
