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

/// The public areas (`TPMT_PUBLIC`) of the objects the keychain makes in a TPM (TPM 2.0 Part 2 §12.2).
package enum TPMTemplate {
    // Object attributes (TPMA_OBJECT).
    static let fixedTPM: UInt32 = 0x0000_0002
    static let fixedParent: UInt32 = 0x0000_0010
    static let sensitiveDataOrigin: UInt32 = 0x0000_0020
    static let userWithAuth: UInt32 = 0x0000_0040
    static let noDA: UInt32 = 0x0000_0400
    static let restricted: UInt32 = 0x0001_0000
    static let decrypt: UInt32 = 0x0002_0000
    static let sign: UInt32 = 0x0004_0000

    // Algorithms (TPM_ALG_ID).
    static let aes: UInt16 = 0x0006
    static let keyedHash: UInt16 = 0x0008
    static let sha256: UInt16 = 0x000B
    static let null: UInt16 = 0x0010
    static let hmac: UInt16 = 0x0005
    static let ecdsa: UInt16 = 0x0018
    static let ecc: UInt16 = 0x0023
    static let cfb: UInt16 = 0x0043
    static let nistP256: UInt16 = 0x0003

    /// Attributes every key of the keychain has: it never leaves this TPM (not even under another
    /// parent), the TPM made its secret, a password authorizes its use, and wrong passwords do
    /// not count towards the TPM's dictionary-attack lockout (the keychain counts its own).
    static let keychainKey = fixedTPM | fixedParent | sensitiveDataOrigin | userWithAuth | noDA

    /// The storage root key: a P-256 restricted decryption key in the owner hierarchy, made again
    /// from the hierarchy's seed at each use (same template, same key), under which the
    /// keychain's keys are wrapped.
    package static var storageRoot: [UInt8] {
        var out = TPMWriter()
        out.append(ecc)
        out.append(sha256)
        out.append(keychainKey | restricted | decrypt)
        out.appendSized([UInt8]())  // authPolicy
        out.append(aes)
        out.append(UInt16(128))
        out.append(cfb)
        out.append(null)  // scheme
        out.append(nistP256)
        out.append(null)  // kdf
        out.appendSized([UInt8]())  // unique.x
        out.appendSized([UInt8]())  // unique.y
        return out.bytes
    }

    /// An HMAC-SHA-256 key: the device key, and the passcode's key.
    package static var hmacKey: [UInt8] {
        var out = TPMWriter()
        out.append(keyedHash)
        out.append(sha256)
        out.append(keychainKey | sign)
        out.appendSized([UInt8]())  // authPolicy
        out.append(hmac)
        out.append(sha256)
        out.appendSized([UInt8]())  // unique
        return out.bytes
    }

    /// A P-256 key that signs (ECDSA, SHA-256) and agrees (ECDH): an enclave key.
    package static var p256Key: [UInt8] {
        var out = TPMWriter()
        out.append(ecc)
        out.append(sha256)
        out.append(keychainKey | sign | decrypt)
        out.appendSized([UInt8]())  // authPolicy
        out.append(null)  // symmetric
        out.append(null)  // scheme: chosen at each signature
        out.append(nistP256)
        out.append(null)  // kdf
        out.appendSized([UInt8]())
        out.appendSized([UInt8]())
        return out.bytes
    }
}
