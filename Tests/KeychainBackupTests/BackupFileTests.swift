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
import Testing

/// The backup file: records come back as written, under the password or the recipient's key only,
/// and any alteration — a flipped byte, a cut, chunks re-ordered or taken from another file — is
/// refused, never read as records.
@Suite struct BackupFileTests {
    /// scrypt's cheapest accepted cost, so that thousands of readings stay fast.
    static let cheap: (logN: UInt8, r: UInt8, p: UInt8) = (10, 1, 1)

    static func write(_ records: [Data], password: String = "backup password", chunkSize: UInt32 = 1_024) throws -> Data
    {
        var file = Data()
        var writer = try BackupWriter(password: password, chunkSize: chunkSize, cost: cheap) { file.append($0) }
        for record in records { try writer.append(record) }
        try writer.finish()
        return file
    }

    /// A reader over `file`.
    static func source(_ file: Data) -> (Int) throws -> [UInt8] {
        var offset = 0
        return { count in
            let end = min(file.count, offset + count)
            defer { offset = end }
            return Array(file[offset..<end])
        }
    }

    static func readAll(_ file: Data, password: String = "backup password") throws -> [Data] {
        var reader = try BackupReader(password: password, read: source(file))
        var records: [Data] = []
        while let record = try reader.next() { records.append(record) }
        return records
    }

    static func records(_ count: Int) -> [Data] {
        (0..<count).map { index in Data((0..<(index * 37 % 700)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }) }
    }

    @Test func recordsComeBackAsWritten() throws {
        for count in [0, 1, 3, 200] {
            let records = Self.records(count)
            #expect(try Self.readAll(try Self.write(records)) == records)
        }
        // Records that end exactly on a chunk boundary still need the (empty) last chunk.
        let exact = [Data(repeating: 7, count: 1_020)]
        let file = try Self.write(exact)
        #expect(try Self.readAll(file) == exact)
    }

    @Test func aFileForARecipientOpensWithItsPrivateKeyOnly() throws {
        let recipient = P256.KeyAgreement.PrivateKey()
        var file = Data()
        var writer = try BackupWriter(recipient: recipient.publicKey.x963Representation, chunkSize: 1_024) {
            file.append($0)
        }
        let records = Self.records(50)
        for record in records { try writer.append(record) }
        try writer.finish()

        func open(with key: P256.KeyAgreement.PrivateKey) throws -> [Data] {
            var reader = try BackupReader(
                agree: { ephemeral, _ in
                    let shared = try key.sharedSecretFromKeyAgreement(
                        with: try P256.KeyAgreement.PublicKey(x963Representation: ephemeral)
                    )
                    return (shared.withUnsafeBytes { Data($0) }, key.publicKey.x963Representation)
                },
                read: Self.source(file)
            )
            var found: [Data] = []
            while let record = try reader.next() { found.append(record) }
            return found
        }
        #expect(try open(with: recipient) == records)
        #expect(throws: BackupError.wrongKey) { try open(with: P256.KeyAgreement.PrivateKey()) }
        #expect(throws: BackupError.wrongKey) { try Self.readAll(file) }  // no password opens it
    }

    @Test func aWrongPasswordOpensNothing() throws {
        let file = try Self.write(Self.records(10))
        #expect(throws: BackupError.wrongKey) { try Self.readAll(file, password: "guess") }
        #expect(throws: BackupError.wrongKey) { try Self.readAll(file, password: "") }
    }

    @Test func everyFlippedByteIsRefused() throws {
        let records = Self.records(20)
        let file = try Self.write(records)
        #expect(file.count > 3 * 1_024)
        for offset in 0..<file.count {
            var altered = file
            altered[offset] ^= 0x01
            let outcome = Result { try Self.readAll(altered) }
            guard case .failure(let error) = outcome else {
                Issue.record("a flip at byte \(offset) was read as records")
                continue
            }
            #expect(error is BackupError)
        }
    }

