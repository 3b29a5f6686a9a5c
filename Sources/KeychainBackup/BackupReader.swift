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

/// Reads a backup file as a stream, record by record, refusing it at the first byte that does not
/// authenticate: a wrong password or key before any record, an altered, re-ordered, truncated or
/// extended file at the chunk where it shows.
///
/// A caller that must write nothing from a damaged file reads it to the end first (as
/// `security backup --verify` does), or applies each chunk's records all-or-nothing.
package struct BackupReader {
    /// The header read.
    package let header: BackupHeader

    /// Each chunk's SHA-256, in order, as far as the file was read.
    ///
    /// A reader ``restarted(read:)`` on the same file accepts only these chunks, and all of them:
    /// the file read a second time is the file that was checked the first time, even for whoever
    /// holds its key (for whom a GCM tag alone would not bind the ciphertext).
    package private(set) var chunkTags: [Data] = []

    private let fileKey: SymmetricKey
    private let chunkKey: SymmetricKey
    private let read: (Int) throws -> [UInt8]
    private var expectedTags: [Data]?
    private var plaintext = Data()
    private var index: UInt64 = 0
    private var reachedEnd = false

    /// Opens a password-protected file.
    ///
    /// - Parameters:
    ///   - password: The backup password.
    ///   - maximumMemory: The most memory the file's scrypt parameters may take.
    ///   - read: Reads exactly the number of bytes asked, or fewer at the end of the file.
    /// - Throws: ``BackupError``: not a backup, a newer version, parameters out of bounds, a wrong
    ///   password (or an altered header), a file protected for a recipient key.
    package init(
        password: String,
        maximumMemory: Int = .max,
        read: @escaping (Int) throws -> [UInt8]
    ) throws {
        let (header, code) = try BackupHeader.read(from: read)
        guard case .password(let logN, let r, let p, let salt) = header.protection else { throw BackupError.wrongKey }
        // scrypt's memory is 128·r·N bytes: a file may not ask a server for more than it allows.
        guard 128 * Int(r) << Int(logN) <= maximumMemory else { throw BackupError.unsupportedParameters }
        let fileKey = try BackupKeys.fileKey(password: password, logN: logN, r: r, p: p, salt: salt)
        try self.init(header: header, code: code, fileKey: fileKey, read: read)
    }

    /// Opens a file protected for a recipient key.
    ///
    /// - Parameters:
    ///   - agree: Given the file's ephemeral public key and the identifier of the recipient key it
    ///     was written for, returns the shared secret of a P-256 key agreement with the recipient's
    ///     private key and the recipient's public key (X9.63); throws when it holds no such key.
    ///   - read: Reads exactly the number of bytes asked, or fewer at the end of the file.
    /// - Throws: ``BackupError``, or what `agree` throws.
    package init(
        agree: (_ ephemeralPublicKey: Data, _ keyID: Data) throws -> (sharedSecret: Data, recipientPublicKey: Data),
        read: @escaping (Int) throws -> [UInt8]
    ) throws {
        let (header, code) = try BackupHeader.read(from: read)
        guard case .recipient(let keyID, let ephemeralPublicKey, _) = header.protection else {
            throw BackupError.wrongKey
        }
        let (sharedSecret, recipientPublicKey) = try agree(ephemeralPublicKey, keyID)
        guard BackupKeys.keyID(of: recipientPublicKey) == keyID else { throw BackupError.wrongKey }
        let fileKey = BackupKeys.fileKey(
            sharedSecret: sharedSecret,
            ephemeralPublicKey: ephemeralPublicKey,
            recipientPublicKey: recipientPublicKey
        )
        try self.init(header: header, code: code, fileKey: fileKey, read: read)
    }

    private init(
        header: BackupHeader,
        code: [UInt8],
        fileKey: SymmetricKey,
        read: @escaping (Int) throws -> [UInt8]
    ) throws {
        guard HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: header.body, using: fileKey) else {
            throw BackupError.wrongKey
        }
        self.header = header
        self.fileKey = fileKey
        self.chunkKey = BackupKeys.chunkKey(fileKey: fileKey, header: header.body + code)
        self.read = read
    }

    /// A reader of the same file from its first byte again, with the key already derived (a
    /// restore reads a file twice, and a password costs scrypt's time once).
    ///
    /// - Parameter read: Reads the file from its first byte, as the first reader's did.
    /// - Returns: A reader at the first record.
    /// - Throws: ``BackupError``: the file's header is no longer the one this reader opened.
    package func restarted(read: @escaping (Int) throws -> [UInt8]) throws -> BackupReader {
        let (header, code) = try BackupHeader.read(from: read)
        guard header.body == self.header.body else { throw BackupError.damaged }
        var restarted = try BackupReader(header: header, code: code, fileKey: fileKey, read: read)
        restarted.expectedTags = chunkTags
        return restarted
    }

    /// The next record, or `nil` after the last.
    ///
    /// - Returns: The record's bytes.
    /// - Throws: ``BackupError/damaged`` when a chunk does not authenticate, the file ends early,
    ///   bytes follow its last chunk, or (read again) a chunk differs from the first reading's.
    package mutating func next() throws -> Data? {
        while true {
            if plaintext.count >= 4 {
                let length = plaintext.prefix(4).reduce(0) { $0 << 8 | Int($1) }
                guard length <= BackupWriter.maximumRecordSize else { throw BackupError.damaged }
                if plaintext.count >= 4 + length {
                    let record = Data(plaintext.dropFirst(4).prefix(length))
                    plaintext.removeFirst(4 + length)
                    return record
                }
            }
            guard !reachedEnd else {
                // The last chunk ended inside a record: something was cut.
                guard plaintext.isEmpty else { throw BackupError.damaged }
                return nil
            }
            try readChunk()
        }
    }

    private mutating func readChunk() throws {
        let full = Int(header.chunkSize) + 16
        let bytes = try read(full)
        guard bytes.count >= 16 else { throw BackupError.damaged }  // the last chunk is missing
        let isLast = bytes.count < full
        let tag = Data(SHA256.hash(data: bytes))
        if let expectedTags {
            // A second reading: only the chunks of the first, in their order.
            guard Int(index) < expectedTags.count, expectedTags[Int(index)] == tag else { throw BackupError.damaged }
        }
        do {
            let box = try AES.GCM.SealedBox(
                nonce: try BackupKeys.nonce(index: index, isLast: isLast),
                ciphertext: bytes.dropLast(16),
                tag: bytes.suffix(16)
            )
            plaintext.append(try AES.GCM.open(box, using: chunkKey))
        } catch {
            throw BackupError.damaged
        }
        chunkTags.append(tag)
        index += 1
        if isLast {
            reachedEnd = true
            guard try read(1).isEmpty else { throw BackupError.damaged }  // bytes after the end
            if let expectedTags, expectedTags.count != chunkTags.count { throw BackupError.damaged }
        }
    }
}
