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
import KeychainDevice
import KeychainServices
import SoftwareEnclave

/// Key operations through `SecKey` beside swift-crypto doing the same in process: ECDSA P-256
/// signing and verifying, and Apple's ECIES (cofactor, variable IV, SHA-256) encrypting and
/// decrypting 64 bytes; with a software key and with a Secure Enclave key, whose private-key
/// operations run in the engine (here the in-process engine: the item is opened for each one), and
/// signing with CryptoKit's `SecureEnclave.P256` API (the blob is opened for each signature).
struct KeyOperationRun {
    let operations: Int
    let directory: URL
    let log: ResultLog

    static let software = "SecKey (software key)"
    static let enclave = "SecKey (Secure Enclave key, in-process engine)"
    static let cryptoKitEnclave = "SecureEnclave.P256 (blob, in-process engine)"
    static let floor = "floor: swift-crypto"

    private static let message = Data((0..<64).map { UInt8($0) })
    private static let algorithm = SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256
    private static let ecies = SecKeyAlgorithm.eciesEncryptionCofactorVariableIVX963SHA256AESGCM

    func run() throws {
        try floors()
        let softwareKey = try Self.require(
            SecKeyCreateRandomKey(
                [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits: 256] as CFDictionary,
                nil
            )
        )
        try measure(Self.software, privateKey: softwareKey)

        let home = directory.appendingPathComponent("keys", isDirectory: true)
        try? FileManager.default.removeItem(at: home)
        let device = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none, engine: .embedded)
        )
        try Device.withCurrent(device) {
            let access = try Self.require(
                SecAccessControlCreateWithFlags(
                    nil,
                    kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
                    [.privateKeyUsage],
                    nil
                )
            )
            let parameters: [String: Any] = [
                kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
                kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                kSecPrivateKeyAttrs as String: [
                    kSecAttrIsPermanent as String: true, kSecAttrAccessControl as String: access,
                    kSecAttrApplicationTag as String: Data("bench".utf8),
                ],
            ]
            let enclaveKey = try Self.require(SecKeyCreateRandomKey(parameters as CFDictionary, nil))
            try measure(Self.enclave, privateKey: enclaveKey)

            // CryptoKit's API: the private key travels as a blob the engine opens for each signature.
            let blobKey = try SecureEnclave.P256.Signing.PrivateKey()
            let sign = Sample.measure(operations) { _ in (try? blobKey.signature(for: Self.message)) != nil }
            log.record(Self.cryptoKitEnclave, "ECDSA P-256 sign", size: nil, sign)
        }
    }

    private func measure(_ subject: String, privateKey: SecKey) throws {
        let publicKey = try Self.require(SecKeyCopyPublicKey(privateKey))
        let message = Self.message as CFData
        let sign = Sample.measure(operations) { _ in
            SecKeyCreateSignature(privateKey, Self.algorithm, message, nil) != nil
        }
        log.record(subject, "ECDSA P-256 sign", size: nil, sign)
        let signature = try Self.require(SecKeyCreateSignature(privateKey, Self.algorithm, message, nil))
        let verify = Sample.measure(operations) { _ in
            SecKeyVerifySignature(publicKey, Self.algorithm, message, signature, nil)
        }
        log.record(subject, "ECDSA P-256 verify", size: nil, verify)
        let encrypt = Sample.measure(operations) { _ in
            SecKeyCreateEncryptedData(publicKey, Self.ecies, message, nil) != nil
        }
        log.record(subject, "ECIES encrypt 64 B", size: nil, encrypt)
        let sealed = try Self.require(SecKeyCreateEncryptedData(publicKey, Self.ecies, message, nil))
        let decrypt = Sample.measure(operations) { _ in
            (SecKeyCreateDecryptedData(privateKey, Self.ecies, sealed, nil) as Data?) == Self.message
        }
        log.record(subject, "ECIES decrypt 64 B", size: nil, decrypt)
    }

    /// The same work with swift-crypto's types directly: no dictionaries, no key objects of ours.
    private func floors() throws {
        let key = P256.Signing.PrivateKey()
        let sign = Sample.measure(operations) { _ in (try? key.signature(for: Self.message)) != nil }
        log.record(Self.floor, "ECDSA P-256 sign", size: nil, sign)
        let signature = try key.signature(for: Self.message)
        let verify = Sample.measure(operations) { _ in key.publicKey.isValidSignature(signature, for: Self.message) }
        log.record(Self.floor, "ECDSA P-256 verify", size: nil, verify)

        let recipient = P256.KeyAgreement.PrivateKey()
        func derive(_ secret: SharedSecret, _ ephemeral: Data) -> (SymmetricKey, AES.GCM.Nonce)? {
            let bytes = secret.x963DerivedSymmetricKey(using: SHA256.self, sharedInfo: ephemeral, outputByteCount: 32)
                .withUnsafeBytes { Data($0) }
            guard let nonce = try? AES.GCM.Nonce(data: bytes.suffix(16)) else { return nil }
            return (SymmetricKey(data: bytes.prefix(16)), nonce)
        }
        let encrypt = Sample.measure(operations) { _ in
            let ephemeral = P256.KeyAgreement.PrivateKey()
            let ephemeralPublic = ephemeral.publicKey.x963Representation
            guard let secret = try? ephemeral.sharedSecretFromKeyAgreement(with: recipient.publicKey),
                let (symmetric, nonce) = derive(secret, ephemeralPublic),
                let box = try? AES.GCM.seal(Self.message, using: symmetric, nonce: nonce)
            else { return false }
            return !(ephemeralPublic + box.ciphertext + box.tag).isEmpty
        }
        log.record(Self.floor, "ECIES encrypt 64 B", size: nil, encrypt)
        let ephemeral = P256.KeyAgreement.PrivateKey()
        let ephemeralPublic = ephemeral.publicKey.x963Representation
        let secret = try ephemeral.sharedSecretFromKeyAgreement(with: recipient.publicKey)
        let (symmetric, nonce) = try Self.require(derive(secret, ephemeralPublic))
        let box = try AES.GCM.seal(Self.message, using: symmetric, nonce: nonce)
        let decrypt = Sample.measure(operations) { _ in
            guard let peer = try? P256.KeyAgreement.PublicKey(x963Representation: ephemeralPublic),
                let agreed = try? recipient.sharedSecretFromKeyAgreement(with: peer),
                let (key, iv) = derive(agreed, ephemeralPublic),
                let opened = try? AES.GCM.open(
                    AES.GCM.SealedBox(nonce: iv, ciphertext: box.ciphertext, tag: box.tag),
                    using: key
                )
            else { return false }
            return opened == Self.message
        }
        log.record(Self.floor, "ECIES decrypt 64 B", size: nil, decrypt)
    }

    private static func require<T>(_ value: T?) throws -> T {
        guard let value else { throw CocoaError(.featureUnsupported) }
        return value
    }
}
