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
import KeychainCore
package import KeychainSync

/// A device's identity keys made and used in the keychain's TPM, as its Secure Enclave keys are:
/// the identity item keeps the TPM's wrapped key and a random authorization value of it, so a
/// copy of the keychain on another machine (or of its files with the passcode) has no TPM that
/// loads them.
struct TPMDeviceKeys: DeviceKeyStore {
    let hardware: any HardwareRoot

    func makeKey() throws(SyncError) -> any DevicePrivateKey {
        let made = try Self.translate {
            () throws(KeychainError) in try HardwareEnclaveKey.make(in: hardware, compactRepresentable: false)
        }
        guard let key = HardwareEnclaveKey(sealed: made.sealed) else {
            throw SyncError(.unavailable, "the TPM's key is not in the form it is kept in")
        }
        return TPMDeviceKey(hardware: hardware, key: key, publicKey: made.publicKey)
    }

    func key(stored: Data, publicKey: Data) throws(SyncError) -> any DevicePrivateKey {
        guard let key = HardwareEnclaveKey(sealed: stored) else {
            throw SyncError(.malformed, "a device key said to be in a TPM is not a TPM key")
        }
        // The wrapped key carries its public part; another TPM's key loads nowhere but there,
        // which the first use finds (``SyncError/Reason/unavailable``).
        guard hardware.publicKey(ofEnclaveKey: key.key) == publicKey else {
            throw SyncError(.malformed, "a device key's TPM blob is not the key it was kept with")
        }
        return TPMDeviceKey(hardware: hardware, key: key, publicKey: publicKey)
    }

    static func translate<T>(_ body: () throws(KeychainError) -> T) throws(SyncError) -> T {
        do throws(KeychainError) {
            return try body()
        } catch {
            throw SyncError(.unavailable, "the TPM did not use the device's key (\(error.code))")
        }
    }
}

/// One identity key in the TPM.
private struct TPMDeviceKey: DevicePrivateKey {
    let hardware: any HardwareRoot
    let key: HardwareEnclaveKey
    let publicKey: Data

    var stored: Data { key.serialized }
    var isHardware: Bool { true }

    func signature(for message: Data) throws(SyncError) -> Data {
        let digest = Data(SHA256.hash(data: message))
        let der = try TPMDeviceKeys.translate { () throws(KeychainError) in
            try hardware.sign(digest: digest, key: key.key, authorization: key.authorization)
        }
        guard let signature = try? P256.Signing.ECDSASignature(derRepresentation: der) else {
            throw SyncError(.unavailable, "the TPM's signature is not a P-256 signature")
        }
        return signature.rawRepresentation
    }

    func sharedSecret(with publicKey: Data) throws(SyncError) -> SymmetricKey {
        guard (try? P256.KeyAgreement.PublicKey(x963Representation: publicKey)) != nil else {
            throw SyncError(.malformed, "a grant's ephemeral key is not a P-256 key")
        }
        let secret = try TPMDeviceKeys.translate { () throws(KeychainError) in
            try hardware.agree(with: publicKey, key: key.key, authorization: key.authorization)
        }
        return SymmetricKey(data: secret)
    }
}

extension Keychain {
    /// Where a device identity made now keeps its membership and agreement keys: the keychain's
    /// TPM, `nil` (in the identity item) for a keychain kept in files.
    package var deviceKeyStore: (any DeviceKeyStore)? { hardware.map { TPMDeviceKeys(hardware: $0) } }

    /// The TPM that uses a stored identity's keys: the keychain's, or the one its Secure Enclave
    /// keys stay in after a move back to files.
    var deviceKeyUser: (any DeviceKeyStore)? { enclaveHardware.map { TPMDeviceKeys(hardware: $0) } }
}
