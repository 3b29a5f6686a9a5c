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

public import Crypto
public import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// The device secret: 256 random bits in a file only the owner can read.
///
/// It plays the part of Apple's UID key: every class key is wrapped under a key derived from it,
/// so the database is useless without this file. The file is created once, atomically, with
/// mode 0600, and is never rewritten.
package enum DeviceSecret {
    /// The file name inside a keychain home.
    package static let fileName = "device.key"

    /// Reads the device secret of a keychain whose keybag exists.
    ///
    /// A missing file is an error, not a reason to make a new one: the keybag was sealed with it.
    package static func load(in directory: URL) throws(KeychainCoreError) -> SymmetricKey {
        let url = directory.appendingPathComponent(fileName)
        guard let existing = try read(url) else {
            throw KeychainCoreError(
                .decode,
                "the device secret \(url.path) is missing; the keychain cannot be decrypted without it"
            )
        }
        return existing
    }

    /// Whether the keychain home has a device secret file (readable or not).
    package static func exists(in directory: URL) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(fileName).path)
    }

    /// Creates the device secret of a new keychain and returns it; fails if the home has one.
    package static func create(in directory: URL) throws(KeychainCoreError) -> SymmetricKey {
        let url = directory.appendingPathComponent(fileName)
        try create(url)
        guard let created = try read(url) else {
            throw KeychainCoreError(.io, "the device secret \(url.path) could not be created")
        }
        return created
    }

    /// Removes a device secret that no keybag uses (its keychain's creation did not commit).
    package static func discard(in directory: URL) {
        unlink(directory.appendingPathComponent(fileName).path)
    }

    private static func read(_ url: URL) throws(KeychainCoreError) -> SymmetricKey? {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            return nil
        } catch {
            if !FileManager.default.fileExists(atPath: url.path) { return nil }
            throw KeychainCoreError(.io, "cannot read the device secret \(url.path)", cause: error)
        }
        guard data.count == 32 else {
            throw KeychainCoreError(.decode, "the device secret \(url.path) is damaged (\(data.count) bytes, expected 32)")
        }
        return SymmetricKey(data: data)
    }

    /// Writes a new secret to a temporary file, then links it into place (never over an existing one).
    private static func create(_ url: URL) throws(KeychainCoreError) {
        let secret = SymmetricKey(size: .bits256)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".device.key.\(getpid()).\(UInt64.random(in: 0...UInt64.max))")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw KeychainCoreError(.io, "cannot create \(temporary.path): errno \(errno)")
        }
        defer { unlink(temporary.path) }
        let written = secret.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == 32, synced == 0 else {
            throw KeychainCoreError(.io, "cannot write the device secret: errno \(errno)")
        }
        // link(2) fails with EEXIST rather than replace a secret.
        if link(temporary.path, url.path) != 0 {
            throw KeychainCoreError(.io, "cannot install the device secret at \(url.path): errno \(errno)")
        }
        let directoryFD = open(url.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            fsync(directoryFD)
            close(directoryFD)
        }
    }
}
