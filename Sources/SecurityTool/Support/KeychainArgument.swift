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
import KeychainDevice

/// What a command's keychain argument names.
///
/// macOS's tool takes a keychain's name or path there; a mistyped one is reported
/// (`errSecNoSuchKeychain`), never created. The same holds here: an argument names an existing
/// keychain home (a folder holding a keychain, or the `keychain.db` path the tool prints), and
/// macOS's login keychain names (`login.keychain`, `~/Library/Keychains/login.keychain-db`) mean
/// the default one. Only the default keychain is created, and only by a command that writes.
enum KeychainArgument {
    /// The names scripts written for macOS use for the user's keychain.
    static let loginNames: Set<String> = ["login.keychain", "login.keychain-db"]

    /// Whether `name` means the default keychain.
    static func namesDefault(_ name: String) -> Bool {
        loginNames.contains(URL(fileURLWithPath: name).lastPathComponent)
    }

    /// The home `name` names: the default one for a login name, the existing keychain at that
    /// path, or `nil` when there is none there.
    static func home(named name: String) -> KeychainHome? {
        if namesDefault(name) { return .resolve() }
        guard !name.isEmpty else { return nil }
        let url = URL(fileURLWithPath: name).standardizedFileURL
        let candidates = url.lastPathComponent == "keychain.db" ? [url.deletingLastPathComponent()] : [url]
        for candidate in candidates {
            let home = KeychainHome(url: URL(fileURLWithPath: candidate.path, isDirectory: true))
            if isOwnKeychain(home) { return home }
        }
        return nil
    }

    /// Whether `home` holds a keychain database that is a regular file of this user (not a link,
    /// which opening would follow and create at its target; not someone else's).
    private static func isOwnKeychain(_ home: KeychainHome) -> Bool {
        let path = home.url.appendingPathComponent("keychain.db").path
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path) else { return false }
        return attributes[.type] as? FileAttributeType == .typeRegular
            && (attributes[.ownerAccountID] as? NSNumber)?.uint32Value == geteuid()
    }
}
