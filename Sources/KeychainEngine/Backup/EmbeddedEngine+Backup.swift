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
import Foundation
import KeychainBackup
package import KeychainContract
package import KeychainCore

extension EmbeddedEngine {
    /// Items restored per transaction, at most: a restore killed midway leaves whole batches, and
    /// running it again finds them kept.
    static let restoreBatch = 512
    /// Bytes of records restored per transaction, at most (records may be megabytes each).
    static let restoreBatchBytes = 32 << 20
    /// The most memory a file's scrypt parameters may ask of the engine (the format's default takes 32 MiB).
    static let maximumKeyDerivationMemory = 128 << 20

    package func backup(
        _ sealing: BackupSealing,
        context: ContextReference?,
        prompt: PasscodePrompt?,
        to sink: @escaping BackupSink,
        progress: RekeyProgress?
    ) throws(KeychainError) -> BackupSummary {
        let credentials = gate.credentials(of: context)
        let total = progress == nil ? 0 : try keychain.rowCount()
        let forward: (Data) throws -> Void = { bytes in try sink(bytes) }
        return try Self.translating { () throws in
            var writer: BackupWriter
            switch sealing {
            case .password(let password):
                guard !password.isEmpty else { throw KeychainError(.invalidParameter, "a backup needs a password") }
                writer = try BackupWriter(password: password, cost: backupCost, sink: forward)
            case .recipient(let publicKey):
                guard (try? P256.KeyAgreement.PublicKey(x963Representation: publicKey)) != nil else {
                    throw KeychainError(.invalidParameter, "a backup's recipient key is a P-256 public key")
                }
                writer = try BackupWriter(recipient: publicKey, sink: forward)
            }
            let summary = try keychain.forEachItemLeavingTheDevice(
                credentials: credentials,
                visited: { seen in progress?(min(seen, total), total) }
            ) { item throws(KeychainError) -> Bool in
                let record = item.encoded()
                guard record.count <= BackupWriter.maximumRecordSize else { return false }
                do {
                    try writer.append(record)
                } catch {
                    throw Self.translate(error)
                }
                return true
            }
            try writer.finish()
            progress?(total, total)
            return summary
        }
    }

    package func restore(
        _ opening: BackupOpening,
        context: ContextReference?,
        prompt: PasscodePrompt?,
        from source: @escaping BackupSource,
        checkOnly: Bool,
        progress: RekeyProgress?
    ) throws(KeychainError) -> RestoreSummary {
        try Self.translating { () throws in
            // Every chunk is read and checked first: an altered, cut or foreign file is refused
            // before anything is written.
            var checked = RestoreSummary()
            var total = 0
            var reader = try reader(for: opening, source: source)
            while let record = try reader.next() {
                total += 1
                if (try? BackupItem(decoding: record)) == nil {
                    checked.refused[.invalidItem, default: 0] += 1
                } else {
                    checked.added += 1
                }
            }
            if checkOnly { return checked }
            guard !(try isLocked()) else {
                throw KeychainError(.interactionNotAllowed, "unlock the keychain to restore into it")
            }
            var summary = RestoreSummary()
            var done = 0
            reader = try reader.restarted(read: Self.sequential(source))
            var batch: [BackupItem] = []
            var batchBytes = 0
            func apply() throws(KeychainError) {
                for outcome in try keychain.restore(batch) {
                    switch outcome {
                    case .added: summary.added += 1
                    case .replaced: summary.replaced += 1
                    case .kept: summary.kept += 1
                    case .refused(let reason): summary.refused[reason, default: 0] += 1
                    }
                }
                done += batch.count
                batch.removeAll(keepingCapacity: true)
                batchBytes = 0
                progress?(done, total)
            }
            while let record = try reader.next() {
                guard let item = try? BackupItem(decoding: record) else {
                    summary.refused[.invalidItem, default: 0] += 1
                    done += 1
                    continue
                }
                batch.append(item)
                batchBytes += record.count
                if batch.count == Self.restoreBatch || batchBytes >= Self.restoreBatchBytes { try apply() }
            }
            if !batch.isEmpty || total == 0 { try apply() }
            return summary
        }
    }

    // MARK: Private

    /// scrypt's cost for a new backup: the format's default, or the least the format accepts when
    /// the keychain itself runs with the tests' cheap passcode cost.
    private var backupCost: (logN: UInt8, r: UInt8, p: UInt8) {
        keychain.keybagService.passcodeKDF.rounds < PasscodeKDF.standard.rounds
            ? (BackupHeader.acceptedLogN.lowerBound, 8, 1)
            : (BackupKeys.defaultLogN, BackupKeys.defaultR, BackupKeys.defaultP)
    }

    /// Reads `source` from its first byte on, `count` bytes at a time (fewer only at its end).
    private static func sequential(_ source: @escaping BackupSource) -> (Int) throws -> [UInt8] {
        let position = LockedState(0)
        return { count in
            let offset = position.withLock { $0 }
            var bytes = Data()
            while bytes.count < count {
                let piece = try source(offset + bytes.count, count - bytes.count)
                if piece.isEmpty { break }
                bytes.append(piece)
            }
            position.withLock { $0 += bytes.count }
            return [UInt8](bytes)
        }
    }

    /// A reader of the file `source` gives, from its first byte.
    private func reader(for opening: BackupOpening, source: @escaping BackupSource) throws -> BackupReader {
        let read = Self.sequential(source)
        switch opening {
        case .password(let password):
            return try BackupReader(password: password, maximumMemory: Self.maximumKeyDerivationMemory, read: read)
        case .privateKey(let raw):
            guard let key = try? P256.KeyAgreement.PrivateKey(rawRepresentation: raw) else {
                throw KeychainError(.invalidParameter, "the key that opens a backup is a P-256 private key")
            }
            return try BackupReader(
                agree: { ephemeral, _ in
                    let peer = try P256.KeyAgreement.PublicKey(x963Representation: ephemeral)
                    let shared = try key.sharedSecretFromKeyAgreement(with: peer)
                    return (shared.withUnsafeBytes { Data($0) }, key.publicKey.x963Representation)
                },
                read: read
            )
        }
    }

    /// Runs `body`, giving the backup format's errors Apple's codes and the caller's words.
    private static func translating<T>(_ body: () throws -> T) throws(KeychainError) -> T {
        do {
            return try body()
        } catch {
            throw translate(error)
        }
    }

    private static func translate(_ error: any Error) -> KeychainError {
        if let error = error as? KeychainError { return error }
        guard let error = error as? BackupError else {
            return KeychainError(.decode, "the backup cannot be read", cause: error)
        }
        switch error {
        case .notABackup:
            return KeychainError(.decode, "the file is not a swift-keychain backup")
        case .newerVersion(let version):
            return KeychainError(
                .unimplemented,
                "the backup was written in format \(version), newer than this version of swift-keychain reads"
            )
        case .unsupportedParameters:
            return KeychainError(.decode, "the backup asks for key-derivation parameters this version refuses")
        case .wrongKey:
            return KeychainError(.authenticationFailed, "the password or key does not open this backup")
        case .damaged:
            return KeychainError(.decode, "the backup was altered, cut short or extended")
        case .recordTooLarge:
            return KeychainError(.dataTooLarge, "an item is too large for a backup")
        }
    }
}
