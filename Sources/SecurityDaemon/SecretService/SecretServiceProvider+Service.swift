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
import Logging

/// `org.freedesktop.Secret.Service` and `org.freedesktop.Secret.Session`.
extension SecretServiceProvider {
    static let serviceInterface = "org.freedesktop.Secret.Service"

    func service(_ call: BusCall, caller: SecretCaller) throws(BusError) -> [BusValue] {
        switch call.member {
        case "OpenSession":
            let arguments = try arguments(call, "sv")
            return try openSession(algorithm: arguments[0].string ?? "", input: arguments[1].unwrapped, caller: caller)
        case "CreateCollection":
            let arguments = try arguments(call, "a{sv}s")
            let properties = arguments[0].stringDictionary ?? [:]
            let label = properties["org.freedesktop.Secret.Collection.Label"]?.unwrapped.string ?? ""
            let path = try createCollection(label: label, alias: arguments[1].string ?? "", caller: caller)
            return [.objectPath(path), .objectPath(SecretPath.none)]
        case "SearchItems":
            let arguments = try arguments(call, "a{ss}")
            let found = try search(try attributeMap(arguments[0]), in: nil, caller: caller)
            return [.paths(found.unlocked), .paths(found.locked)]
        case "Unlock":
            let objects = try paths(try arguments(call, "ao")[0])
            return try unlock(objects, caller: caller)
        case "Lock":
            let objects = try paths(try arguments(call, "ao")[0])
            guard caller.identity == .unsandboxed else {
                throw BusError.accessDenied("a sandboxed app may not lock the keychain")
            }
            let state = try? store.engine.lockState()
            guard state?.hasPasscode == true else { return [.paths([]), .objectPath(SecretPath.none)] }
            do { try store.engine.lock() } catch { throw busError(error) }
            noticeLockState()
            for group in indexes.keys { indexes[group]?.forgetMetadata() }
            return [
                .paths(objects.filter { !$0.contains("/collection/\(Self.memoryCollection)") }),
                .objectPath(SecretPath.none),
            ]
        case "GetSecrets":
            let arguments = try arguments(call, "aoo")
            let session = try session(arguments[1].objectPath ?? "", caller: caller)
            var secrets: [BusValue] = []
            for path in try paths(arguments[0]) {
                guard let object = SecretPath(path), case .item = object,
                    let (item, secret) = try? item(at: object, caller: caller, withSecret: true), let secret
                else { continue }
                secrets.append(
                    .entry(.objectPath(path), try transfer(secret, contentType: item.contentType, session: session))
                )
            }
            return [.array(element: "{o(oayays)}", secrets)]
        case "ReadAlias":
            let name = try arguments(call, "s")[0].string ?? ""
            guard let id = try alias(name, caller: caller) else { return [.objectPath(SecretPath.none)] }
            return [.objectPath(SecretPath.collection(id).path)]
        case "SetAlias":
            let arguments = try arguments(call, "so")
            try setAlias(arguments[0].string ?? "", to: arguments[1].objectPath ?? SecretPath.none, caller: caller)
            return []
        default:
            throw BusError.unknownMethod("\(Self.serviceInterface) has no method \(call.member)")
        }
    }

    func paths(_ value: BusValue) throws(BusError) -> [String] {
        guard let elements = value.elements else { throw BusError.invalidArguments("expected an array of paths") }
        return elements.compactMap(\.objectPath)
    }

    private func openSession(algorithm: String, input: BusValue, caller: SecretCaller) throws(BusError) -> [BusValue] {
        guard sessions.values.filter({ $0.owner == caller.peer.name }).count < Self.sessionLimit else {
            throw BusError.limitsExceeded("this connection has \(Self.sessionLimit) sessions open")
        }
        let path = SecretPath.session(number()).path
        guard case .session(let id)? = SecretPath(path) else { throw BusError.failed("no session path") }
        switch algorithm {
        case SecretSession.plain:
            sessions[id] = SecretSession(path: path, owner: caller.peer.name, key: nil)
            return [.variant(.string("")), .objectPath(path)]
        case SecretSession.diffieHellman:
            guard case .bytes(let clientPublic) = input else {
                throw BusError.invalidArguments("dh-ietf1024-sha256_128 takes the client's public key as ay")
            }
            guard let agreed = SecretSession.agree(clientPublic: clientPublic) else {
                throw BusError.invalidArguments("the client's public key is not in the group")
            }
            sessions[id] = SecretSession(path: path, owner: caller.peer.name, key: agreed.key)
            return [.variant(.bytes(agreed.publicValue)), .objectPath(path)]
        default:
            throw SecretError.notSupported(
                "the algorithm \(algorithm) is not supported (plain, dh-ietf1024-sha256_128)"
            )
        }
    }

