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

package import Foundation
package import KeychainCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// The keychain home: a directory only its owner can change, under directories nobody else can
/// swap it out of.
///
/// The home must belong to the user and not be writable by the group or others. Every directory
/// above it must belong to the user or to root and, if others can write it, have the sticky bit
/// (as `/tmp` does), so that nobody can rename the home away and put their own in its place;
/// symbolic links on the way must belong to the user or root too. Missing directories are created
/// with mode 0700 from the start (never a wider mode narrowed afterwards).
package enum PrivateDirectory {
    /// Creates `url` if needed and checks it and its ancestors.
    ///
    /// - Throws: ``KeychainError/Code/invalidKeychain`` naming the path and what is wrong.
    package static func prepare(_ url: URL) throws(KeychainError) {
        let path = url.standardizedFileURL.path
        guard path.hasPrefix("/") else {
            throw KeychainError(.invalidKeychain, "the keychain home \(path) is not an absolute path")
        }
        let components = path.split(separator: "/").map(String.init)
        var prefix = ""
        for (index, component) in components.enumerated() {
            prefix += "/" + component
            let isHome = index == components.count - 1
            try ensureExists(prefix)
            try checkLink(prefix)
            if !isHome {
                try checkAncestor(prefix)
            }
        }
        // Where the links lead: the directories above the real home must hold up too.
        if let real = realpath(path, nil) {
            let resolved = String(cString: real)
            free(real)
            if resolved != path {
                var prefix = ""
                for component in resolved.split(separator: "/").dropLast() {
                    prefix += "/" + component
                    try checkAncestor(prefix)
                }
            }
        }
        let descriptor = PrivateFile.retryingInterrupted { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            throw KeychainError(.io, "cannot open the keychain home \(path): \(PrivateFile.describeErrno())")
        }
        defer { close(descriptor) }
        try PrivateFile.checkOwnership(descriptor, path: path, expectDirectory: true)
        try checkAncestor("/")
    }

    private static func ensureExists(_ path: String) throws(KeychainError) {
        guard PrivateFile.status(path, followingLinks: false) == nil else { return }
        guard errno == ENOENT else {
            throw KeychainError(.io, "cannot inspect \(path): \(PrivateFile.describeErrno())")
        }
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw KeychainError(.io, "cannot create \(path): \(PrivateFile.describeErrno())")
        }
    }

    /// A symbolic link on the way must be the user's or root's: anyone else could point it elsewhere.
    private static func checkLink(_ path: String) throws(KeychainError) {
        guard let status = PrivateFile.status(path, followingLinks: false) else {
            throw KeychainError(.io, "cannot inspect \(path): \(PrivateFile.describeErrno())")
        }
        guard status.kind == .link else { return }
        guard status.owner == 0 || status.owner == UInt32(geteuid()) else {
            throw KeychainError(
                .invalidKeychain,
                "\(path) is a symbolic link that belongs to user \(status.owner): it could be pointed at another keychain"
            )
        }
    }

    private static func checkAncestor(_ path: String) throws(KeychainError) {
        guard let status = PrivateFile.status(path, followingLinks: true) else {
            throw KeychainError(.io, "cannot inspect \(path): \(PrivateFile.describeErrno())")
        }
        guard status.kind == .directory else {
            throw KeychainError(.invalidKeychain, "\(path) is not a directory")
        }
        guard status.owner == 0 || status.owner == UInt32(geteuid()) else {
            throw KeychainError(
                .invalidKeychain,
                "\(path) belongs to user \(status.owner): they could replace the keychain home inside it"
            )
        }
        let mode = status.mode
        guard mode & 0o022 == 0 || mode & 0o1000 != 0 else {
            throw KeychainError(
                .invalidKeychain,
                "\(path) can be written by other users and is not sticky (mode \(String(mode, radix: 8))): "
                    + "they could replace the keychain home inside it"
            )
        }
    }
}
