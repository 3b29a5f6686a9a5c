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
package import KeychainCore

#if canImport(CoreFoundation)
// `struct stat` reaches Swift through CoreFoundation's headers first on Linux (member import visibility).
import CoreFoundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// Files of a keychain home that only their owner may write: opened without following symbolic
/// links, and checked on the open descriptor (`fstat`), so that what is checked is what is used.
///
/// A file that is a link, is not a regular file, belongs to another user or can be written by
/// the group or others is refused with ``KeychainError/Code/invalidKeychain`` and a message
/// that names the path and what is wrong. Group or other *read* permission is narrowed to 0600:
/// the file is the user's own, and nobody else should read it.
package enum PrivateFile {
    // MARK: Opening

    /// Opens an existing file for reading; `nil` if there is none.
    package static func openForReading(_ path: String) throws(KeychainError) -> Int32? {
        try openChecked(path, flags: O_RDONLY)
    }

    /// Opens an existing file for writing (in place); `nil` if there is none.
    package static func openForWriting(_ path: String) throws(KeychainError) -> Int32? {
        try openChecked(path, flags: O_WRONLY)
    }

    /// Opens an existing file for reading and writing in place; `nil` if there is none.
    package static func openForUpdate(_ path: String) throws(KeychainError) -> Int32? {
        try openChecked(path, flags: O_RDWR)
    }

    /// Creates a new file, mode 0600, failing if anything (a file or a link) has the name.
    package static func create(_ path: String) throws(KeychainError) -> Int32 {
        let descriptor = retryingInterrupted { open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600) }
        guard descriptor >= 0 else {
            throw KeychainError(.io, "cannot create \(path): \(describeErrno())")
        }
        return descriptor
    }

    /// Makes sure the file exists and is safe to hand to another opener (SQLite): creates it with
    /// mode 0600 if missing, checks it otherwise (see ``check(_:)``: without opening it for use).
    package static func ensure(_ path: String) throws(KeychainError) {
        let descriptor: Int32
        if let existing = try openChecked(path, flags: lookOnly) {
            descriptor = existing
        } else {
            let created = retryingInterrupted {
                open(path, O_RDONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
            if created < 0, errno == EEXIST, let raced = try openChecked(path, flags: lookOnly) {
                descriptor = raced
            } else if created < 0 {
                throw KeychainError(.io, "cannot create \(path): \(describeErrno())")
            } else {
                descriptor = created
            }
        }
        close(descriptor)
    }

    /// Checks an existing file without opening it for use (the database's side files); a missing
    /// file is fine.
    ///
    /// Through an `O_PATH` descriptor on Linux: closing a descriptor opened for reading drops every
    /// POSIX lock this process holds on the file, and SQLite's locks on the database and its
    /// `-shm` are such locks. A check while another connection of this process has the database
    /// open (a second keychain opened on the same home) would let other processes write under it.
    package static func check(_ path: String) throws(KeychainError) {
        if let descriptor = try openChecked(path, flags: lookOnly) { close(descriptor) }
    }

    /// Open flags for a descriptor that only names a file (`O_PATH`): `fstat` works on it, and
    /// closing it leaves the process's locks on the file alone.
    #if os(Linux)
    private static let lookOnly: Int32 = 0o10000000
    #else
    private static let lookOnly: Int32 = O_RDONLY
    #endif

    // MARK: Small secret files

    /// The bytes of a small secret file (checked as any file here); `nil` if there is none.
    ///
    /// The caller zeroes them after use.
    package static func readSecret(_ path: String, limit: Int = 64) throws(KeychainError) -> [UInt8]? {
        guard let descriptor = try openForReading(path) else { return nil }
        defer { close(descriptor) }
        return try readAll(descriptor, path: path, limit: limit)
    }

    /// Writes a new secret file (mode 0600, never over an existing name) and flushes it and its
    /// directory, so that it survives a crash before anything relies on it.
    package static func createSecret(_ path: String, contents: [UInt8], directory: String) throws(KeychainError) {
        let descriptor = try create(path)
        defer { close(descriptor) }
        do {
            try writeAll(contents, to: descriptor, path: path)
        } catch {
            unlink(path)
            throw error
        }
        syncDirectory(directory)
    }

    // MARK: Reading and writing

    /// Reads the whole file behind `descriptor` (up to `limit` bytes; a longer file is damage).
    package static func readAll(_ descriptor: Int32, path: String, limit: Int = 4096) throws(KeychainError) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 512)
        defer { zero(&chunk) }
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw KeychainError(.io, "cannot read \(path): \(describeErrno())") }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            guard bytes.count <= limit else {
                zero(&bytes)
                throw KeychainError(.decode, "\(path) is damaged (longer than \(limit) bytes)")
            }
        }
    }

    /// Writes all of `bytes` at the current offset and flushes them to the disk.
    package static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(KeychainError) {
        guard DescriptorWrite.all(bytes, to: descriptor) else {
            throw KeychainError(.io, "cannot write \(path): \(describeErrno())")
        }
        guard retryingInterrupted({ fsync(descriptor) }) == 0 else {
            throw KeychainError(.io, "cannot flush \(path): \(describeErrno())")
        }
    }

    /// Flushes a directory, so that a rename or link in it survives a crash.
    package static func syncDirectory(_ path: String) {
        let descriptor = retryingInterrupted { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else { return }
        _ = retryingInterrupted { fsync(descriptor) }
        close(descriptor)
    }

    /// Overwrites `array` with zeros (the buffer it owns, if it owns one alone).
    package static func zero(_ array: inout [UInt8]) {
        array.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            memset(base, 0, buffer.count)
        }
    }

    /// Runs a system call again while a signal interrupts it (`EINTR`); never for `close`, which
    /// must not be repeated on Linux.
    package static func retryingInterrupted(_ call: () -> Int32) -> Int32 {
        var result: Int32
        repeat {
            result = call()
        } while result < 0 && errno == EINTR
        return result
    }

    // MARK: Checking

    private static func openChecked(_ path: String, flags: Int32) throws(KeychainError) -> Int32? {
        let descriptor = retryingInterrupted { open(path, flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) }
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw KeychainError(
                    .invalidKeychain,
                    "\(path) is a symbolic link; a keychain file must be a regular file"
                )
            }
            throw KeychainError(.io, "cannot open \(path): \(describeErrno())")
        }
        do {
            try checkOwnership(descriptor, path: path, expectDirectory: false)
        } catch {
            close(descriptor)
            throw error
        }
        // Blocking I/O from here on.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Checks what `descriptor` is: its type, its owner and who may write it; narrows read access.
    package static func checkOwnership(_ descriptor: Int32, path: String, expectDirectory: Bool) throws(KeychainError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw KeychainError(.io, "cannot inspect \(path): \(describeErrno())")
        }
        let type = status.st_mode & S_IFMT
        if expectDirectory {
            guard type == S_IFDIR else { throw KeychainError(.invalidKeychain, "\(path) is not a directory") }
        } else {
            // An `O_PATH | O_NOFOLLOW` descriptor names a link itself instead of failing.
            guard type != S_IFLNK else {
                throw KeychainError(
                    .invalidKeychain,
                    "\(path) is a symbolic link; a keychain file must be a regular file"
                )
            }
            guard type == S_IFREG else { throw KeychainError(.invalidKeychain, "\(path) is not a regular file") }
        }
        let user = geteuid()
        guard status.st_uid == user else {
            throw KeychainError(
                .invalidKeychain,
                "\(path) belongs to user \(status.st_uid), not to this user (\(user)); a keychain is used only by its owner"
            )
        }
        let mode = status.st_mode & 0o7777
        guard mode & 0o022 == 0 else {
            throw KeychainError(
                .invalidKeychain,
                "\(path) can be written by \([mode & 0o020 != 0 ? "its group" : nil, mode & 0o002 != 0 ? "other users" : nil].compactMap { $0 }.joined(separator: " and ")) (mode \(String(mode, radix: 8))); "
                    + "run `chmod go-w \(path)` if you trust its contents"
            )
        }
        let ownerOnly = expectDirectory ? mode_t(0o700) : mode_t(0o600)
        if mode & 0o077 != 0, retryingInterrupted({ fchmod(descriptor, mode & ownerOnly) }) != 0, errno == EBADF {
            // An `O_PATH` descriptor: the same file, through its name in /proc (never a path lookup again).
            _ = retryingInterrupted { chmod("/proc/self/fd/\(descriptor)", mode & ownerOnly) }
        }
    }

    /// Which file a path names: its device and inode (the same file, not another one made at the
    /// same name since) and its type.
    package struct Identity: Equatable, Sendable {
        package let device: UInt64
        package let inode: UInt64
        package let isSocket: Bool

        init(_ status: stat) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
            isSocket = status.st_mode & S_IFMT == S_IFSOCK
        }
    }

    /// The file `path` names now, without following a last link; `nil` if there is none.
    ///
    /// Looked up by name only: nothing is opened (see ``check(_:)`` for why that matters).
    package static func identity(of path: String) -> Identity? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return nil }
        return Identity(status)
    }

    /// The file an open descriptor refers to; `nil` if `fstat` fails.
    package static func identity(ofDescriptor descriptor: Int32) -> Identity? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Identity(status)
    }

    /// What `stat` (or `lstat`, without following a last link) says of a path; `nil` with `errno` set.
    package static func status(_ path: String, followingLinks: Bool) -> (kind: Kind, mode: UInt32, owner: UInt32)? {
        var status = stat()
        let result = followingLinks ? stat(path, &status) : lstat(path, &status)
        guard result == 0 else { return nil }
        let type = status.st_mode & S_IFMT
        let kind: Kind = type == S_IFDIR ? .directory : type == S_IFLNK ? .link : type == S_IFREG ? .file : .other
        return (kind, UInt32(status.st_mode & 0o7777), UInt32(status.st_uid))
    }

    /// The size of the file behind `descriptor`.
    package static func size(of descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// The size of the file at `path` (following links); `nil` if there is none.
    package static func size(ofFileAt path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// How many names the file behind `descriptor` has (0 once its last name was removed).
    package static func linkCount(of descriptor: Int32) -> Int? {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Int(status.st_nlink)
    }

    /// What a path names.
    package enum Kind: Sendable {
        case file, directory, link, other
    }

    /// `strerror` of the current `errno`.
    package static func describeErrno() -> String {
        describe(errno)
    }

    /// `strerror` of `code`, with the number.
    package static func describe(_ code: Int32) -> String {
        String(cString: strerror(code)) + " (errno \(code))"
    }
}
