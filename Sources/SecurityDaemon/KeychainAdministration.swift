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
import KeychainCore

/// What an administrator does with the keychains of a system-mode state folder whose accounts
/// are gone or replaced (`securityd --system --list-keychains | --adopt-keychain UID |
/// --remove-keychain UID`), run as root or the daemon's account.
///
/// The daemon refuses such a keychain and keeps it: only a person can tell whether the account
/// with that uid now is the same person (renamed: adopt it) or someone else (remove it).
struct KeychainAdministration {
    let state: URL

    /// One keychain of the state folder and whose it is.
    struct Entry: Equatable {
        var userID: UInt32
        /// The account recorded with it; `nil` for a keychain not opened since bindings existed.
        var recorded: AccountBinding?
        /// The account that has the uid now.
        var current: AccountBinding

        /// Whether the daemon serves it to the uid's account.
        var isServed: Bool { recorded == nil || recorded == current }

        var status: String {
            guard let recorded else { return "in use by \(current.description) (bound when next opened)" }
            if recorded == current { return "in use by \(current.description)" }
            if current.isNoAccount { return "refused: kept for \(recorded.description), whose uid has no account now" }
            return "refused: kept for \(recorded.description); the uid is now \(current.description)"
        }
    }

    /// Every keychain in the state folder, by uid.
    func entries() throws -> [Entry] {
        try FileManager.default.contentsOfDirectory(atPath: state.path).compactMap(UInt32.init).sorted().map {
            try entry($0)
        }
    }

    /// Binds `userID`'s keychain to the account that has the uid now.
    func adopt(_ userID: UInt32) throws -> String {
        let entry = try self.entry(userID)
        guard !entry.isServed else {
            return "the keychain of uid \(userID) already belongs to \(entry.current.description)"
        }
        try entry.current.record(in: folder(of: userID))
        return "the keychain of uid \(userID) now belongs to \(entry.current.description)"
    }

    /// Removes `userID`'s keychain, which must be refused (its account gone or replaced).
    func remove(_ userID: UInt32) throws -> String {
        let entry = try self.entry(userID)
        guard !entry.isServed else {
            throw AdministrationError(
                "the keychain of uid \(userID) belongs to \(entry.current.description), who uses it; it is not removed"
            )
        }
        // Out of the daemon's way first (a rename is atomic), then deleted.
        let aside = state.appendingPathComponent(".removed-\(userID)-\(UUID().uuidString)")
        try FileManager.default.moveItem(at: folder(of: userID), to: aside)
        try FileManager.default.removeItem(at: aside)
        return "removed the keychain kept for \(entry.recorded?.description ?? "uid \(userID)")"
    }

    private func folder(of userID: UInt32) -> URL {
        state.appendingPathComponent(String(userID), isDirectory: true)
    }

    private func entry(_ userID: UInt32) throws -> Entry {
        guard FileManager.default.fileExists(atPath: folder(of: userID).path) else {
            throw AdministrationError("no keychain is kept for uid \(userID) in \(state.path)")
        }
        guard let current = AccountBinding.current(userID) else {
            throw AdministrationError("the user database cannot be read now (uid \(userID)); try again")
        }
        return Entry(userID: userID, recorded: try AccountBinding.recorded(in: folder(of: userID)), current: current)
    }

    struct AdministrationError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