    @Test func everyCutIsRefused() throws {
        let file = try Self.write(Self.records(20))
        for length in 0..<file.count {
            let outcome = Result { try Self.readAll(file.prefix(length)) }
            guard case .failure(let error) = outcome else {
                Issue.record("a file cut at \(length) of \(file.count) bytes was read as complete")
                continue
            }
            #expect(error is BackupError)
            if length < 8 { #expect(error as? BackupError == .notABackup) }
        }
        // Anything after the end is refused too.
        #expect(throws: BackupError.damaged) { try Self.readAll(file + Data([0])) }
    }

    @Test func chunksReorderedOrTakenFromAnotherFileAreRefused() throws {
        let first = try Self.write(Self.records(12))
        let second = try Self.write(Self.records(12))
        let headerSize = 8 + 2 + 1 + 3 + 32 + 4 + 32  // magic, version, protection, scrypt, salt, chunk size, code
        let chunk = 1_024 + 16
        // Swap the first two chunks of one file.
        var reordered = first
        let a = first[headerSize..<(headerSize + chunk)]
        let b = first[(headerSize + chunk)..<(headerSize + 2 * chunk)]
        reordered.replaceSubrange(headerSize..<(headerSize + 2 * chunk), with: b + a)
        #expect(throws: BackupError.damaged) { try Self.readAll(reordered) }
        // The second file's first chunk in the first file, same password.
        var mixed = first
        mixed.replaceSubrange(headerSize..<(headerSize + chunk), with: second[headerSize..<(headerSize + chunk)])
        #expect(throws: BackupError.damaged) { try Self.readAll(mixed) }
    }

    @Test func headersOutsideTheBoundsAreRefusedBeforeAnyWork() throws {
        #expect(throws: BackupError.notABackup) { try Self.readAll(Data()) }
        #expect(throws: BackupError.notABackup) { try Self.readAll(Data("not a backup at all".utf8)) }
        var newer = try Self.write([Data([1])])
        newer[9] = 2  // version 2
        #expect(throws: BackupError.newerVersion(2)) { try Self.readAll(newer) }
        var costly = try Self.write([Data([1])])
        costly[12] = 40  // scrypt with N = 2^40
        #expect(throws: BackupError.unsupportedParameters) { try Self.readAll(costly) }
    }

    @Test func aRecordLargerThanTheFormatIsRefusedWhenWritten() throws {
        var writer = try BackupWriter(password: "p", chunkSize: 1_024, cost: Self.cheap) { _ in }
        #expect(throws: BackupError.recordTooLarge) {
            try writer.append(Data(count: BackupWriter.maximumRecordSize + 1))
        }
    }

    /// A restore reads a file twice: the second reading gives the same records, refuses another
    /// file under the same password, and a file cut since the first.
    @Test func aSecondReadingReadsTheSameFileOnly() throws {
        let records = Self.records(60)
        let file = try Self.write(records)
        let other = try Self.write(records)  // the same records and password, another salt
        var first = try BackupReader(password: "backup password", read: Self.source(file))
        while try first.next() != nil {}
        #expect(first.chunkTags.count > 10)

        var again = try first.restarted(read: Self.source(file))
        var read: [Data] = []
        while let record = try again.next() { read.append(record) }
        #expect(read == records)
        #expect(throws: BackupError.damaged) {
            var swapped = try first.restarted(read: Self.source(other))
            while try swapped.next() != nil {}
        }
        // Cut after the first reading: refused at the cut, not read as an end.
        #expect(throws: BackupError.damaged) {
            var cut = try first.restarted(read: Self.source(file.prefix(file.count - 2_000)))
            while try cut.next() != nil {}
        }
    }

    @Test func aReaderRefusesKeyDerivationBeyondItsMemory() throws {
        let file = try Self.write([Data([1])])  // scrypt with N = 2^10, r = 1: 128 KiB
        #expect(throws: BackupError.unsupportedParameters) {
            _ = try BackupReader(password: "backup password", maximumMemory: 64 << 10, read: Self.source(file))
        }
        #expect(throws: Never.self) {
            _ = try BackupReader(password: "backup password", maximumMemory: 128 << 10, read: Self.source(file))
        }
    }
}
