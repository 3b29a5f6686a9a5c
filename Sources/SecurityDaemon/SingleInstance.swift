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
import KeychainServer

/// The one daemon of a socket: the holder of an exclusive lock on `<socket>.lock`, in a folder
/// only the user may enter.
///
/// The lock is held for the life of the process (the kernel drops it when the process dies, even
/// by SIGKILL), so a second daemon started at the same time exits instead of taking the socket.
final class SingleInstance {
    private let descriptor: Int32

    /// Takes the lock of `endpoint`; `nil` when another daemon holds it and listens.
    ///
    /// A holder whose socket file is gone serves nobody and stops within seconds (``SocketFile``):
    /// this daemon waits for it, up to `patience`, rather than exit and leave the client that
    /// started it with no daemon. A holder still starting (it binds once its keychain is open)
    /// is waited for the same way, until its socket appears.
    static func acquire(_ endpoint: DaemonEndpoint, patience: Duration = .seconds(6)) async throws -> SingleInstance? {
        // Created 0700, the user's own, not writable by others, under ancestors nobody can swap.
        try PrivateDirectory.prepare(URL(fileURLWithPath: endpoint.directory, isDirectory: true))
        let deadline = ContinuousClock.now + patience
        while true {
            if let instance = try acquire(lockPath: endpoint.lockPath) { return instance }
            guard !SocketFile.exists(at: endpoint.socketPath), ContinuousClock.now < deadline else { return nil }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Takes the lock file at `lockPath`, in a folder of the daemon's own.
    static func acquire(lockPath: String) throws -> SingleInstance? {
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw KeychainCoreError(.io, "cannot open \(lockPath): \(String(cString: strerror(errno)))")
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

    /// Creates `path` 0755 if missing (a system daemon's socket folder, which every user enters);
    /// it must be a folder of this user that others cannot write.
    static func prepareSharedFolder(_ path: String) throws {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw KeychainCoreError(.io, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(), status.st_mode & 0o022 == 0 else {
            throw KeychainCoreError(.invalidKeychain, "\(path) must be a folder of this user that others cannot write")
        }
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
