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
package import KeychainCore
import KeychainTPM

extension TPMHome {
    package func makeEnclaveKey(authorization: [UInt8]) throws(KeychainError) -> (key: Data, publicKey: Data) {
        let blob = try withTPM("making a Secure Enclave key") { tpm throws(TPMError) in
            let root = try tpm.createPrimary(TPMTemplate.storageRoot)
            return try tpm.create(TPMTemplate.p256Key, under: root, authorization: authorization)
        }
        guard let point = blob.eccPublicPoint else {
            throw KeychainError(.internalInconsistency, "the TPM made a key that is not a P-256 key")
        }
        return (Data(blob.serialized), Data(point))
    }

    package func publicKey(ofEnclaveKey key: Data) -> Data? {
        TPMObjectBlob(serialized: key)?.eccPublicPoint.map { Data($0) }
    }

    package func sign(digest: Data, key: Data, authorization: [UInt8]) throws(KeychainError) -> Data {
        let blob = try Self.enclaveBlob(key)
        let (r, s) = try withEnclaveKey(blob, "signing with a Secure Enclave key") { tpm, handle throws(TPMError) in
            try tpm.sign(digest: Array(digest), key: handle, authorization: authorization)
        }
        do {
            return try P256.Signing.ECDSASignature(rawRepresentation: r + s).derRepresentation
        } catch {
            throw KeychainError(.internalInconsistency, "the TPM's signature is not a P-256 signature")
        }
    }

    package func agree(with publicKey: Data, key: Data, authorization: [UInt8]) throws(KeychainError) -> Data {
        let blob = try Self.enclaveBlob(key)
        // The point is checked here first: the TPM is not given what is not a P-256 point.
        guard (try? P256.KeyAgreement.PublicKey(x963Representation: publicKey)) != nil, publicKey.count == 65 else {
            throw KeychainError(.invalidParameter, "the other party's key is not a P-256 public key")
        }
        let x = Array(publicKey.dropFirst().prefix(32))
        let y = Array(publicKey.dropFirst(33).prefix(32))
        let shared = try withEnclaveKey(blob, "agreeing with a Secure Enclave key") { tpm, handle throws(TPMError) in
            try tpm.agree(x: x, y: y, key: handle, authorization: authorization)
        }
        return Data(shared)
    }

    // MARK: Private

    private static func enclaveBlob(_ key: Data) throws(KeychainError) -> TPMObjectBlob {
        guard let blob = TPMObjectBlob(serialized: key), blob.eccPublicPoint != nil else {
            throw KeychainError(.decode, "a Secure Enclave key's TPM blob is damaged")
        }
        return blob
    }

    /// Loads an enclave key and runs `body` with it; a refused authorization is a damaged key
    /// (the authorization is sealed with the key's item, so only damage makes it wrong).
    private func withEnclaveKey<T>(
        _ blob: TPMObjectBlob,
        _ action: String,
        _ body: (TPMConnection, UInt32) throws(TPMError) -> T
    ) throws(KeychainError) -> T {
        try withTPM(action) { tpm throws(TPMError) in
            let root = try tpm.createPrimary(TPMTemplate.storageRoot)
            let handle = try tpm.load(blob, under: root)
            return try body(tpm, handle)
        }
    }
}
