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

/// Writes a backup file as a stream: the header, then the records in chunks of a fixed size, each
/// sealed with AES-GCM under the chunk key.
///
/// A chunk's nonce is its number and whether it is the last (the STREAM construction): chunks
/// cannot be re-ordered, dropped or cut off at a boundary without the reader noticing. The last
/// chunk is always shorter than a full one (empty when the records end on a boundary), so that a
/// file cut after a full chunk is seen to be cut. Records are length-prefixed (4 bytes) and may
/// span chunks; memory stays at one chunk whatever the number of records.
package struct BackupWriter {
    /// The largest record the format holds: the largest secret a keychain item may have (16 MiB)
    /// with room for its attributes.
    package static let maximumRecordSize = 20 << 20

    private let chunkKey: SymmetricKey
    private let chunkSize: Int
    private let sink: (Data) throws -> Void
    private var pending = Data()
    private var index: UInt64 = 0
    private var finished = false

    /// Starts a file: writes its header to `sink`.
    ///
    /// - Parameters:
    ///   - password: The backup password.
    ///   - chunkSize: Plaintext bytes per chunk.
    ///   - cost: scrypt's log2 N, r and p (the defaults unless a test needs them cheaper).
    ///   - sink: Receives the file's bytes, in order.
    /// - Throws: What `sink` throws.
    package init(
        password: String,
        chunkSize: UInt32 = 64 << 10,
        cost: (logN: UInt8, r: UInt8, p: UInt8) = (BackupKeys.defaultLogN, BackupKeys.defaultR, BackupKeys.defaultP),
        sink: @escaping (Data) throws -> Void
    ) throws {
        let salt = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        let protection = BackupHeader.Protection.password(logN: cost.logN, r: cost.r, p: cost.p, salt: salt)
        let fileKey = try BackupKeys.fileKey(password: password, logN: cost.logN, r: cost.r, p: cost.p, salt: salt)
        try self.init(protection: protection, fileKey: fileKey, chunkSize: chunkSize, sink: sink)
    }

    /// Starts a file for a recipient: only the holder of the private key of `recipient` (a P-256
    /// key-agreement key, X9.63) can read it.
    ///
    /// - Parameters:
    ///   - recipient: The recipient's public key.
    ///   - chunkSize: Plaintext bytes per chunk.
    ///   - sink: Receives the file's bytes, in order.
    /// - Throws: ``BackupError/unsupportedParameters`` for a key that is not a P-256 public key;
    ///   what `sink` throws.
    package init(recipient: Data, chunkSize: UInt32 = 64 << 10, sink: @escaping (Data) throws -> Void) throws {
        guard let recipientKey = try? P256.KeyAgreement.PublicKey(x963Representation: recipient) else {
            throw BackupError.unsupportedParameters
        }
        let ephemeral = P256.KeyAgreement.PrivateKey()
        let shared = try ephemeral.sharedSecretFromKeyAgreement(with: recipientKey)
        let ephemeralPublic = ephemeral.publicKey.x963Representation
        let fileKey = BackupKeys.fileKey(
            sharedSecret: shared.withUnsafeBytes { Data($0) },
            ephemeralPublicKey: ephemeralPublic,
            recipientPublicKey: recipient
        )
        let salt = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        let protection = BackupHeader.Protection.recipient(
            keyID: BackupKeys.keyID(of: recipient),
            ephemeralPublicKey: ephemeralPublic,
            salt: salt
        )
        try self.init(protection: protection, fileKey: fileKey, chunkSize: chunkSize, sink: sink)
    }

    private init(
        protection: BackupHeader.Protection,
        fileKey: SymmetricKey,
        chunkSize: UInt32,
        sink: @escaping (Data) throws -> Void
    ) throws {
        let header = BackupHeader(version: BackupHeader.currentVersion, protection: protection, chunkSize: chunkSize)
        let encoded = header.encoded(fileKey: fileKey)
        self.chunkKey = BackupKeys.chunkKey(fileKey: fileKey, header: encoded)
        self.chunkSize = Int(chunkSize)
        self.sink = sink
        try sink(Data(encoded))
    }

    /// Appends one record.
    ///
    /// - Parameter record: The record's bytes.
    /// - Throws: ``BackupError/recordTooLarge``; what `sink` throws.
    package mutating func append(_ record: Data) throws {
        precondition(!finished, "a finished backup takes no more records")
        guard record.count <= Self.maximumRecordSize else { throw BackupError.recordTooLarge }
        pending.append(contentsOf: withUnsafeBytes(of: UInt32(record.count).bigEndian) { Array($0) })
        pending.append(record)
        while pending.count >= chunkSize {
            // A full chunk is never the last: the last is always shorter.
            try seal(pending.prefix(chunkSize), isLast: false)
            pending.removeFirst(chunkSize)
        }
    }

    /// Writes the last chunk: the file is complete.
    ///
    /// - Throws: What `sink` throws.
    package mutating func finish() throws {
        precondition(!finished, "a backup is finished once")
        finished = true
        try seal(pending, isLast: true)
        pending = Data()
    }

    private mutating func seal(_ plaintext: Data, isLast: Bool) throws {
        let box = try AES.GCM.seal(
            plaintext,
            using: chunkKey,
            nonce: try BackupKeys.nonce(index: index, isLast: isLast)
        )
        index += 1
        try sink(box.ciphertext + box.tag)
    }
}
