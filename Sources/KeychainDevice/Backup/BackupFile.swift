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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A backup file as the client writes or reads it: the engine sends and asks for its bytes.
///
/// A new backup is written to a private temporary file beside its destination (mode 0600,
/// created exclusively) and renamed over it once complete, so that an interrupted backup never
/// leaves a truncated file under the name asked for, nor replaces a good one.
final class BackupFile: Sendable {
    private let descriptor: Int32
    private let destination: URL?
    private let temporaryPath: String?
    /// Whether the descriptor was closed: closing twice could close a descriptor reused meanwhile.
    private let isClosed = LockedState(false)

    /// Creates the temporary file of a backup to `url`.
    init(creatingAt url: URL) throws(KeychainError) {
        let directory = url.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw KeychainError(.io, "the folder of \(url.path) does not exist")
        }
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw KeychainError(.io, "\(url.path) is a folder")
        }
        let suffix = (0..<8).map { _ in String(UInt8.random(in: 0...15), radix: 16) }.joined()
        let path = "\(url.path).partial-\(suffix)"
        let opened = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard opened >= 0 else {
            throw KeychainError(.io, "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        descriptor = opened
        destination = url
        temporaryPath = path
    }

    /// Opens the backup at `url` for reading.
    init(readingAt url: URL) throws(KeychainError) {
        // Without blocking on a FIFO before it is seen not to be a file.
        let opened = open(url.path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard opened >= 0 else {
            throw KeychainError(.io, "cannot open \(url.path): \(String(cString: strerror(errno)))")
        }
        var status = stat()
        guard fstat(opened, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            closeDescriptor(opened)
            throw KeychainError(.io, "\(url.path) is not a file")
        }
        descriptor = opened
        destination = nil
        temporaryPath = nil
    }

    /// Appends bytes the engine sent.
    @Sendable func append(_ bytes: Data) throws(KeychainError) {
        guard DescriptorWrite.all([UInt8](bytes), to: descriptor) else {
            throw KeychainError(.io, "cannot write the backup: \(String(cString: strerror(errno)))")
        }
    }

    /// Reads the bytes the engine asked for: `count` from `offset`, fewer only at the end.
    @Sendable func read(_ offset: Int, _ count: Int) throws(KeychainError) -> Data {
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let got = bytes.withUnsafeMutableBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return pread(descriptor, base + filled, count - filled, off_t(offset + filled))
            }
            if got < 0 && errno == EINTR { continue }
            guard got >= 0 else {
                throw KeychainError(.io, "cannot read the backup: \(String(cString: strerror(errno)))")
            }
            if got == 0 { break }
            filled += got
        }
        return Data(bytes[0..<filled])
    }

    /// Flushes the file to disk and gives it its name.
    func complete() throws(KeychainError) {
        guard let destination, let temporaryPath else { return }
        guard fsync(descriptor) == 0 else {
            throw KeychainError(.io, "cannot write the backup: \(String(cString: strerror(errno)))")
        }
        guard rename(temporaryPath, destination.path) == 0 else {
            throw KeychainError(.io, "cannot name the backup \(destination.path): \(String(cString: strerror(errno)))")
        }
        closeOnce()
        // The new name is on disk once the folder is.
        let folder = open(destination.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            closeDescriptor(folder)
        }
    }

    /// Removes the unfinished file (after a failure; nothing once the file was completed).
    func abandon() {
        guard closeOnce(), let temporaryPath else { return }
        unlink(temporaryPath)
    }

    /// Closes a file that was read.
    func finishReading() {
        closeOnce()
    }

    /// Closes the descriptor unless it was; whether this call closed it.
    @discardableResult
    private func closeOnce() -> Bool {
        let wasOpen = isClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if wasOpen { closeDescriptor(descriptor) }
        return wasOpen
    }
}

/// `close(2)`, which the type's own methods would otherwise shadow.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
