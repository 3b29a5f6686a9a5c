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
/// connection; a frame that is still arriving waits for the rest.
struct FrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = [UInt8]

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let header = buffer.getBytes(at: buffer.readerIndex, length: EngineFrame.headerLength) else {
            return .needMoreData
        }
        guard let length = EngineFrame.length(ofHeader: header) else { throw FrameError.malformed }
        guard buffer.readableBytes >= EngineFrame.headerLength + length else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: EngineFrame.headerLength)
        guard let message = buffer.readBytes(length: length) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(message))
        return .continue
    }

    mutating func decodeLast(
        context: ChannelHandlerContext,
        buffer: inout ByteBuffer,
        seenEOF: Bool
    ) throws -> DecodingState {
        // What is left after the peer closed is an unfinished frame: drop it.
        buffer.moveReaderIndex(to: buffer.writerIndex)
        return .needMoreData
    }
}

/// Why a connection was closed.
enum FrameError: Error {
    /// A length prefix of zero or above the limit.
    case malformed
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
