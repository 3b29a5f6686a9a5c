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

/// The cryptographic floors: AES-256-GCM seal + open with swift-crypto at the sizes an item
/// uses, and the passcode KDF (scrypt) at the parameters a new passcode gets.
struct CryptoFloor {
    let log: ResultLog

    static let subject = "floor: swift-crypto"

    /// AES-256-GCM seal then open of `byteCounts`-sized messages with a fresh nonce and an AAD.
    func aesGCM(byteCounts: [Int], operations: Int) {
        let key = SymmetricKey(size: .bits256)
        let aad = Data("kc-bench-svc-1\u{0}user1@example.invalid".utf8)
        for byteCount in byteCounts {
            let message = Data((0..<byteCount).map { UInt8(truncatingIfNeeded: $0) })
            let sample = Sample.measure(operations) { _ in
                guard let sealed = try? AES.GCM.seal(message, using: key, authenticating: aad),
                    let opened = try? AES.GCM.open(sealed, using: key, authenticating: aad)
                else { return false }
                return opened == message
            }
            log.record(Self.subject, "AES-256-GCM \(byteCount) B", size: nil, sample)
        }
    }

    /// scrypt with N = 2^`log2Rounds`, r = 8, p = 1 on a 6-digit passcode.
    func scrypt(log2Rounds: Int, repeats: Int) {
        let salt = Data((0..<16).map { UInt8($0) })
        let sample = Sample.measure(repeats) { _ in
            (try? KDF.Scrypt.deriveKey(
                from: Array("123456".utf8),
                salt: salt,
                outputByteCount: 32,
                rounds: 1 << log2Rounds,
                blockSize: 8,
                parallelism: 1
            )) != nil
        }
        log.record(Self.subject, "scrypt N=2^\(log2Rounds) r=8 p=1", size: nil, sample)
    }
}
