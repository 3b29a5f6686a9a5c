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
import KeychainCrypto

/// Token keys (Apple's Secure Enclave keys) in the engine: a P-256 private key generated here,
/// stored as a key item's secret — sealed like every secret, to its access control's constraints
/// too — and used here for signing and key agreement.
///
/// Clients get the public key and the results, never the private key: a search returns the public
/// key as the item's data without opening it.
enum StoredEnclaveKeys {
    /// The add query of a new token key: its private key generated, and the attributes Apple's
    /// Secure Enclave gives such a key.
    static func generating(_ query: ItemQuery, hardware: (any HardwareRoot)?) throws(KeychainError) -> ItemQuery {
        guard query.keyOperation == .generate, query.itemClass == .key else {
            throw KeychainError(.invalidParameter, "only a key item's private key can be generated")
        }
        guard query.valueData == nil else {
            throw KeychainError(.invalidParameter, "a Secure Enclave key is generated, not imported")
        }
        for (code, required) in [("type", Int64(73)), ("bsiz", 256), ("kcls", 1)] {
            if let given = query.attributes[code], given != .number(required) {
                throw KeychainError(.invalidParameter, "Secure Enclave keys are P-256 private keys")
            }
        }
        let (privateKey, publicKey) = try generate(hardware: hardware, compactRepresentable: false)
        var generated = query
        generated.valueData = privateKey
        let fixed: [String: AttributeValue] = [
            QueryKey.tokenID: .string(TokenID.secureEnclave),
            StoredItem.publicKeyMark: .data(publicKey),
            "kcls": .number(1), "type": .number(73), "bsiz": .number(256), "esiz": .number(256),
            "klbl": .data(Data(Insecure.SHA1.hash(data: publicKey))),
            "perm": .bool(true), "sens": .bool(true), "extr": .bool(false),
            "sign": .bool(true), "decr": .bool(true), "drve": .bool(true), "unwp": .bool(true),
            "encr": .bool(false), "vrfy": .bool(false), "wrap": .bool(false),
        ]
        generated.attributes.merge(fixed) { _, fixed in fixed }
        return generated
    }

    /// A new P-256 key, in the TPM when the keychain has one, else in software.
    ///
    /// Returns what is sealed in place of the private key, and the public key (X9.63).
    static func generate(
        hardware: (any HardwareRoot)?,
        compactRepresentable: Bool
    ) throws(KeychainError) -> (privateKey: Data, publicKey: Data) {
        if let hardware {
            let made = try HardwareEnclaveKey.make(in: hardware, compactRepresentable: compactRepresentable)
            return (made.sealed, made.publicKey)
        }
        let key = ECPrivateKey(generatingOn: .p256, compactRepresentable: compactRepresentable)
        return (key.x963Representation, key.publicKey.x963Representation)
    }

    /// Runs a key operation with a token key's secret (its Apple X9.63 private key, or the TPM
    /// key that stands for it), which must be the private key of the public key the engine
    /// recorded when it made the key.
    static func perform(
        _ operation: KeyOperation,
        secret: Data,
        publicKey: Data?,
        hardware: (any HardwareRoot)?
    ) throws(KeychainError) -> Data {
        if let tpmKey = HardwareEnclaveKey(sealed: secret) {
            return try perform(operation, tpmKey: tpmKey, publicKey: publicKey, hardware: hardware)
        }
        let key: ECPrivateKey
        do {
            key = try ECPrivateKey(x963Representation: secret)
        } catch {
            throw KeychainError(.decode, "a key's private key is damaged")
        }
        guard key.publicKey.x963Representation == publicKey else {
            throw KeychainError(.decode, "a key's private key is not the one it was made with")
        }
        do {
            switch operation {
            case .sign(let digest), .signWrapped(_, let digest):
                return try key.derSignature(forDigest: digest)
            case .keyExchange(let publicKey), .keyExchangeWrapped(_, let publicKey):
                return try key.sharedSecret(with: try ECPublicKey(x963Representation: publicKey))
            case .generate, .generateWrapped, .publicKeyOfWrapped:
                throw KeyMaterialError.invalidInput("not an operation with the private key")
            }
        } catch {
            throw KeychainError(.invalidParameter, "the key operation's input is not valid for a P-256 key")
        }
    }

    /// Runs a key operation with a key in the TPM.
    private static func perform(
        _ operation: KeyOperation,
        tpmKey: HardwareEnclaveKey,
        publicKey: Data?,
        hardware: (any HardwareRoot)?
    ) throws(KeychainError) -> Data {
        guard let hardware else {
            throw KeychainError(.notAvailable, "the key was made in a TPM this process does not use")
        }
        guard hardware.publicKey(ofEnclaveKey: tpmKey.key) == publicKey else {
            throw KeychainError(.decode, "a key's private key is not the one it was made with")
        }
        switch operation {
        case .sign(let digest), .signWrapped(_, let digest):
            return try hardware.sign(digest: digest, key: tpmKey.key, authorization: tpmKey.authorization)
        case .keyExchange(let other), .keyExchangeWrapped(_, let other):
            return try hardware.agree(with: other, key: tpmKey.key, authorization: tpmKey.authorization)
        case .generate, .generateWrapped, .publicKeyOfWrapped:
            throw KeychainError(.invalidParameter, "not an operation with the private key")
        }
    }
}
