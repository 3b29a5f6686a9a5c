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
import KeychainBus
import KeychainContract
import KeychainCore
import Logging

/// The freedesktop Secret Service (specification 0.2) for one user's keychain, on that user's
/// session bus: `org.freedesktop.secrets`.
///
/// Every call runs on the bus connection's thread, so the provider's state needs no lock; only a
/// prompt's conversation with a person runs elsewhere, and comes back through
/// ``BusConnection/perform(_:)``.
final class SecretServiceProvider: @unchecked Sendable {
    let bus: BusConnection
    let store: SecretStore
    let userID: UInt32
    let baseline: ClientIdentity.Confinement?
    /// Asks the person for the keychain's passcode on behalf of a program, for a reason.
    let askPasscode: @Sendable (_ program: String?, _ reason: String) -> PasscodePrompt.Reply?
    /// Asks the person whether a program may read a secret (`nil`: nobody could be asked).
    let askConsent: @Sendable (_ description: String) -> Pinentry.Consent?
    let logger: Logger

    var callers: [String: SecretCaller] = [:]
    var sessions: [String: SecretSession] = [:]
    var prompts: [String: SecretPrompt] = [:]
    /// Connection and item path of the reads the person allowed once, for the connection's life.
    var allowedOnce: Set<String> = []
    /// gnome-keyring's `session` collection: items kept in memory only, by group.
    var memory: [String: [String: (item: SecretItem, secret: Data)]] = [:]
    /// The attribute pairs of each group's items (see ``SecretIndex``).
    var indexes: [String: SecretIndex] = [:]
    let indexKey = SymmetricKey(size: .bits256)
    var nextNumber = 0
    /// The lock state read for the call being answered (asked once per call, not per object).
    var lockedDuringCall: Bool?
    /// The lock state the connections were last told of (``announceLockChange(locked:)``).
    var announcedLock: Bool?
    /// Each group's stored collections, as last read while the keychain was unlocked: the ones
    /// whose `Locked` changes when it locks.
    var knownCollections: [String: [String]] = [:]
    /// The connections whose protected read runs now (one each).
    let protectedReads = LockedState<Set<String>>([])
    /// Each connection's authentication context, and when it was made: what a connection proved
    /// serves its reads of protected items until ``authenticationReuse`` has passed.
    let contexts = LockedState<[String: (reference: ContextReference, made: ContinuousClock.Instant)]>([:])

    /// How long one authentication serves a connection's reads of protected items (a browser
    /// reading its fifty passwords asks once).
    static let authenticationReuse: Duration = .seconds(300)

    /// How many sessions and open prompts one connection may hold.
    static let sessionLimit = 64
    static let promptLimit = 8
    /// The largest label, attribute map and secret taken.
    static let labelLimit = 4_096
    static let attributeLimit = 256
    static let attributeSizeLimit = 65_536
    static let secretLimit = 1 << 20
    /// The largest content type taken.
    static let contentTypeLimit = 256
    /// How many items, and how many bytes of secrets, a group keeps in the session collection.
    static let memoryItemLimit = 1_024
    static let memoryByteLimit = 16 << 20
    /// How many protected reads (each may wait for a person) run at once, in all.
    static let protectedReadLimit = 8

    init(
        bus: BusConnection,
        engine: any Engine,
        userID: UInt32,
        baseline: ClientIdentity.Confinement?,
        logger: Logger,
        askPasscode: @escaping @Sendable (String?, String) -> PasscodePrompt.Reply?,
        askConsent: @escaping @Sendable (String) -> Pinentry.Consent? = { _ in nil }
    ) {
        self.bus = bus
        self.store = SecretStore(engine: engine)
        self.userID = userID
        self.baseline = baseline
        self.logger = logger
        self.askPasscode = askPasscode
        self.askConsent = askConsent
    }

    /// Serves the provider's objects on the bus and forgets what a connection held when it leaves.
    func start() throws(BusError) {
        try bus.serve { [unowned self] call in handle(call) }
        try bus.watch(
            "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged'"
        ) { [unowned self] signal in
            // Only the bus daemon's word: anyone may address a forged one to this connection.
            guard signal.sender == "org.freedesktop.DBus", signal.arguments.count == 3,
                let name = signal.arguments[0].string,
                signal.arguments[2].string == "", name.hasPrefix(":")
            else { return }
            disconnected(name)
        }
    }

    private func disconnected(_ name: String) {
        callers[name] = nil
        allowedOnce = allowedOnce.filter { !$0.hasPrefix(name + "\n") }
        // A read of its still running asks the person nothing more.
        protectedReads.withLock { _ = $0.remove(name) }
        if let context = contexts.withLock({ $0.removeValue(forKey: name) }) {
            store.engine.releaseContext(context.reference)
        }
        sessions = sessions.filter { $0.value.owner != name }
        for (path, prompt) in prompts where prompt.owner == name {
            prompt.cancel()
            prompts[path] = nil
        }
    }

