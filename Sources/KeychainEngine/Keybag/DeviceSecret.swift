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

package import Crypto
package import Foundation
package import KeychainCore

/// The device secret: 256 random bits in a file only the owner can read.
///
/// It plays the part of Apple's UID key: every class key is wrapped under a key derived from it,
/// so the database is useless without this file. It is never rewritten. A new keychain writes it
/// under a staged name (`device.key.<random>`) and links it into place only after the keybag
/// sealed with it has committed, so a crash during creation leaves either no keychain (the staged
/// file is discarded at the next open) or a complete one (the staged file is installed then).
package enum DeviceSecret {
    /// The file name inside a keychain home.
    package static let fileName = "device.key"

    /// Reads the device secret of a keychain whose keybag exists.
    ///
    /// A missing file is an error, not a reason to make a new one: the keybag was sealed with it.
    package static func load(in directory: URL) throws(KeychainError) -> SymmetricKey {
        let path = directory.appendingPathComponent(fileName).path
        guard let existing = try read(path) else {
            throw KeychainError(.decode, "the device secret \(path) is missing; the keychain cannot be decrypted without it")
        }
        return existing
    }

    /// Whether the keychain home has a device secret file (readable or not, even a link).
    package static func exists(in directory: URL) -> Bool {
        PrivateFile.status(directory.appendingPathComponent(fileName).path, followingLinks: false) != nil
    }

    // MARK: Creating

    /// Writes a new device secret under a staged name; ``install(_:in:)`` puts it in place.
    package static func stage(in directory: URL) throws(KeychainError) -> (key: SymmetricKey, path: String) {
        let secret = SymmetricKey(size: .bits256)
        let suffix = KeybagSecret.hex(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
        let path = directory.appendingPathComponent(fileName + "." + suffix).path
        var bytes = secret.withUnsafeBytes { Array($0) }
        defer { PrivateFile.zero(&bytes) }
        try PrivateFile.createSecret(path, contents: bytes, directory: directory.path)
        return (secret, path)
    }

    /// Links a staged secret into place (never over an existing one) and removes the staged name.
    package static func install(_ stagedPath: String, in directory: URL) throws(KeychainError) {
        let path = directory.appendingPathComponent(fileName).path
        if let error = PrivateFile.linkFile(stagedPath, as: path) {
            // EEXIST: installed already. ENOENT: another process opening the new keychain installed
            // it and removed the staged name first.
            guard error == EEXIST || (error == ENOENT && exists(in: directory)) else {
                throw KeychainError(.io, "cannot install the device secret at \(path): \(PrivateFile.describe(error))")
            }
        }
        PrivateFile.removeName(stagedPath)
        PrivateFile.syncDirectory(directory.path)
    }

    /// The staged secrets left in the home (a creation that crashed before or after its commit).
    package static func staged(in directory: URL) -> [(key: SymmetricKey, path: String)] {
        let prefix = fileName + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        // Only names this code makes (32 hexadecimal digits): `device.key.bak` is the user's.
        let staged = names.filter { name in
            let suffix = name.dropFirst(prefix.count)
            return name.hasPrefix(prefix) && suffix.count == 32 && suffix.allSatisfy(\.isHexDigit)
        }
        return staged.sorted().compactMap { name in
            let path = directory.appendingPathComponent(name).path
            guard let key = try? read(path) else { return nil }
            return (key, path)
        }
    }

    /// Removes staged secrets that no keybag uses.
    package static func discardStaged(in directory: URL) {
        for (_, path) in staged(in: directory) {
            PrivateFile.removeName(path)
        }
    }

    // MARK: Private

    private static func read(_ path: String) throws(KeychainError) -> SymmetricKey? {
        guard var bytes = try PrivateFile.readSecret(path) else { return nil }
        defer { PrivateFile.zero(&bytes) }
        guard bytes.count == 32 else {
            throw KeychainError(.decode, "the device secret \(path) is damaged (\(bytes.count) bytes, expected 32)")
        }
        return SymmetricKey(data: bytes)
    }
}
