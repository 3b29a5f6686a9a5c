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

import Crypto
package import Foundation
import KeychainCore
import KeychainTPM

/// A keychain home bound to a TPM 2.0: the device key inside the TPM, the keybag secrets and the
/// wrong-passcode count in its NV indices, the passcode's key made there.
///
/// `device.tpm` in the home names them (TPMBinding); the device secret is the device key's
/// HMAC of a fixed label, computed by the TPM when the keychain opens, so a copy of the home on
/// another machine opens nothing. The device and keybag secret stores of such a home share one
/// `TPMHome`, which remembers the binding it opened or staged.
package final class TPMHome: Sendable {
    // MARK: Properties

    /// The file name inside a keychain home.
    package static let fileName = "device.tpm"

    /// The TCTI the TPM is reached through ("device:/dev/tpmrm0", "swtpm:path=…").
    package let configuration: String
    let directory: URL

    /// A binding opened or staged by this process, with the device secret it gives.
    struct Bound: Sendable {
        var binding: TPMBinding
        var secret: SymmetricKey
        var path: String
    }

    private struct State {
        var installed: Bound?
        var staged: [Bound] = []
        var identity: String?
    }

    private let state = LockedState(State())

    private static let deviceSecretLabel = Array("swift-keychain device secret v1".utf8)

    // MARK: Initialization

    package init(directory: URL, configuration: String) {
        self.directory = directory
        self.configuration = configuration
    }

    /// `device.tpm` of this home.
    var path: String { directory.appendingPathComponent(Self.fileName).path }

    /// The TPM, as `security status` names it (asked of the TPM once).
    package var description: String {
        if let identity = state.withLock({ $0.identity }) { return "TPM 2.0 (\(identity))" }
        let identity = (try? withTPM("reading the TPM's identity") { tpm throws(TPMError) in try tpm.identity() })
        state.withLock { $0.identity = identity }
        return "TPM 2.0 (\(identity ?? "not answering"))"
    }

    // MARK: Bindings

    /// The binding of `device.tpm`, opened (its device secret computed by the TPM) once.
    func installed() throws(KeychainError) -> Bound {
        if let bound = state.withLock({ $0.installed }) { return bound }
        guard let bytes = try PrivateFile.readSecret(path, limit: 4096) else {
            throw KeychainError(
                .decode,
                "the TPM binding \(path) is missing; the keychain cannot be decrypted without it"
            )
        }
        let bound = try open(bytes, at: path)
        state.withLock { $0.installed = bound }
        return bound
    }

    /// The binding the keybag secrets are written with: the installed one, else the one this
    /// process staged last (a keychain being created).
    func active() throws(KeychainError) -> Bound {
        if PrivateFile.status(path, followingLinks: false) != nil { return try installed() }
        guard let staged = state.withLock({ $0.staged.last }) else {
            throw KeychainError(.decode, "the TPM binding \(path) is missing")
        }
        return staged
    }

    /// Every binding this process knows: the installed one and those staged.
    func known() -> [Bound] {
        let installed = try? installed()
        return (installed.map { [$0] } ?? []) + state.withLock { $0.staged }
    }

    /// Makes a new binding in the TPM (device key, NV indices) and keeps it in a staged file;
    /// with `kept`, the binding seals that device secret (a keychain moving in from the files).
    func stage(keeping kept: SymmetricKey? = nil) throws(KeychainError) -> Bound {
        let (binding, secret) = try makeBinding(keeping: kept)
        let suffix = HexText.encode(SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) })
        let staged = path + "." + suffix
        do {
            try PrivateFile.createSecret(staged, contents: binding.serialized, directory: directory.path)
        } catch {
            destroy(binding, secret: secret)
            throw error
        }
        let bound = Bound(binding: binding, secret: secret, path: staged)
        state.withLock { $0.staged.append(bound) }
        return bound
    }

    /// The staged bindings left in the home (a creation that crashed), opened.
    func stagedBindings() -> [Bound] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let bound = names.filter(Self.isStagedName).sorted().compactMap { name -> Bound? in
            let staged = directory.appendingPathComponent(name).path
            guard let bytes = try? PrivateFile.readSecret(staged, limit: 4096) else { return nil }
            return try? open(bytes, at: staged)
        }
        state.withLock { current in
            for item in bound where !current.staged.contains(where: { $0.path == item.path }) {
                current.staged.append(item)
            }
        }
        return bound
    }

    /// Makes the staged binding at `stagedPath` this home's `device.tpm`.
    func install(_ stagedPath: String) throws(KeychainError) {
        guard
            URL(filePath: stagedPath).deletingLastPathComponent().standardizedFileURL.path
                == directory.standardizedFileURL.path,
            Self.isStagedName(URL(filePath: stagedPath).lastPathComponent)
        else {
            throw KeychainError(.internalInconsistency, "not a staged TPM binding of this keychain")
        }
        if let error = PrivateFile.linkFile(stagedPath, as: path) {
            guard error == EEXIST || (error == ENOENT && PrivateFile.status(path, followingLinks: false) != nil) else {
                throw KeychainError(.io, "cannot install the TPM binding at \(path): \(PrivateFile.describe(error))")
            }
            // Installed already (by another process opening the keychain) — unless another binding is there.
            let installedBytes = try PrivateFile.readSecret(path, limit: 4096)
            let stagedBytes = try PrivateFile.readSecret(stagedPath, limit: 4096)
            guard stagedBytes == nil || installedBytes == stagedBytes else {
                throw KeychainError(
                    .decode,
                    "\(path) holds another TPM binding than the one the keychain was sealed with"
                )
            }
        }
        PrivateFile.removeName(stagedPath)
        PrivateFile.syncDirectory(directory.path)
        state.withLock { current in
            if let index = current.staged.firstIndex(where: { $0.path == stagedPath }) {
                var bound = current.staged.remove(at: index)
                bound.path = path
                current.installed = bound
            }
        }
    }

    /// Erases the staged bindings: their NV indices in the TPM, then their files.
    func discardStaged() {
        for bound in stagedBindings() {
            destroy(bound.binding, secret: bound.secret)
            PrivateFile.removeName(bound.path)
            state.withLock { $0.staged.removeAll { $0.path == bound.path } }
        }
    }

    /// Whether `name` is a staged binding's file name: `device.tpm.` and 32 hexadecimal digits.
    static func isStagedName(_ name: String) -> Bool {
        let prefix = fileName + "."
        let suffix = name.dropFirst(prefix.count)
        return name.hasPrefix(prefix) && suffix.count == 32 && suffix.allSatisfy(\.isHexDigit)
    }

    // MARK: The TPM

    /// Runs `body` on a connection to the TPM, its failures translated for the keychain:
    /// `notAvailable` when it does not answer (the next operation tries again), `decode` when it
    /// refuses what the home holds (another TPM's, altered, or the TPM was cleared).
    func withTPM<T>(_ action: String, _ body: (TPMConnection) throws(TPMError) -> T) throws(KeychainError) -> T {
        do {
            return try TPMConnection.using(configuration, body)
        } catch {
            throw Self.translate(error, action: action, configuration: configuration)
        }
    }

    static func translate(_ error: TPMError, action: String, configuration: String) -> KeychainError {
        switch error.kind {
        case .unreachable, .busy, .lockout, .full, .failed, .alreadyDefined:
            KeychainError(.notAvailable, "the TPM (\(configuration)) failed while \(action): \(error)")
        case .rejected, .missing, .uninitialized, .authorizationFailed:
            KeychainError(
                .decode,
                "the TPM (\(configuration)) refused the keychain's binding while \(action): it belongs to another TPM, "
                    + "was altered, or the TPM was cleared (\(error))"
            )
        }
    }

    /// The device secret of `binding`: its device key's HMAC of a fixed label, or the secret the
    /// binding seals under it.
    static func deviceSecret(of binding: TPMBinding, in tpm: TPMConnection) throws(TPMError) -> SymmetricKey {
        let answer = try deviceKeyAnswer(of: binding, in: tpm)
        guard !binding.sealedSecret.isEmpty else { return answer }
        do {
            let box = try AES.GCM.SealedBox(combined: binding.sealedSecret)
            return SymmetricKey(data: try AES.GCM.open(box, using: answer, authenticating: sealedSecretBinding))
        } catch {
            throw TPMError(.rejected, context: "opening the sealed device secret")
        }
    }

    /// The device key's HMAC of a fixed label.
    private static func deviceKeyAnswer(of binding: TPMBinding, in tpm: TPMConnection) throws(TPMError) -> SymmetricKey
    {
        let root = try tpm.createPrimary(TPMTemplate.storageRoot)
        let key = try tpm.load(binding.deviceKey, under: root)
        var digest = try tpm.hmac(deviceSecretLabel, key: key, authorization: [])
        defer { PrivateFile.zero(&digest) }
        try tpm.flush(key)
        try tpm.flush(root)
        return SymmetricKey(data: digest)
    }

    private static let sealedSecretBinding = Data("swift-keychain tpm sealed device secret v1".utf8)

    /// Erases the binding: its NV indices (the keybag secrets and the count) and its files.
    func erase() {
        discardStaged()
        if let bound = try? installed() {
            // A TPM that does not answer keeps its indices: so does the home keep the file naming them.
            guard destroy(bound.binding, secret: bound.secret) else { return }
        }
        PrivateFile.removeName(path)
        PrivateFile.syncDirectory(directory.path)
        state.withLock { $0.installed = nil }
    }

    /// The authorization value of the binding's NV indices, from its device secret: only a
    /// process that had the TPM compute the device secret reads or writes them.
    static func indexAuthorization(_ secret: SymmetricKey) -> [UInt8] {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: secret,
            info: Data("swift-keychain tpm nv authorization v1".utf8),
            outputByteCount: 32
        ).withUnsafeBytes { Array($0) }
    }

    // MARK: Private

    private func open(_ bytes: [UInt8], at file: String) throws(KeychainError) -> Bound {
        guard let binding = TPMBinding(serialized: bytes) else {
            throw KeychainError(.decode, "the TPM binding \(file) is damaged")
        }
        let secret = try withTPM("computing the device secret") { tpm throws(TPMError) in
            try Self.deviceSecret(of: binding, in: tpm)
        }
        return Bound(binding: binding, secret: secret, path: file)
    }

    /// A new device key and three NV indices, each written (zeros) so that it reads back; the
    /// device secret is the key's answer, or `kept` sealed under it.
    private func makeBinding(keeping kept: SymmetricKey?) throws(KeychainError) -> (TPMBinding, SymmetricKey) {
        try withTPM("making the keychain's keys") { tpm throws(TPMError) in
            let root = try tpm.createPrimary(TPMTemplate.storageRoot)
            let blob = try tpm.create(TPMTemplate.hmacKey, under: root, authorization: [])
            try tpm.flush(root)
            var binding = TPMBinding(deviceKey: blob, keybagSlots: [], attemptIndex: 0)
            var secret = try Self.deviceKeyAnswer(of: binding, in: tpm)
            if let kept {
                do {
                    let box = try AES.GCM.seal(
                        kept.withUnsafeBytes { Data($0) },
                        using: secret,
                        authenticating: Self.sealedSecretBinding
                    )
                    binding.sealedSecret = Array(box.combined ?? Data())
                } catch {
                    throw TPMError(.failed, context: "sealing the device secret")
                }
                secret = kept
            }
            let authorization = Self.indexAuthorization(secret)
            for _ in 0..<16 {
                let indices = TPMBinding.randomIndices()
                var taken = false
                for index in indices where try tpm.isDefined(index: index) { taken = true }
                if taken { continue }
                var defined: [UInt32] = []
                do throws(TPMError) {
                    for (index, size) in zip(
                        indices,
                        [TPMBinding.slotSize, TPMBinding.slotSize, TPMBinding.attemptIndexSize]
                    ) {
                        try tpm.defineIndex(index, size: size, authorization: authorization)
                        defined.append(index)
                        try tpm.write([UInt8](repeating: 0, count: size), index: index, authorization: authorization)
                    }
                } catch {
                    for index in defined { try? tpm.undefineIndex(index) }
                    if error.kind == .alreadyDefined { continue }
                    throw error
                }
                binding.keybagSlots = Array(indices[0...1])
                binding.attemptIndex = indices[2]
                return (binding, secret)
            }
            throw TPMError(.full, context: "choosing NV indices")
        }
    }

    /// Removes a binding's NV indices: only those that answer to its authorization (a
    /// `device.tpm` altered to name another keychain's indices removes nothing).
    /// - Returns: Whether the TPM answered (the indices are gone, or were never this binding's).
    @discardableResult
    func destroy(_ binding: TPMBinding, secret: SymmetricKey) -> Bool {
        let authorization = Self.indexAuthorization(secret)
        let removed = try? withTPM("removing the keychain's NV indices") { tpm throws(TPMError) -> Bool in
            for index in binding.indices {
                guard (try? tpm.read(index: index, size: 1, authorization: authorization)) != nil else { continue }
                try tpm.undefineIndex(index)
            }
            return true
        }
        return removed == true
    }
}
