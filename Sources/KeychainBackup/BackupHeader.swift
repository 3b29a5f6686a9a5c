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
import _CryptoExtras

/// The header of a backup file: what it is, which version wrote it, how its key is made, and a
/// code that tells a wrong key from damage.
///
/// The layout (integers big-endian):
///
/// | bytes | field |
/// |---|---|
/// | 8 | magic `SWKCBKUP` |
/// | 2 | format version (1) |
/// | 1 | protection: 1 password, 2 recipient key |
/// | password: 3 + 32 | scrypt's log2 N, r, p; salt |
/// | recipient: 32 + 65 + 32 | SHA-256 of the recipient's public key; the ephemeral public key (X9.63); salt |
/// | 4 | plaintext bytes per chunk |
/// | 32 | HMAC-SHA256, under the file key, of everything before it |
///
/// The chunks follow (see ``BackupWriter``); their key is derived from the file key and the
/// header's SHA-256, so that a chunk of another file, or under an altered header, does not open.
package struct BackupHeader: Sendable, Equatable {
    package static let magic = Array("SWKCBKUP".utf8)
    package static let currentVersion: UInt16 = 1

    /// How the file key is made.
    package enum Protection: Sendable, Equatable {
        /// scrypt of a password: 2^`logN` rounds, block size `r`, parallelism `p`.
        case password(logN: UInt8, r: UInt8, p: UInt8, salt: Data)
        /// P-256 key agreement of an ephemeral key with the recipient's public key.
        case recipient(keyID: Data, ephemeralPublicKey: Data, salt: Data)
    }

    package var version: UInt16
    package var protection: Protection
    package var chunkSize: UInt32

    /// The bounds a reader accepts, so that a hostile header cannot ask for unbounded work or memory.
    package static let acceptedLogN: ClosedRange<UInt8> = 10...20
    package static let acceptedR: ClosedRange<UInt8> = 1...16
    package static let acceptedP: ClosedRange<UInt8> = 1...16
    package static let acceptedChunkSizes: ClosedRange<UInt32> = 1_024...(4 << 20)

    /// The bytes the header code covers.
    package var body: [UInt8] {
        var bytes = Self.magic
        bytes += [UInt8(version >> 8), UInt8(version & 0xff)]
        switch protection {
        case .password(let logN, let r, let p, let salt):
            bytes += [1, logN, r, p]
            bytes += salt
        case .recipient(let keyID, let ephemeralPublicKey, let salt):
            bytes += [2]
            bytes += keyID + ephemeralPublicKey + salt
        }
        bytes += withUnsafeBytes(of: chunkSize.bigEndian) { Array($0) }
        return bytes
    }

    /// The whole header: the body and its code under `fileKey`.
    package func encoded(fileKey: SymmetricKey) -> [UInt8] {
        body + Array(HMAC<SHA256>.authenticationCode(for: body, using: fileKey))
    }

    /// Reads a header from the start of a file.
    ///
    /// - Parameter read: Reads exactly the number of bytes asked, or fewer at the end of the file.
    /// - Returns: The header, and its body for the code to check once the key is known.
    /// - Throws: ``BackupError/notABackup``, ``BackupError/newerVersion(_:)``,
    ///   ``BackupError/unsupportedParameters``.
    package static func read(from read: (Int) throws -> [UInt8]) throws -> (header: BackupHeader, code: [UInt8]) {
        func take(_ count: Int) throws -> [UInt8] {
            let bytes = try read(count)
            guard bytes.count == count else { throw BackupError.notABackup }
            return bytes
        }
        guard try take(magic.count) == magic else { throw BackupError.notABackup }
        let versionBytes = try take(2)
        let version = UInt16(versionBytes[0]) << 8 | UInt16(versionBytes[1])
        guard version <= currentVersion, version >= 1 else {
            throw version > currentVersion ? BackupError.newerVersion(version) : BackupError.notABackup
        }
        let protection: Protection
        switch try take(1)[0] {
        case 1:
            let parameters = try take(3)
            guard acceptedLogN.contains(parameters[0]), acceptedR.contains(parameters[1]),
                acceptedP.contains(parameters[2])
            else { throw BackupError.unsupportedParameters }
            protection = .password(logN: parameters[0], r: parameters[1], p: parameters[2], salt: Data(try take(32)))
        case 2:
            protection = .recipient(
                keyID: Data(try take(32)),
                ephemeralPublicKey: Data(try take(65)),
                salt: Data(try take(32))
            )
        default:
            throw BackupError.unsupportedParameters
        }
        let sizeBytes = try take(4)
        let chunkSize = sizeBytes.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard acceptedChunkSizes.contains(chunkSize) else { throw BackupError.unsupportedParameters }
        let header = BackupHeader(version: version, protection: protection, chunkSize: chunkSize)
        return (header, try take(32))
    }
}
