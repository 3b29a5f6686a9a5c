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

/// The device secret in the keychain home: 256 random bits in `device.key`, a file only the owner
/// can read — the store of a machine without a TPM.
///
/// It is never rewritten. A new keychain writes it under a staged name (`device.key.<random>`) and
/// links it into place only after the keybag sealed with it has committed, so a crash during
/// creation leaves either no keychain (the staged file is discarded at the next open) or a complete
/// one (the staged file is installed then).
package struct FileDeviceSecretStore: DeviceSecretStore {
    /// The file name inside a keychain home.
    package static let fileName = "device.key"

    private let directory: URL
    /// Why no hardware root is used, for `security status`.
    private let reason: String?

    package init(directory: URL, reason: String? = nil) {
        self.directory = directory
        self.reason = reason
    }

    package var storeDescription: String { reason.map { "file (no TPM: \($0))" } ?? "file" }

    package var location: String { directory.appendingPathComponent(Self.fileName).path }

    // MARK: DeviceSecretStore

    package func load() throws(KeychainError) -> SymmetricKey {
        let path = location
        guard let existing = try Self.read(path) else {
            throw KeychainError(
                .decode,
                "the device secret \(path) is missing; the keychain cannot be decrypted without it"
            )
        }
        return existing
    }

    package func exists() -> Bool {
        PrivateFile.status(location, followingLinks: false) != nil
    }

    package func stage() throws(KeychainError) -> StagedDeviceSecret {
        try stage(keeping: SymmetricKey(size: .bits256))
    }

    package func stage(keeping secret: SymmetricKey) throws(KeychainError) -> StagedDeviceSecret {
        let suffix = KeybagSecret.hex(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
        let path = directory.appendingPathComponent(Self.fileName + "." + suffix).path
        var bytes = secret.withUnsafeBytes { Array($0) }
        defer { PrivateFile.zero(&bytes) }
        try PrivateFile.createSecret(path, contents: bytes, directory: directory.path)
        return StagedDeviceSecret(key: secret, reference: path)
    }

    package func install(_ staged: StagedDeviceSecret) throws(KeychainError) {
        let path = location
        // Only a name this store made, in this home, is linked into place and removed.
        guard Self.isStagedName(staged.reference, in: directory) else {
            throw KeychainError(.internalInconsistency, "not a staged device secret of this keychain")
        }
        if let error = PrivateFile.linkFile(staged.reference, as: path) {
            // EEXIST: installed already. ENOENT: another process opening the new keychain installed
            // it and removed the staged name first.
            guard error == EEXIST || (error == ENOENT && exists()) else {
                throw KeychainError(.io, "cannot install the device secret at \(path): \(PrivateFile.describe(error))")
            }
        }
        PrivateFile.removeName(staged.reference)
        PrivateFile.syncDirectory(directory.path)
    }

    package func staged() -> [StagedDeviceSecret] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        // Only names this code makes (32 hexadecimal digits): `device.key.bak` is the user's.
        let staged = names.filter(Self.isStagedName)
        return staged.sorted().compactMap { name in
            let path = directory.appendingPathComponent(name).path
            guard let key = try? Self.read(path) else { return nil }
            return StagedDeviceSecret(key: key, reference: path)
        }
    }

    package func discardStaged() {
        for staged in staged() {
            PrivateFile.removeAndErase(staged.reference)
        }
    }

    package func erase() {
        discardStaged()
        PrivateFile.removeAndErase(location)
        PrivateFile.syncDirectory(directory.path)
    }

    // MARK: Private

    /// Whether `name` is a staged secret's file name: `device.key.` and 32 hexadecimal digits.
    private static func isStagedName(_ name: String) -> Bool {
        let prefix = fileName + "."
        let suffix = name.dropFirst(prefix.count)
        return name.hasPrefix(prefix) && suffix.count == 32 && suffix.allSatisfy(\.isHexDigit)
    }

    /// Whether `path` is a staged secret's file directly in `directory`.
    private static func isStagedName(_ path: String, in directory: URL) -> Bool {
        let url = URL(filePath: path)
        return url.deletingLastPathComponent().standardizedFileURL.path == directory.standardizedFileURL.path
            && isStagedName(url.lastPathComponent)
    }

    private static func read(_ path: String) throws(KeychainError) -> SymmetricKey? {
        guard var bytes = try PrivateFile.readSecret(path) else { return nil }
        defer { PrivateFile.zero(&bytes) }
        guard bytes.count == 32 else {
            throw KeychainError(.decode, "the device secret \(path) is damaged (\(bytes.count) bytes, expected 32)")
        }
        return SymmetricKey(data: bytes)
    }
}
