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
import KeychainCore
import KeychainEngine

// `struct stat` for `prepareSharedFolder`: see DaemonLog's imports.
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// The one daemon of a socket: the holder of an exclusive lock on `<socket>.lock`, in a folder
/// only the user may enter.
///
/// The lock is held for the life of the process (the kernel drops it when the process dies, even
/// by SIGKILL), so a second daemon started at the same time exits instead of taking the socket.
final class SingleInstance {
    private let descriptor: Int32
    private let path: String

    /// Takes the lock of `endpoint`; `nil` when another daemon holds it and listens.
    ///
    /// A holder whose socket file is gone serves nobody and stops within seconds (``SocketFile``):
    /// this daemon waits for it, up to `patience`, rather than exit and leave the client that
    /// started it with no daemon. A holder still starting (it binds once its keychain is open)
    /// is waited for the same way, until its socket appears. The patience is a busy machine's
    /// (the holder checks its socket file every 2 s, when it gets the processor), within the 30 s
    /// a client waits for the daemon it started.
    static func acquire(_ endpoint: DaemonEndpoint, patience: Duration = .seconds(25)) async throws -> SingleInstance? {
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
    ///
    /// A stopping daemon removes its lock file while it still holds it (``deinit``), so a file
    /// opened here may be gone from the path by the time its lock is free: only the file the path
    /// names counts, and a removed one is left for a new one.
    static func acquire(lockPath: String) throws -> SingleInstance? {
        for _ in 0..<8 {
            let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
            guard descriptor >= 0 else {
                throw KeychainError(.io, "cannot open \(lockPath): \(String(cString: strerror(errno)))")
            }
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                close(descriptor)
                return nil
            }
            guard let held = PrivateFile.identity(ofDescriptor: descriptor), PrivateFile.identity(of: lockPath) == held
            else {
                close(descriptor)
                continue
            }
            // The holder's process ID, for `kill $(cat …lock)` and the tests.
            let processID = Array("\(getpid())\n".utf8)
            _ = ftruncate(descriptor, 0)
            _ = processID.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
            return SingleInstance(descriptor: descriptor, path: lockPath)
        }
        throw KeychainError(.io, "the lock file \(lockPath) keeps being replaced")
    }

    /// Removes the lock files in `directory` that no daemon holds and whose socket is gone (left
    /// by daemons that were killed), each while holding its lock, as a stopping daemon does.
    static func removeStaleLocks(in directory: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasSuffix(".socket.lock") || name == "socket.lock" {
            let lockPath = directory + "/" + name
            guard !FileManager.default.fileExists(atPath: String(lockPath.dropLast(".lock".count))) else { continue }
            guard let stale = try? acquire(lockPath: lockPath) else { continue }
            withExtendedLifetime(stale) {}
        }
    }

    /// Creates `path` 0755 if missing (a system daemon's socket folder, which every user enters);
    /// it must be a folder of this user that others cannot write.
    static func prepareSharedFolder(_ path: String) throws {
        if mkdir(path, 0o755) != 0 && errno != EEXIST {
            throw KeychainError(.io, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR, status.st_uid == getuid(),
            status.st_mode & 0o022 == 0
        else {
            throw KeychainError(.invalidKeychain, "\(path) must be a folder of this user that others cannot write")
        }
    }

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// Removes the lock file, still held, if it is still the one at the path: no lock file is
    /// left behind (one per keychain home a client ever used), and a daemon that opened it
    /// meanwhile finds it gone once it takes the lock.
    deinit {
        if let held = PrivateFile.identity(ofDescriptor: descriptor), PrivateFile.identity(of: path) == held {
            unlink(path)
        }
        close(descriptor)
    }
}
