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

/// macOS's keychain access dialog for the desktop's shared items (`security secret-service confirm on`):
/// a program that an item does not trust reads its secret only after the person allows it — always
/// (the program joins the item's trusted programs), or this once (for the rest of the program's
/// connection) — or denies it.
///
/// An item trusts the program that created it. A program is its executable's path, as the kernel
/// reports it for the connection's process: every script of one interpreter is one program, and a
/// program of the user that runs a trusted executable is that executable. The dialog stops a
/// program that reads the keyring through the Secret Service; it does not stop one that sets out to
/// pass for another (see the README's security model). Flatpak apps have groups of their own and
/// the in-memory `session` collection lives only as long as the daemon: neither is asked about.
extension SecretServiceProvider {
    /// Whether `caller` must be allowed by the person before it reads `item`'s secret.
    func needsConsent(to item: SecretItem, caller: SecretCaller, group: String) throws(BusError) -> Bool {
        guard group == SecretStore.sharedGroup, item.collection != Self.memoryCollection,
            try confirmsReads(group: group)
        else { return false }
        if let executable = caller.executable, item.trusted.contains(executable) { return false }
        return !allowedOnce.contains(Self.consentKey(caller.peer.name, item))
    }

    /// Asks the person whether `caller` may read `item`'s secret (off the bus thread) and records
    /// the answer; AccessDenied when they deny it or cannot be asked.
    func obtainConsent(to item: SecretItem, caller: SecretCaller, group: String) throws(BusError) {
        let program = caller.program ?? "A program"
        // The executable first, every name cut short and on one line: a program chooses its own
        // file name and any program may set a label, and neither may write the question.
        let executable = Self.shown(caller.executable ?? "an unknown program", 200)
        let label = item.label.isEmpty ? "a secret" : "the secret “\(Self.shown(item.label, 120))”"
        let stored = item.creator.map { ", stored by “\(Self.shown($0, 80))”," } ?? ""
        let description = "\(executable) wants to read \(label)\(stored) from your keychain."
        let key = Self.consentKey(caller.peer.name, item)
        switch askConsent(description) {
        case .always? where caller.executable != nil:
            bus.perform { [self] in trust(caller, with: item, group: group) }
        case .always?, .once?:
            bus.perform { [self] in _ = allowedOnce.insert(key) }
        case .denied?, nil:
            logger.notice(
                "a program was refused a secret of the Secret Service",
                metadata: ["keychain.program": "\(program)"]
            )
            throw BusError.accessDenied("the user did not allow \(program) to read this secret")
        }
    }

    /// Whether reads of `group`'s secrets are confirmed, as the keychain says (kept with the index).
    private func confirmsReads(group: String) throws(BusError) -> Bool {
        try refreshIndex(of: group)
        if let known = indexes[group]?.confirmsReads { return known }
        let confirms: Bool
        do { confirms = try store.confirmsReads(group: group) } catch { throw busError(error) }
        indexes[group]?.confirmsReads = confirms
        return confirms
    }

    /// A program that writes a secret into an item that does not trust it becomes the one program
    /// the item trusts: the secret is its now, and those the item trusted before ask (else a program
    /// could make another store its secret in an item the first one is trusted with).
    func claim(_ item: inout SecretItem, by caller: SecretCaller) {
        if let executable = caller.executable, item.trusted.contains(executable) { return }
        item.trusted = caller.executable.map { [$0] } ?? []
        item.creator = caller.program
    }

    /// Adds `caller`'s executable to the trusted programs of `item` (on the bus thread), as it is now.
    private func trust(_ caller: SecretCaller, with item: SecretItem, group: String) {
        lockedDuringCall = nil
        defer { lockedDuringCall = nil }
        let path = SecretPath.item(collection: item.collection, id: item.id)
        guard let executable = caller.executable,
            var current = try? self.item(at: path, caller: caller, withSecret: false).0,
            !current.trusted.contains(executable)
        else { return }
        current.trusted.append(executable)
        do {
            try store.update(current, secret: nil, group: group)
            remember(current, group: group)
        } catch {
            logger.warning("a program allowed always could not be recorded: \(error.message)")
        }
    }

    /// `text` on one line, control characters dropped, at most `limit` characters.
    private static func shown(_ text: String, _ limit: Int) -> String {
        let hidden: Set<Unicode.GeneralCategory> = [.control, .format, .lineSeparator, .paragraphSeparator]
        let line = String(
            String.UnicodeScalarView(text.unicodeScalars.filter { !hidden.contains($0.properties.generalCategory) })
        )
        return line.count <= limit ? line : String(line.prefix(limit)) + "…"
    }

    private static func consentKey(_ connection: String, _ item: SecretItem) -> String {
        connection + "\n" + SecretPath.item(collection: item.collection, id: item.id).path
    }
}
