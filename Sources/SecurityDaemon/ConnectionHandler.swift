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
import KeychainCore
import Logging
import NIOCore
import NIOPosix

/// One client connection: checks who is at the other end, then answers its requests one at a
/// time on the daemon's thread pool (engine calls block: a biometric match waits for a finger).
///
/// A peer of another user is refused, but for root, which may hand any user's keychain served
/// here what the login says (``LoginEvent``: `pam_swift_keychain.so` runs in `login`, `gdm`, `sshd`
/// as root) and nothing else unless the daemon serves root's own keychain. While a request runs,
/// the only frame a client may send is the answer to a question the request asked it (a relayed
/// prompt); a second request, an unasked answer or a malformed frame loses the connection, and no
/// other connection notices.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = [UInt8]
    typealias OutboundOut = ByteBuffer

    private let roster: EngineRoster
    /// The engine of the client's user, once it connected; `refusal` instead when that user's
    /// keychain cannot be opened.
    private var responder: EngineResponder?
    private var refusal: KeychainError?
    private let pool: NIOThreadPool
    private let clients: ClientTable
    private let logger: Logger
    private var processID: Int32?
    private var programName: String?
    /// Which application the client is, as verified when it connected.
    private var identity = ClientIdentity.unverifiable
    /// The client's user, as the kernel reports it.
    private var userID: UInt32 = 0
    private var isBusy = false
    /// Whether a request of the current read was answered on the event loop.
    private var answeredThisRead = false
    /// The question of the running request that waits for the client's answer.
    private var pendingAnswer: EventLoopPromise<[UInt8]?>?

    init(roster: EngineRoster, pool: NIOThreadPool, clients: ClientTable, logger: Logger) {
        self.roster = roster
        self.pool = pool
        self.clients = clients
        self.logger = logger
    }

    // MARK: Connection

    func channelActive(context: ChannelHandlerContext) {
        switch PeerCredentials.of(context.channel) {
        case .success(let peer):
            userID = peer.userID
            // Counted first: a connection past the client's share costs the daemon nothing more.
            guard clients.connect(peer.processID, userID: peer.userID) else {
                logger.notice(
                    "refused a connection past the client's limit",
                    metadata: ["keychain.peer.uid": "\(peer.userID)"]
                )
                Self.refuse(
                    context.channel,
                    KeychainError(
                        .quotaExceeded,
                        "this program (or this user) has as many connections to the keychain daemon open as it may"
                    )
                )
                return
            }
            processID = peer.processID
            // Root is most often the login, handing a user's keychain a password (its requests
            // name their user): root's own keychain is opened only when root asks for something else.
            if peer.userID != 0 {
                guard let assigned = roster.responder(peer.userID) else {
                    logger.warning(
                        "refused a connection from another user",
                        metadata: ["keychain.peer.uid": "\(peer.userID)"]
                    )
                    context.close(promise: nil)
                    return
                }
                switch assigned {
                case .success(let responder): self.responder = responder
                case .failure(let error):
                    refusal = error
                    logger.error(
                        "cannot open a user's keychain",
                        metadata: ["keychain.peer.uid": "\(peer.userID)", "error": "\(error.code)"]
                    )
                }
            }
            // The process, pinned, so that a PID reused meanwhile cannot lend its identity.
            let handle = PeerCredentials.processHandle(of: context.channel)
            programName = peer.programName
            identity = ClientIdentity.of(processID: peer.processID, baseline: roster.confinementBaseline)
            if let handle {
                // Gone before its /proc files were read: they may have been another process's.
                if !PeerCredentials.isAlive(handle) {
                    identity = .unverifiable
                    programName = nil
                }
                close(handle)
            }
            if identity != .unsandboxed {
                logger.debug("a sandboxed client connected", metadata: ["keychain.client.identity": "\(identity)"])
            }
            context.fireChannelActive()
        case .failure:
            logger.warning("refused a connection whose peer cannot be identified")
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A question nobody will answer now: the prompt reports that nobody can be asked.
        pendingAnswer?.succeed(nil)
        pendingAnswer = nil
        if let processID {
            let orphans = clients.disconnect(processID)
            if !orphans.isEmpty, let responder {
                // What the contexts proved goes with them.
                for orphan in orphans { responder.applications?.presence.forget(orphan) }
                let engine = responder.engine
                pool.submit { _ in orphans.forEach(engine.releaseContext) }
            }
            self.processID = nil
        }
        context.fireChannelInactive()
    }

    /// A connection that sent nothing for the idle time-out is closed: a client that stopped in
    /// the middle of a frame, or an idle pooled connection (clients notice and reconnect).
    ///
    /// A connection whose request is running stays.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .read, !isBusy {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// A client that does not read its replies stops being read: once the replies waiting for it
    /// pass the channel's high-water mark, the daemon takes no more of its requests until it has
    /// read them.
    ///
    /// Without this, requests answered at once (look-ups) would pile up their replies in the
    /// daemon's memory for as long as the client sends.
    func channelWritabilityChanged(context: ChannelHandlerContext) {
        let writable = context.channel.isWritable
        context.channel.setOption(ChannelOptions.autoRead, value: writable).whenComplete { _ in }
        if writable { context.read() }
        context.fireChannelWritabilityChanged()
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        answeredThisRead = false
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if case FrameError.overLimit = error {
            logger.notice("closed a connection whose user holds as many unfinished requests as it may")
            Self.refuse(
                context.channel,
                KeychainError(
                    .quotaExceeded,
                    "this user's requests still arriving at the keychain daemon are as large as they may be"
                )
            )
            return
        }
        if error is FrameError || error is ByteToMessageDecoderError {
            logger.notice("closed a connection that sent a malformed frame")
        }
        context.close(promise: nil)
    }

    /// Answers `error` to whatever the client sends first, and closes the connection.
    private static func refuse(_ channel: any Channel, _ error: KeychainError) {
        let reply = (try? EngineWire.encode(EngineResponse.keychainError(error))) ?? []
        channel.writeAndFlush(ByteBuffer(frameOf: reply)).whenComplete { _ in channel.close(promise: nil) }
    }

    // MARK: Requests

    /// The decoder set aside each frame's bytes against its user's share (``FrameDecoder``): they
    /// are returned once the request is answered, or refused, here or on the pool.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let message = unwrapInboundIn(data)
        if serve(message, context: context) == .answered {
            clients.releaseFrame(message.count, userID: userID)
        }
    }

    private enum Served {
        /// Answered, refused or dropped: the frame's bytes can be returned.
        case answered
        /// Running on the pool, which returns them when it ends.
        case running
    }

    private func serve(_ message: [UInt8], context: ChannelHandlerContext) -> Served {
        if let pendingAnswer {
            self.pendingAnswer = nil
            pendingAnswer.succeed(message)
            return .answered
        }
        guard context.channel.isWritable else {
            // Replies wait for this client beyond the channel's high-water mark and it sends more
            // requests: no client of ours does that (each reads its reply before it asks again),
            // and answering would pile replies up in the daemon's memory.
            logger.notice("closed a connection that sent requests without reading its replies")
            context.close(promise: nil)
            return .answered
        }
        guard let processID, !isBusy else {
            logger.notice("closed a connection that sent a request before its previous one was answered")
            context.close(promise: nil)
            return .answered
        }
        // A context is the process's that made it: another's reference is one nobody was given.
        let decoded = EngineResponder.request(in: message).map { [clients] in clients.confine($0, to: processID) }
        let responder: EngineResponder
        switch self.responder(for: try? decoded.get()) {
        case .success(let found):
            responder = found
        case .failure(let error):
            // This user's keychain cannot be opened, or a login event came from another user than
            // root: the request gets that error.
            let reply = (try? EngineWire.encode(EngineResponse.keychainError(error))) ?? []
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(frameOf: reply)), promise: nil)
            return .answered
        }
        isBusy = true
        let channel = context.channel
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let (clients, userID) = (clients, userID)
        let conversation = EngineConversation(program: programName, client: identity) { interim in
            channel.writeAndFlush(ByteBuffer(frameOf: interim), promise: nil)
        } ask: { question in
            // On the pool's thread: the question goes out on the event loop, and this thread
            // waits for the answer (or the connection's end).
            let answer = channel.eventLoop.makePromise(of: [UInt8]?.self)
            channel.eventLoop.execute {
                guard channel.isActive else { return answer.succeed(nil) }
                handler.value.pendingAnswer = answer
                channel.writeAndFlush(ByteBuffer(frameOf: question), promise: nil)
            }
            return (try? answer.futureResult.wait()) ?? nil
        }
        clients.requestStarted()
        // A brief request (a look-up, the lock state) or one that did not decode is answered here:
        // two thread hand-offs cost more than the request. Anything that may wait (a person,
        // scrypt, the write lock) runs on the pool, and so does a sandboxed app's look-up (the
        // daemon may record the app first). Only one request per read is answered here: a client
        // that sends the next before it has its reply (none of ours does) goes to the pool, where a
        // further request closes its connection, and cannot keep the event loop to itself.
        let request = try? decoded.get()
        if let request, let refusal = clients.refusal(of: request, by: processID) {
            let reply = (try? EngineWire.encode(EngineResponse.keychainError(refusal))) ?? []
            clients.requestEnded()
            isBusy = false
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(frameOf: reply)), promise: nil)
            return .answered
        }
        var answersHere = request?.isBrief ?? true
        if case .search? = request, identity != .unsandboxed { answersHere = false }
        if answersHere && !answeredThisRead {
            answeredThisRead = true
            let reply = responder.respond(to: decoded, conversation: conversation) { request, response in
                clients.note(request, response, by: processID)
                DaemonWrites.noteIfItChanges(request)
            }
            clients.requestEnded()
            isBusy = false
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(frameOf: reply)), promise: nil)
            return .answered
        }
        // Evaluations wait for people: a process may keep only a few waiting, and all of them
        // together only part of the pool, so that prompts nobody answers cannot stop other work.
        let isEvaluation = request?.isEvaluation == true
        if isEvaluation && !clients.startEvaluation(by: processID, userID: userID) {
            let refusal = AuthenticationFailure(
                .systemCancel,
                "too many authentications are waiting; try again when one has ended"
            )
            let reply = (try? EngineWire.encode(EngineResponse.authenticationFailure(refusal))) ?? []
            clients.requestEnded()
            isBusy = false
            context.writeAndFlush(wrapOutboundOut(ByteBuffer(frameOf: reply)), promise: nil)
            return .answered
        }
        let frameBytes = message.count
        pool.runIfActive(eventLoop: context.eventLoop) {
            responder.respond(to: decoded, conversation: conversation) { request, response in
                clients.note(request, response, by: processID)
                DaemonWrites.noteIfItChanges(request)
            }
        }.whenComplete { result in
            clients.releaseFrame(frameBytes, userID: userID)
            if isEvaluation { clients.endEvaluation(by: processID, userID: userID) }
            clients.requestEnded()
            handler.value.isBusy = false
            switch result {
            case .success(let reply):
                channel.writeAndFlush(ByteBuffer(frameOf: reply), promise: nil)
            case .failure:
                // The daemon is shutting down and the request never ran.
                channel.close(promise: nil)
            }
        }
        return .running
    }

    /// The responder of `request`: the connection's own, or for a login event from root, that of
    /// the keychain of the user it names.
    ///
    /// A login event from any other user is refused: a password handed in that way is not
    /// counted when it is wrong, so a program of the user could guess the passcode without end.
    private func responder(for request: EngineRequest?) -> Result<EngineResponder, KeychainError> {
        if case .login(_, let target)? = request {
            guard userID == 0 else {
                logger.warning(
                    "refused a login event from a client that is not root",
                    metadata: ["keychain.peer.uid": "\(userID)"]
                )
                return .failure(
                    KeychainError(
                        .missingEntitlement,
                        "only the login (pam_swift_keychain.so, running as root) may hand the keychain a login event"
                    )
                )
            }
            guard let assigned = roster.responder(target) else {
                return .failure(KeychainError(.notAvailable, "this keychain daemon does not serve uid \(target)"))
            }
            return assigned
        }
        if responder == nil, refusal == nil, userID == 0 {
            switch roster.responder(0) {
            case .success(let found)?: responder = found
            case .failure(let error)?: refusal = error
            case nil:
                refusal = KeychainError(
                    .notAvailable,
                    "this keychain daemon does not serve root's keychain; root may only hand it the login"
                )
            }
        }
        if let responder { return .success(responder) }
        return .failure(refusal ?? KeychainError(.notAvailable, "no keychain serves this user"))
    }
}