    // MARK: Dispatch

    private func handle(_ call: BusCall) {
        lockedDuringCall = nil
        defer { lockedDuringCall = nil }
        do throws(BusError) {
            if try answersSecretsLater(call) { return }
            call.reply(try answer(call))
        } catch {
            call.fail(error)
        }
    }

    private func answer(_ call: BusCall) throws(BusError) -> [BusValue] {
        switch call.interface {
        case "org.freedesktop.DBus.Introspectable" where call.member == "Introspect":
            return [.string(try introspection(of: call.path))]
        case "org.freedesktop.DBus.Peer" where call.member == "Ping":
            return []
        default:
            break
        }
        if call.path == Self.portalPath { return try portal(call) }
        let caller = try caller(call.sender)
        guard let path = SecretPath(call.path), try exists(path, caller: caller) else {
            throw SecretError.noSuchObject("no object at \(call.path)")
        }
        if call.interface == "org.freedesktop.DBus.Properties" {
            return try properties(call, path: path, caller: caller)
        }
        switch path {
        case .service: return try service(call, caller: caller)
        case .collection, .alias: return try collection(call, path: path, caller: caller)
        case .item: return try item(call, path: path, caller: caller)
        case .session(let id): return try session(call, id: id)
        case .prompt: return try prompt(call, path: path)
        case .folder: throw BusError.unknownMethod("\(call.path) has no methods")
        }
    }

    /// The caller `sender`, identified at its first call; an unidentifiable one is refused.
    func caller(_ sender: String) throws(BusError) -> SecretCaller {
        if let known = callers[sender] { return known }
        let caller = try SecretCaller.identify(sender, on: bus, userID: userID, baseline: baseline)
        guard caller.group != nil else {
            throw BusError.accessDenied("this program's identity cannot be verified")
        }
        callers[sender] = caller
        return caller
    }

    /// A new number for an object's path.
    func number() -> String {
        nextNumber += 1
        return String(nextNumber)
    }

    // MARK: Arguments

    /// The arguments of `call` if it has `signature`; InvalidArgs otherwise.
    func arguments(_ call: BusCall, _ signature: String) throws(BusError) -> [BusValue] {
        guard call.signature == signature else {
            throw BusError.invalidArguments("\(call.member) takes (\(signature)), not (\(call.signature))")
        }
        return call.arguments
    }

    /// An `a{ss}` argument as a dictionary, within the provider's limits.
    func attributeMap(_ value: BusValue) throws(BusError) -> [String: String] {
        guard let entries = value.stringDictionary else { throw BusError.invalidArguments("attributes are a{ss}") }
        guard entries.count <= Self.attributeLimit else {
            throw BusError.invalidArguments("more than \(Self.attributeLimit) attributes")
        }
        var result: [String: String] = [:]
        var size = 0
        for (key, value) in entries {
            guard let text = value.string else { throw BusError.invalidArguments("attribute values are strings") }
            size += key.utf8.count + text.utf8.count
            result[key] = text
        }
        guard size <= Self.attributeSizeLimit else {
            throw BusError.invalidArguments("the attributes are larger than \(Self.attributeSizeLimit) bytes")
        }
        return result
    }

    /// The keychain's lock state; a keychain that cannot answer counts as locked.
    var isLocked: Bool {
        if let known = lockedDuringCall { return known }
        let locked = (try? store.engine.isLocked()) ?? true
        lockedDuringCall = locked
        if let announced = announcedLock, announced != locked { announceLockChange(locked: locked) }
        announcedLock = locked
        return locked
    }

    /// The D-Bus error for an engine error.
    func busError(_ error: KeychainError) -> BusError {
        switch error.code {
        case .interactionNotAllowed, .authenticationFailed, .userCanceled:
            return SecretError.isLocked("the keychain is locked")
        case .itemNotFound:
            return SecretError.noSuchObject("no such item")
        case .quotaExceeded:
            return BusError.limitsExceeded(error.message)
        case .invalidParameter, .dataTooLarge:
            return BusError.invalidArguments(error.message)
        default:
            return BusError.failed(error.message)
        }
    }

    /// The time as the specification's properties give it: seconds since 1970.
    static func seconds(_ date: Date) -> BusValue {
        let seconds = date.timeIntervalSince1970
        return .uint64(seconds.isFinite && seconds > 0 ? UInt64(min(seconds, 1e15)) : 0)
    }
}
