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

/// One of a device's P-256 private keys, wherever it is kept: in the process, or in a TPM that
/// signs and agrees without ever giving the key out.
package protocol DevicePrivateKey: Sendable {
    /// The public key (X9.63).
    var publicKey: Data { get }
    /// What the device's identity item keeps of the key: a software key's scalar, or the TPM's
    /// wrapped key, useless without that TPM.
    var stored: Data { get }
    /// Whether the key is in a TPM.
    var isHardware: Bool { get }
    /// An ECDSA signature (raw r‖s) of `message`'s SHA-256.
    func signature(for message: Data) throws(SyncError) -> Data
    /// The ECDH shared secret (the point's x coordinate) with `publicKey` (X9.63), kept as a key
    /// (its bytes are wiped when it is freed).
    func sharedSecret(with publicKey: Data) throws(SyncError) -> SymmetricKey
}

/// Where a device's identity keys are made and used, when not in the process: the keychain's TPM.
package protocol DeviceKeyStore: Sendable {
    /// A new key inside the store.
    func makeKey() throws(SyncError) -> any DevicePrivateKey
    /// A key this store made, from what the identity item kept of it.
    ///
    /// - Throws: ``SyncError/Reason/unavailable`` when the key is not this store's (another
    ///   machine's TPM, a keychain copied elsewhere).
    func key(stored: Data, publicKey: Data) throws(SyncError) -> any DevicePrivateKey
}

/// A P-256 key held in the process.
package struct SoftwareDeviceKey: DevicePrivateKey {
    private let key: P256.Signing.PrivateKey
    /// The same scalar for ECDH, made once.
    private let agreement: P256.KeyAgreement.PrivateKey

    /// A new key.
    package init() throws(SyncError) {
        try self.init(P256.Signing.PrivateKey())
    }

    package init(stored: Data) throws(SyncError) {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: stored) else {
            throw SyncError(.malformed, "a device key is damaged")
        }
        try self.init(key)
    }

    private init(_ key: P256.Signing.PrivateKey) throws(SyncError) {
        // The same scalar for either use, converted once.
        guard let agreement = try? P256.KeyAgreement.PrivateKey(rawRepresentation: key.rawRepresentation) else {
            throw SyncError(.malformed, "a device key is damaged")
        }
        self.key = key
        self.agreement = agreement
    }

    package var publicKey: Data { key.publicKey.x963Representation }
    package var stored: Data { key.rawRepresentation }
    package var isHardware: Bool { false }

    package func signature(for message: Data) throws(SyncError) -> Data {
        guard let signature = try? key.signature(for: message) else {
            throw SyncError(.unavailable, "a device key did not sign")
        }
        return signature.rawRepresentation
    }

    package func sharedSecret(with publicKey: Data) throws(SyncError) -> SymmetricKey {
        guard let other = try? P256.KeyAgreement.PublicKey(x963Representation: publicKey),
            let secret = try? agreement.sharedSecretFromKeyAgreement(with: other)
        else { throw SyncError(.malformed, "a grant's ephemeral key is not a P-256 key") }
        return secret.withUnsafeBytes { SymmetricKey(data: $0) }
    }
}
