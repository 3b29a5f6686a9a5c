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
import NIOCore

/// Cuts the daemon's input into messages: a 4-byte length, then that many bytes (``EngineFrame``).
///
/// A length of zero or above the limit is thrown as ``FrameError/malformed``, which closes the
/// connection; a frame that is still arriving waits for the rest. Every frame's length counts
/// against its user's share (``ClientTable/reserveFrame(_:userID:)``) from its header until its
/// request is answered — the handler returns it (``ConnectionHandler``) — so a user whose
/// connections announce large frames and trickle them, or send whole ones faster than the daemon
/// answers, holds at most that share of the daemon's memory (``FrameError/overLimit``, answered
/// with `errSecQuotaExceeded`).
struct FrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = [UInt8]

    let clients: ClientTable
    /// The peer's user, once known.
    private var userID: UInt32?
    /// What is set aside for the frame arriving now.
    private var reserved = 0

    init(clients: ClientTable) {
        self.clients = clients
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let header = buffer.getBytes(at: buffer.readerIndex, length: EngineFrame.headerLength) else {
            return .needMoreData
        }
        guard let length = EngineFrame.length(ofHeader: header) else { throw FrameError.malformed }
        // Set aside once per frame, when its header is first seen.
        try reserve(length, context: context)
        guard buffer.readableBytes >= EngineFrame.headerLength + length else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: EngineFrame.headerLength)
        guard let message = buffer.readBytes(length: length) else { return .needMoreData }
        // What was set aside is now the handler's to return, once the request is answered.
        reserved = 0
        context.fireChannelRead(wrapInboundOut(message))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        // What is left after the peer closed is an unfinished frame: drop it.
        release()
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }

    /// Sets aside `length` bytes for the frame now arriving (once per frame).
    ///
    /// The reservation of a frame that never arrives whole is returned when the connection ends
    /// (``decodeLast(context:buffer:seenEOF:)``).
    private mutating func reserve(_ length: Int, context: ChannelHandlerContext) throws {
        guard reserved == 0 else { return }
        if userID == nil, case .success(let peer) = PeerCredentials.of(context.channel) { userID = peer.userID }
        guard let userID else { throw FrameError.malformed }
        guard clients.reserveFrame(length, userID: userID) else { throw FrameError.overLimit }
        reserved = length
    }

    /// Returns what was set aside for a frame that never will arrive whole.
    private mutating func release() {
        guard reserved > 0, let userID else { return }
        clients.releaseFrame(reserved, userID: userID)
        reserved = 0
    }
}

/// Why a connection was closed.
enum FrameError: Error {
    /// A length prefix of zero or above the limit.
    case malformed
    /// A frame that would take its user past their share of bytes still arriving.
    case overLimit
}

extension ByteBuffer {
    /// A frame of `message`: its length prefix, then its bytes.
    init(frameOf message: [UInt8]) {
        self.init()
        reserveCapacity(EngineFrame.headerLength + message.count)
        writeBytes(EngineFrame.header(forLength: message.count))
        writeBytes(message)
    }
}
