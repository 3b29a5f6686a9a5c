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
import KeychainDevice

/// The one daemon of a socket: the holder of an exclusive lock on `<socket>.lock`, in a folder
/// only the user may enter.
///
/// The lock is held for the life of the process (the kernel drops it when the process dies, even
/// by SIGKILL), so a second daemon started at the same time exits instead of taking the socket.
final class SingleInstance {
    private let descriptor: Int32

    /// Takes the lock of `endpoint`; `nil` when another daemon holds it.
    static func acquire(_ endpoint: DaemonEndpoint) throws -> SingleInstance? {
        try prepareDirectory(endpoint.directory)
        let descriptor = open(endpoint.lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw KeychainCoreError(.io, "cannot open \(endpoint.lockPath): \(String(cString: strerror(errno)))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        // The holder's process ID, for `kill $(cat …lock)` and the tests.
        let processID = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = processID.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return SingleInstance(descriptor: descriptor)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Creates the socket's folder with mode 0700, or checks that an existing one is the user's
    /// own and closed to others (anyone who can enter it could replace the socket).
    private static func prepareDirectory(_ path: String) throws {
        if !FileManager.default.fileExists(atPath: path) {
            do {
                try FileManager.default.createDirectory(
                    atPath: path,
                    withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700]
                )
            } catch {
                throw KeychainCoreError(.io, "cannot create \(path)", cause: error)
            }
        }
        let status = UnsafeMutablePointer<stat>.allocate(capacity: 1)
        defer { status.deallocate() }
        guard lstat(path, status) == 0 else {
            throw KeychainCoreError(.io, "cannot inspect \(path): \(String(cString: strerror(errno)))")
        }
        guard status.pointee.st_mode & S_IFMT == S_IFDIR, status.pointee.st_uid == getuid(),
            status.pointee.st_mode & 0o077 == 0
        else {
            throw KeychainCoreError(
                .invalidKeychain,
                "\(path) must be a directory of this user that nobody else may enter (mode 0700)"
            )
        }
    }
}