    func session(_ call: BusCall, id: String) throws(BusError) -> [BusValue] {
        guard call.member == "Close", call.interface.isEmpty || call.interface == "org.freedesktop.Secret.Session"
        else {
            throw BusError.unknownMethod("a session has only Close")
        }
        sessions[id] = nil
        return []
    }

    private func createCollection(label: String, alias: String, caller: SecretCaller) throws(BusError) -> String {
        guard let group = caller.group else { throw BusError.accessDenied("no group") }
        guard label.utf8.count <= Self.labelLimit, alias.utf8.count <= 256 else {
            throw BusError.invalidArguments("the label or alias is too long")
        }
        if !alias.isEmpty, let existing = try self.alias(alias, caller: caller),
            (try? collectionID(.collection(existing), caller: caller)) != nil
        {
            return SecretPath.collection(existing).path
        }
        if isLocked { throw SecretError.isLocked("the keychain is locked") }
        let taken = Set(try collections(of: caller).map(\.id))
        let base = SecretStore.collectionID(forLabel: label)
        var id = base
        var suffix = 1
        while taken.contains(id) || id == Self.memoryCollection {
            suffix += 1
            id = base + "_\(suffix)"
        }
        do {
            try store.saveCollection(id, label: label, group: group)
            if !alias.isEmpty { try store.setAlias(alias, to: id, group: group) }
        } catch {
            throw busError(error)
        }
        knownCollections[group, default: []].append(id)
        announceCollection("CollectionCreated", id, to: group)
        return SecretPath.collection(id).path
    }

    private func setAlias(_ name: String, to path: String, caller: SecretCaller) throws(BusError) {
        guard let group = caller.group else { throw BusError.accessDenied("no group") }
        guard SecretPath.isElement(name), name.utf8.count <= 256 else {
            throw BusError.invalidArguments("an alias is letters, digits and _")
        }
        var target: String?
        if path != SecretPath.none {
            guard let object = SecretPath(path) else { throw SecretError.noSuchObject("no collection \(path)") }
            target = try collectionID(object, caller: caller)
        }
        if isLocked { throw SecretError.isLocked("the keychain is locked") }
        do { try store.setAlias(name, to: target, group: group) } catch { throw busError(error) }
    }

    private func unlock(_ objects: [String], caller: SecretCaller) throws(BusError) -> [BusValue] {
        guard isLocked else { return [.paths(objects), .objectPath(SecretPath.none)] }
        guard prompts.values.filter({ $0.owner == caller.peer.name }).count < Self.promptLimit else {
            throw BusError.limitsExceeded("this connection has \(Self.promptLimit) prompts open")
        }
        let id = number()
        let path = SecretPath.prompt(id).path
        let (engine, ask, program, logger) = (store.engine, askPasscode, caller.program, logger)
        prompts[id] = SecretPrompt(path: path, owner: caller.peer.name, emptyResult: .paths([])) { isWanted in
            for _ in 0..<3 where isWanted() {
                let reason = "Unlock the keychain to give its secrets to programs through the Secret Service."
                guard case .entered(let passcode)? = ask(program, reason) else { return nil }
                do throws(KeychainError) {
                    try engine.unlock(passcode: passcode, endsBiometricLockout: false)
                    logger.info("the keychain was unlocked for a Secret Service client")
                    return .paths(objects)
                } catch  where error.code == .authenticationFailed {
                    continue
                } catch {
                    return nil
                }
            }
            return nil
        }
        return [.paths([]), .objectPath(path)]
    }

    func prompt(_ call: BusCall, path: SecretPath) throws(BusError) -> [BusValue] {
        guard case .prompt(let id) = path, let prompt = prompts[id] else { throw SecretError.noSuchObject("no prompt") }
        switch call.member {
        case "Prompt":
            _ = try arguments(call, "s")
            _ = prompt.start(on: bus) { [unowned self] in
                prompts[id] = nil
                noticeLockState()
                refreshIndexAfterUnlock()
            }
            return []
        case "Dismiss":
            prompt.dismiss(on: bus)
            prompts[id] = nil
            return []
        default:
            throw BusError.unknownMethod("a prompt has Prompt and Dismiss")
        }
    }

    /// Reads every group's items once the keychain is unlocked, for searches after it locks again.
    private func refreshIndexAfterUnlock() {
        for group in Set(callers.values.compactMap(\.group)) {
            indexes[group]?.generation = nil
            try? refreshIndex(of: group)
        }
    }
}
