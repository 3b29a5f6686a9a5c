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

/// The socket file a daemon bound, as it was then: the daemon checks that it is still there.
///
/// A daemon whose socket file was removed or replaced (a clean-up of the runtime folder, an `rm`)
/// is reachable by nobody, yet it holds the socket's lock, so no new daemon could serve the path:
/// it stops instead, as gpg-agent does, and the next client's daemon takes over (see
/// ``SingleInstance/acquire(_:patience:)``).
struct SocketFile: Sendable {
    let path: String
    /// The device and inode of the file bound; `nil` when it could not be read.
    private let identity: (device: UInt64, inode: UInt64)?

    /// The file now at `path` (the daemon has just bound it).
    init(boundAt path: String) {
        self.path = path
        identity = Self.socketIdentity(at: path)
    }

    /// Whether the file at ``path`` is still the one bound.
    var isStillOurs: Bool {
        guard let identity, let current = Self.socketIdentity(at: path) else { return false }
        return identity == current
    }

    /// Whether anything (a daemon's socket, or not) is at `path`.
    static func exists(at path: String) -> Bool {
        identity(at: path) != nil
    }

    private static func identity(at path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// The socket at `path`, if a socket is there (anything else is never taken for the daemon's).
    private static func socketIdentity(at path: String) -> (device: UInt64, inode: UInt64)? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }
}
