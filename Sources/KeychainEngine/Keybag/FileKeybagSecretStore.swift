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

/// Keybag secrets in the keychain home: the current one in `keybag.key`, a staged one in
/// `keybag.key.<identifier>` until its keybag has committed.
///
/// Promoting renames the staged file over `keybag.key` (atomic), then overwrites the replaced file
/// with zeros through a descriptor opened before the rename, so the bytes leave the home's files at
/// once. On a copy-on-write or journalling file system, or an SSD that remaps blocks, old bytes may
/// survive below the file system: that is what a TPM NV index, which really erases, will fix.
package struct FileKeybagSecretStore: KeybagSecretStore {
    /// The file name of the current secret inside a keychain home.
    package static let fileName = "keybag.key"

    private let directory: String

    package init(directory: URL) {
        self.directory = directory.path
    }

    package var location: String { currentPath }

    private var currentPath: String { directory + "/" + Self.fileName }

    private func stagedPath(_ hexIdentifier: String) -> String {
        currentPath + "." + hexIdentifier
    }

    // MARK: KeybagSecretStore

    package func holdsCurrentSecret() -> Bool {
        PrivateFile.status(currentPath, followingLinks: false) != nil
    }

    package func secret(identifiedBy identifier: Data) throws(KeychainError) -> KeybagSecret? {
        // The current file; the staged one (a write committed but not promoted yet); the current
        // file again, in case another process promoted between the two reads.
        if let current = try read(currentPath), current.identifier == identifier { return current }
        let hex = KeybagSecret.hex(identifier)
        if let staged = try read(stagedPath(hex)), staged.identifier == identifier { return staged }
        if let current = try read(currentPath), current.identifier == identifier { return current }
        return nil
    }

    package func stage(_ secret: KeybagSecret) throws(KeychainError) {
        var bytes = secret.serialized
        defer { PrivateFile.zero(&bytes) }
        try PrivateFile.createSecret(stagedPath(secret.hexIdentifier), contents: bytes, directory: directory)
    }

    package func promote(_ identifier: Data) throws(KeychainError) {
        // Hold the file being replaced, so that it can be erased after the rename (when no name
        // points to it any more, so that no newer secret is ever overwritten).
        let previous = try PrivateFile.openForUpdate(currentPath)
        defer { if let previous { PrivateFile.closeDescriptor(previous) } }
        if let previous, let held = try? PrivateFile.readAll(previous, path: currentPath),
            KeybagSecret(serialized: held)?.identifier == identifier
        {
            return  // already current
        }
        let hex = KeybagSecret.hex(identifier)
        if let error = PrivateFile.renameFile(stagedPath(hex), to: currentPath) {
            guard error == ENOENT else {
                throw KeychainError(
                    .io,
                    "cannot install the keybag secret \(currentPath): \(PrivateFile.describe(error))"
                )
            }
            // Another process promoted it first; it erases what it replaced.
            guard try read(currentPath)?.identifier == identifier else {
                throw KeychainError(.decode, "the staged keybag secret is missing from \(directory)")
            }
            return
        }
        PrivateFile.syncDirectory(directory)
        if let previous { PrivateFile.eraseContents(of: previous) }
    }

    package func discard(_ identifier: Data) {
        PrivateFile.removeAndErase(stagedPath(KeybagSecret.hex(identifier)))
    }

    package func discardStaged(except identifier: Data?) {
        let keep = identifier.map(KeybagSecret.hex)
        let prefix = Self.fileName + "."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            let hex = String(name.dropFirst(prefix.count))
            guard hex != keep, hex.count == 2 * KeybagSecret.identifierLength, hex.allSatisfy(\.isHexDigit) else {
                continue
            }
            PrivateFile.removeAndErase(directory + "/" + name)
        }
        PrivateFile.syncDirectory(directory)
    }

    package func erase() {
        discardStaged(except: nil)
        PrivateFile.removeAndErase(currentPath)
        PrivateFile.syncDirectory(directory)
    }

    // MARK: Private

    private func read(_ path: String) throws(KeychainError) -> KeybagSecret? {
        guard var bytes = try PrivateFile.readSecret(path) else { return nil }
        defer { PrivateFile.zero(&bytes) }
        return KeybagSecret(serialized: bytes)
    }

}
