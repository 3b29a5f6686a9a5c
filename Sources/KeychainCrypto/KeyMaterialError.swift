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

/// Why a key operation failed.
///
/// The mirror turns each into Apple's `CFError`.
package enum KeyMaterialError: Error, Sendable, Equatable {
    /// The bytes are not a key of the kind named (wrong length, not on the curve, a private key
    /// whose public part does not match).
    case invalidKeyData
    /// The input of an operation has the wrong shape (a digest of the wrong length, a
    /// ciphertext too short to hold a public key and a tag).
    case invalidInput(String)
    /// Decryption failed: the ciphertext or its tag was changed, or it was made for another key.
    case decryptionFailed
    /// The other party's public key is on another curve.
    case curveMismatch
    /// The private key's holder (the keychain's engine) failed the operation with this status:
    /// authentication was refused or could not be asked for.
    case delegated(status: Int32, message: String)
}
