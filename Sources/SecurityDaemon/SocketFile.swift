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
import KeychainEngine

/// The socket file a daemon bound, as it was then: the daemon checks that it is still there.
///
/// A daemon whose socket file was removed or replaced (a clean-up of the runtime folder, an `rm`)
/// is reachable by nobody, yet it holds the socket's lock, so no new daemon could serve the path:
/// it stops instead, as gpg-agent does, and the next client's daemon takes over (see
/// ``SingleInstance/acquire(_:patience:)``).
struct SocketFile: Sendable {
    let path: String
    /// The socket bound; `nil` when it could not be looked at.
    private let identity: PrivateFile.Identity?

    /// The file now at `path` (the daemon has just bound it).
    init(boundAt path: String) {
        self.path = path
        identity = PrivateFile.identity(of: path).flatMap { $0.isSocket ? $0 : nil }
    }

    /// Whether the file at ``path`` is still the socket bound (anything else is never taken for it).
    var isStillOurs: Bool {
        guard let identity else { return false }
        return PrivateFile.identity(of: path) == identity
    }

    /// Whether anything (a daemon's socket, or not) is at `path`.
    static func exists(at path: String) -> Bool {
        PrivateFile.identity(of: path) != nil
    }
}
