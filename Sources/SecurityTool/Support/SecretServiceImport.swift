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

/// Copies every item of the Secret Service provider that owns `org.freedesktop.secrets` now
/// (gnome-keyring, KWallet, KeePassXC) into the keychain, as `securityd --secret-service` keeps
/// them: same collections, labels, attributes, content types and dates.
///
/// A locked collection is unlocked through the provider's own prompt. Each item's id in the
/// keychain is derived from its path at the provider, so a second run finds it there and adds
/// nothing twice.
struct SecretServiceImport {
    let bus: BusConnection
    let store: SecretStore

    /// What an import did.
    struct Report {
        var added = 0
        var alreadyThere = 0
        var collections = 0
        /// What was left out, and why: one line each.
        var skipped: [String] = []
    }

    private static let service = "org.freedesktop.secrets"
    private static let root = "/org/freedesktop/secrets"

    func run() throws -> Report {
        let owner = try bus.owner(of: Self.service)
        if owner.hasPrefix("securityd ") {
            throw ImportError("org.freedesktop.secrets is served by securityd already: there is nothing to import")
        }
        let opened = try call(
            Self.root,
            "org.freedesktop.Secret.Service",
            "OpenSession",
            [
                .string("plain"), .variant(.string("")),
            ]
        )
        guard opened.count == 2, let session = opened[1].objectPath else {
            throw ImportError("the provider opened no session")
        }
        let defaultPath = try call(Self.root, "org.freedesktop.Secret.Service", "ReadAlias", [.string("default")])
            .first?.objectPath
        var report = Report()
        for collection in try paths(property(Self.root, "org.freedesktop.Secret.Service", "Collections")) {
            let label = try property(collection, "org.freedesktop.Secret.Collection", "Label").string ?? ""
            if collection.hasSuffix("/session") {
                report.skipped.append("\(collection): the provider's in-memory session collection")
                continue
            }
            if try property(collection, "org.freedesktop.Secret.Collection", "Locked").boolean == true,
                !(try unlock(collection))
            {
                report.skipped.append("\(collection) (“\(label)”): locked, and unlocking it was dismissed")
                continue
            }
            let id =
                collection == defaultPath || label.lowercased() == "login"
                ? SecretStore.login : SecretStore.collectionID(forLabel: label)
            if id != SecretStore.login {
                try store.saveCollection(id, label: label, group: SecretStore.sharedGroup)
            }
            report.collections += 1
            let items = try paths(property(collection, "org.freedesktop.Secret.Collection", "Items"))
            guard !items.isEmpty else { continue }
            let secrets =
                try call(
                    Self.root,
                    "org.freedesktop.Secret.Service",
                    "GetSecrets",
                    [
                        .paths(items), .objectPath(session),
                    ]
                ).first?.elements ?? []
            var byPath: [String: BusValue] = [:]
            for entry in secrets {
                if case .entry(.objectPath(let path), let secret) = entry { byPath[path] = secret }
            }
            let flags = try store.protection(of: id, group: SecretStore.sharedGroup)
            for path in items {
                switch try copy(path, secret: byPath[path], into: id, provider: owner, flags: flags) {
                case .added: report.added += 1
                case .alreadyThere: report.alreadyThere += 1
                case .skipped(let reason): report.skipped.append(reason)
                }
            }
        }
        _ = try? call(session, "org.freedesktop.Secret.Session", "Close", [])
        return report
    }

    private enum Copied {
        case added
        case alreadyThere
        case skipped(String)
    }

    private func copy(
        _ path: String,
        secret: BusValue?,
        into collection: String,
        provider: String,
        flags: UInt
    ) throws -> Copied {
        guard case .structure(let fields)? = secret, fields.count == 4, case .bytes(let value) = fields[2] else {
            return .skipped("\(path): the provider gave no secret for it")
        }
        let all =
            try call(path, "org.freedesktop.DBus.Properties", "GetAll", [.string("org.freedesktop.Secret.Item")])
            .first?.stringDictionary ?? [:]
        var attributes: [String: String] = [:]
        for (key, value) in all["Attributes"]?.unwrapped.stringDictionary ?? [:] {
            attributes[key] = value.string
        }
        let item = SecretItem(
            id: Self.itemID(forPath: path, provider: provider),
            collection: collection,
            label: all["Label"]?.unwrapped.string ?? "",
            attributes: attributes,
            contentType: fields[3].string ?? "text/plain",
            created: Self.date(all["Created"]),
            modified: Self.date(all["Modified"]),
            creator: "security secret-service import"
        )
        let added = Result { () throws(KeychainError) in
            try store.add(item, secret: Data(value), group: SecretStore.sharedGroup, flags: flags)
        }
        switch added {
        case .success: return .added
        case .failure(let error) where error.code == .duplicateItem: return .alreadyThere
        case .failure(let error): throw error
        }
    }

    /// Unlocks `collection` through the provider's prompt; whether it was unlocked.
    private func unlock(_ collection: String) throws -> Bool {
        let reply = try call(Self.root, "org.freedesktop.Secret.Service", "Unlock", [.paths([collection])])
        guard reply.count == 2, let prompt = reply[1].objectPath, prompt != "/" else {
            let unlocked = reply.first?.elements ?? []
            return unlocked.contains(.objectPath(collection))
        }
        let outcome = LockedState<Bool?>(nil)
        try bus.watch("type='signal',interface='org.freedesktop.Secret.Prompt',member='Completed',path='\(prompt)'") {
            signal in
            outcome.withLock { $0 = signal.arguments.first?.boolean == false }
        }
        _ = try call(prompt, "org.freedesktop.Secret.Prompt", "Prompt", [.string("")])
        let deadline = ContinuousClock.now.advanced(by: .seconds(300))
        _ = bus.run {
            let answered = outcome.withLock { $0 } != nil
            return answered || ContinuousClock.now > deadline
        }
        return outcome.withLock { $0 } ?? false
    }

    private func call(
        _ path: String,
        _ interface: String,
        _ member: String,
        _ arguments: [BusValue]
    ) throws -> [BusValue] {
        try bus.call(destination: Self.service, path: path, interface: interface, member: member, arguments)
    }

    private func property(_ path: String, _ interface: String, _ name: String) throws -> BusValue {
        let reply = try call(path, "org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(name)])
        guard let value = reply.first else { throw ImportError("\(path) has no \(name)") }
        return value.unwrapped
    }

    private func paths(_ value: BusValue) throws -> [String] {
        guard let elements = value.elements else { throw ImportError("expected a list of objects") }
        return elements.compactMap(\.objectPath)
    }

    /// An id that is the same for the same item at the same provider, whatever run imports it.
    static func itemID(forPath path: String, provider: String) -> String {
        let program = provider.split(separator: " ").first.map(String.init) ?? provider
        return SHA256.hash(data: Data("import:\(program):\(path)".utf8)).prefix(16)
            .map { String(format: "%02x", $0) }.joined()
    }

    private static func date(_ value: BusValue?) -> Date {
        guard case .uint64(let seconds)? = value?.unwrapped else { return Date() }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    struct ImportError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
