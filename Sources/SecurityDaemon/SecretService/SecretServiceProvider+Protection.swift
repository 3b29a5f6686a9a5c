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
import KeychainBus
import KeychainContract
import KeychainCore

/// Secrets a person must release: those of protected collections (`security secret-service
/// protect`), and, when reads are confirmed (`security secret-service confirm on`), those of items
/// that do not trust the reading program.
///
/// A protected read passes the daemon's authentication gate — a finger on fprintd's reader or the
/// simulated sensor, or the passcode through pinentry — on a context of the reading connection,
/// which then serves that connection's reads for ``SecretServiceProvider/authenticationReuse``.
/// The item's own access control enforces it: without a context that authenticated, the engine
/// cannot open the secret. A person may take a while: the reads run off the bus thread, and the
/// call is answered when they end.
extension SecretServiceProvider {
    /// Answers `GetSecret` of an item a person must release, or `GetSecrets` naming one, off the
    /// bus thread; false (nothing done) for every other call.
    func answersSecretsLater(_ call: BusCall) throws(BusError) -> Bool {
        let wanted: [String]
        let sessionPath: String
        switch (SecretPath(call.path), call.member) {
        case (.item?, "GetSecret") where call.signature == "o":
            wanted = [call.path]
            sessionPath = call.arguments[0].objectPath ?? ""
        case (.service?, "GetSecrets") where call.signature == "aoo":
            wanted = try paths(call.arguments[0])
            sessionPath = call.arguments[1].objectPath ?? ""
        default:
            return false
        }
        let caller = try caller(call.sender)
        guard let group = caller.group, !isLocked else { return false }
        var items: [(path: String, item: SecretItem)] = []
        var seen: Set<String> = []
        // Each item once: a list that names one item a thousand times asks about it once.
        for path in wanted where seen.insert(path).inserted {
            guard let object = SecretPath(path), case .item = object,
                let (item, _) = try? item(at: object, caller: caller, withSecret: false)
            else { continue }
            items.append((path, item))
        }
        var protected: Set<String> = []
        for collection in Set(items.map(\.item.collection)) where collection != Self.memoryCollection {
            do {
                if try protection(of: collection, group: group) != 0 { protected.insert(collection) }
            } catch {
                throw busError(error)
            }
        }
        var unconsented: Set<String> = []
        for (path, item) in items where try needsConsent(to: item, caller: caller, group: group) {
            unconsented.insert(path)
        }
        guard !protected.isEmpty || !unconsented.isEmpty else { return false }
        let session = try session(sessionPath, caller: caller)
        // One read at a time per connection, a few in all: each may wait for a person.
        let admitted = protectedReads.withLock { running in
            guard running.count < Self.protectedReadLimit, running.insert(caller.peer.name).inserted else {
                return false
            }
            return true
        }
        guard admitted else {
            throw BusError.limitsExceeded("a read of a protected secret is waiting for the user already")
        }
        // Made here, on the bus thread: a connection that leaves meanwhile releases it.
        let context: ContextReference
        do {
            context = try self.context(for: caller.peer.name)
        } catch {
            protectedReads.withLock { _ = $0.remove(caller.peer.name) }
            throw error
        }
        let single = call.member == "GetSecret"
        let (chosen, protectedCollections, unconsentedItems) = (items, protected, unconsented)
        Thread.detachNewThread { [self] in
            var secrets: [BusValue] = []
            var refusal: BusError?
            var declined: BusError?
            for (path, item) in chosen {
                do throws(BusError) {
                    if unconsentedItems.contains(path) {
                        // Asked no more once the person said no, or once the program left.
                        if let declined { throw declined }
                        guard protectedReads.withLock({ $0.contains(caller.peer.name) }) else {
                            throw BusError.accessDenied("the program left")
                        }
                        do throws(BusError) {
                            try obtainConsent(to: item, caller: caller, group: group)
                        } catch {
                            declined = error
                            throw error
                        }
                    }
                    let secret =
                        protectedCollections.contains(item.collection)
                        ? try authenticatedSecret(of: item, group: group, caller: caller, context: context)
                        : try plainSecret(of: item, group: group)
                    let value = try transfer(secret, contentType: item.contentType, session: session)
                    secrets.append(single ? value : .entry(.objectPath(path), value))
                } catch {
                    refusal = error
                }
            }
            protectedReads.withLock { _ = $0.remove(caller.peer.name) }
            if single {
                if let value = secrets.first { call.reply([value]) } else { call.fail(refusal ?? .failed("no secret")) }
            } else {
                call.reply([.array(element: "{o(oayays)}", secrets)])
            }
        }
        return true
    }

    /// The secret of `item` of an unprotected collection.
    private func plainSecret(of item: SecretItem, group: String) throws(BusError) -> Data {
        do {
            return try store.secret(of: item.id, in: item.collection, group: group, isProtected: false)
        } catch {
            throw busError(error)
        }
    }

    /// `item`'s secret, authenticating the caller's connection as its access control asks.
    private func authenticatedSecret(
        of item: SecretItem,
        group: String,
        caller: SecretCaller,
        context: ContextReference
    ) throws(BusError) -> Data {
        let engine = store.engine
        let (ask, program) = (askPasscode, caller.program)
        let prompt = PasscodePrompt { _, reason in ask(program, reason) ?? .unavailable }
        for _ in 0..<3 {
            do throws(KeychainError) {
                return try store.secret(of: item.id, in: item.collection, group: group, context: context)
            } catch  where error.code == .authenticationNeeded {
                guard let request = error.authenticationRequest else { throw busError(error) }
                let label = item.label.isEmpty ? "a secret" : "“\(item.label)”"
                let evaluated = Result { () throws(AuthenticationFailure) in
                    try engine.evaluate(
                        request.accessControl,
                        operation: request.operation,
                        missing: request.missingAlternatives,
                        for: context,
                        reason: "\(program ?? "A program") wants to read \(label) from a protected collection.",
                        interactionAllowed: true,
                        prompt: prompt
                    )
                }
                if case .failure = evaluated {
                    throw BusError.accessDenied("the user did not authenticate to release this secret")
                }
            } catch {
                throw busError(error)
            }
        }
        throw BusError.accessDenied("the user did not authenticate to release this secret")
    }

    /// The connection's context, made anew once the reuse time has passed.
    private func context(for connection: String) throws(BusError) -> ContextReference {
        let engine = store.engine
        let now = ContinuousClock.now
        if let current = contexts.withLock({ $0[connection] }), now - current.made < Self.authenticationReuse {
            return current.reference
        }
        let made: ContextReference
        do { made = try engine.makeContext() } catch { throw busError(error) }
        let old = contexts.withLock { $0.updateValue((made, now), forKey: connection) }
        if let old { engine.releaseContext(old.reference) }
        return made
    }
}
