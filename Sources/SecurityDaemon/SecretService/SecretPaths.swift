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

/// The provider's object paths, as the Secret Service specification names them.
enum SecretPath: Hashable, Sendable {
    case service
    case collection(String)
    /// `/org/freedesktop/secrets/aliases/NAME`, which stands for the collection it names.
    case alias(String)
    case item(collection: String, id: String)
    case session(String)
    case prompt(String)
    /// The parents of objects (`/org/freedesktop/secrets/collection`, …), which have children only.
    case folder(String)

    static let root = "/org/freedesktop/secrets"

    init?(_ path: String) {
        if path == Self.root {
            self = .service
            return
        }
        guard path.hasPrefix(Self.root + "/") else { return nil }
        let parts = path.dropFirst(Self.root.count + 1).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
        guard parts.allSatisfy(Self.isElement) else { return nil }
        switch (parts.first, parts.count) {
        case (let folder?, 1) where ["collection", "aliases", "session", "prompt"].contains(folder):
            self = .folder(folder)
        case ("collection", 2): self = .collection(parts[1])
        case ("collection", 3): self = .item(collection: parts[1], id: parts[2])
        case ("aliases", 2): self = .alias(parts[1])
        case ("session", 2): self = .session(parts[1])
        case ("prompt", 2): self = .prompt(parts[1])
        default: return nil
        }
    }

    var path: String {
        switch self {
        case .service: Self.root
        case .collection(let id): Self.root + "/collection/" + id
        case .alias(let name): Self.root + "/aliases/" + name
        case .item(let collection, let id): Self.root + "/collection/" + collection + "/" + id
        case .session(let id): Self.root + "/session/" + id
        case .prompt(let id): Self.root + "/prompt/" + id
        case .folder(let name): Self.root + "/" + name
        }
    }

    /// The empty path, `/`, that says "no prompt" or "no object".
    static let none = "/"

    /// Whether `text` may be one element of an object path.
    static func isElement(_ text: String) -> Bool {
        SecretStore.isPathElement(text)
    }
}
