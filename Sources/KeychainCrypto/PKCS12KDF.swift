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
import _CryptoExtras

/// The PKCS #12 key derivation (RFC 7292, appendix B.2), which the password-integrity MAC of a
/// PKCS #12 file uses (ID 3); the password is its BMPString encoding with the terminating NUL.
enum PKCS12KDF {
    static func derive(
        password: String,
        salt: Data,
        id: UInt8,
        iterations: Int,
        byteCount: Int,
        digest: DigestKind
    ) -> SymmetricKey {
        var passwordBytes: [UInt8] = []
        for unit in password.utf16 { passwordBytes += [UInt8(unit >> 8), UInt8(truncatingIfNeeded: unit)] }
        passwordBytes += [0, 0]
        let u = digest.byteCount
        let v = digest.blockByteCount
        func stretched(_ bytes: [UInt8]) -> [UInt8] {
            guard !bytes.isEmpty else { return [] }
            let length = v * ((bytes.count + v - 1) / v)
            return (0..<length).map { bytes[$0 % bytes.count] }
        }
        var input = stretched(Array(salt)) + stretched(passwordBytes)
        let diversifier = Data(repeating: id, count: v)
        var output = Data()
        while output.count < byteCount {
            var block = digest.hash(parts: [diversifier, Data(input)])
            for _ in 1..<max(iterations, 1) { block = digest.hash(block) }
            output.append(block)
            // I_j = (I_j + B + 1) mod 2^(8v), B = the block repeated to v bytes.
            let b = (0..<v).map { block[block.startIndex + $0 % u] }
            for start in stride(from: 0, to: input.count, by: v) {
                var carry = 1
                for index in stride(from: v - 1, through: 0, by: -1) {
                    let sum = Int(input[start + index]) + Int(b[index]) + carry
                    input[start + index] = UInt8(truncatingIfNeeded: sum)
                    carry = sum >> 8
                }
            }
        }
        return SymmetricKey(data: output.prefix(byteCount))
    }
}

/// HMAC with a hash a file names.
enum HMACDigest {
    static func authenticationCode(_ message: Data, key: SymmetricKey, digest: DigestKind) -> Data? {
        switch digest {
        case .sha1: Data(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key))
        case .sha256: Data(HMAC<SHA256>.authenticationCode(for: message, using: key))
        case .sha384: Data(HMAC<SHA384>.authenticationCode(for: message, using: key))
        case .sha512: Data(HMAC<SHA512>.authenticationCode(for: message, using: key))
        case .sha224: nil
        }
    }
}

extension DigestKind {
    /// The hash's block size in bytes.
    var blockByteCount: Int {
        switch self {
        case .sha1, .sha224, .sha256: 64
        case .sha384, .sha512: 128
        }
    }

    /// The hash an `AlgorithmIdentifier` of a digest names (SHA-1, SHA-2).
    init?(oid: [UInt8]) {
        switch oid {
        case [0x2B, 0x0E, 0x03, 0x02, 0x1A]: self = .sha1
        case [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01]: self = .sha256
        case [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x02]: self = .sha384
        case [0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x03]: self = .sha512
        default: return nil
        }
    }

    /// The hash of an HMAC `AlgorithmIdentifier` (PBKDF2's pseudo-random function).
    init?(hmacOID oid: [UInt8]) {
        switch oid {
        case [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x07]: self = .sha1
        case [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x09]: self = .sha256
        case [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x0A]: self = .sha384
        case [0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x02, 0x0B]: self = .sha512
        default: return nil
        }
    }

    /// swift-crypto's PBKDF2 function for the hash.
    var pbkdf2Function: KDF.Insecure.PBKDF2.HashFunction? {
        switch self {
        case .sha1: .insecureSHA1
        case .sha224: .insecureSHA224
        case .sha256: .sha256
        case .sha384: .sha384
        case .sha512: .sha512
        }
    }
}
