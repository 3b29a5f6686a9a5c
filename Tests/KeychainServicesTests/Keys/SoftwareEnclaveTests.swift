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
import KeychainServices
import KeychainTesting
import LocalAuth
import SoftwareEnclave
import Testing

/// CryptoKit's `SecureEnclave.P256` keys: made by the engine, kept by the application as an opaque
/// blob that only this keychain opens, used only as the blob's access control allows.
@Suite struct SoftwareEnclaveTests {
    static let message = Data("message to sign".utf8)

    static func gated(
        _ flags: SecAccessControlCreateFlags,
        _ protection: CFString = kSecAttrAccessibleWhenUnlockedThisDeviceOnly
    ) throws -> SecAccessControl {
        try #require(SecAccessControlCreateWithFlags(nil, protection, flags, nil))
    }

    /// The CryptoTokenKit code of a thrown error, and the keychain status under it.
    static func failure(_ body: () throws -> Void) -> (code: Int, status: Int?)? {
        do {
            try body()
            return nil
        } catch {
            let error = error as NSError
            #expect(error.domain == "CryptoTokenKit")
            return (error.code, (error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code)
        }
    }

    @Test func aSigningKeySignsAndComesBackFromItsData() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            #expect(SecureEnclave.isAvailable)
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            let signature = try key.signature(for: Self.message)
            #expect(key.publicKey.isValidSignature(signature, for: Self.message))
            #expect(
                key.publicKey.isValidSignature(
                    try key.signature(for: SHA256.hash(data: Self.message)),
                    for: Self.message
                )
            )
            // CryptoKit's default: a key with a compact public key.
            #expect(key.publicKey.compactRepresentation != nil)

            let reloaded = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(reloaded.publicKey.x963Representation == key.publicKey.x963Representation)
            #expect(key.publicKey.isValidSignature(try reloaded.signature(for: Self.message), for: Self.message))

            // The blob names no key material: neither half of the key is in it in the clear.
            let blob = key.dataRepresentation
            #expect(blob.range(of: key.publicKey.x963Representation) == nil)
            #expect(blob.range(of: key.publicKey.rawRepresentation.prefix(32)) == nil)
            // Nothing was stored in the keychain.
            #expect(SecItemCopyMatching([kSecClass as String: kSecClassKey] as CFDictionary, nil) == errSecItemNotFound)
        }
    }

    @Test func aKeyAgreementKeyAgreesWithSwiftCrypto() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let key = try SecureEnclave.P256.KeyAgreement.PrivateKey(compactRepresentable: false)
            let peer = P256.KeyAgreement.PrivateKey()
            let ours = try key.sharedSecretFromKeyAgreement(with: peer.publicKey)
            let theirs = try peer.sharedSecretFromKeyAgreement(with: key.publicKey)
            #expect(ours == theirs)
            let salt = Data("salt".utf8)
            #expect(
                ours.hkdfDerivedSymmetricKey(using: SHA256.self, salt: salt, sharedInfo: Data(), outputByteCount: 32)
                    == theirs.hkdfDerivedSymmetricKey(
                        using: SHA256.self,
                        salt: salt,
                        sharedInfo: Data(),
                        outputByteCount: 32
                    )
            )
            let reloaded = try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: key.dataRepresentation)
            #expect(try reloaded.sharedSecretFromKeyAgreement(with: peer.publicKey) == theirs)
        }
    }

    @Test func aGatedKeySignsOnlyAfterAMatch() throws {
        let keychain = try TemporaryKeychain(passcode: "1234", biometry: .touchID, enrolled: ["right thumb"])
        try keychain.run {
            let key = try SecureEnclave.P256.Signing.PrivateKey(
                accessControl: try Self.gated([.privateKeyUsage, .biometryCurrentSet])
            )
            // Loading it and its public key asks nothing.
            let loaded = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: key.dataRepresentation)

            let notInteractive = Self.failure { _ = try loaded.signature(for: Self.message) }
            #expect(notInteractive?.code == -9)
            #expect(notInteractive?.status == Int(errSecInteractionNotAllowed))

            try keychain.queueBiometricOutcomes([.nonMatch])
            let wrongFinger = Self.failure { _ = try loaded.signature(for: Self.message) }
            #expect(wrongFinger?.code == -5)
            #expect(wrongFinger?.status == Int(errSecAuthFailed))

            try keychain.queueBiometricOutcomes([.match])
            #expect(key.publicKey.isValidSignature(try loaded.signature(for: Self.message), for: Self.message))

            // A context that evaluated once is reused for the key's operations.
            let context = LAContext()
            try keychain.queueBiometricOutcomes([.match])
            let evaluated = try SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: key.dataRepresentation,
                authenticationContext: context
            )
            _ = try evaluated.signature(for: Self.message)
            #expect(key.publicKey.isValidSignature(try evaluated.signature(for: Self.message), for: Self.message))

            // Another finger enrolled: the key is gone for good, as the Secure Enclave's is.
            try keychain.sensor.enroll("left thumb")
            try keychain.queueBiometricOutcomes([.match])
            let reenrolled = Self.failure { _ = try loaded.signature(for: Self.message) }
            #expect(reenrolled?.code == -3)
        }
    }

    @Test func keysSurviveAPasscodeChangeAndDieWithThePasscodeWhenTheirClassDoes() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        try keychain.run {
            let plain = try SecureEnclave.P256.Signing.PrivateKey()
            let passcodeGated = try SecureEnclave.P256.Signing.PrivateKey(
                accessControl: try Self.gated([.privateKeyUsage, .devicePasscode])
            )
            let passcodeSet = try SecureEnclave.P256.Signing.PrivateKey(
                accessControl: try Self.gated([], kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly)
            )
            try keychain.device.changePasscode(from: "1234", to: "5678")

            let reloaded = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: plain.dataRepresentation)
            #expect(plain.publicKey.isValidSignature(try reloaded.signature(for: Self.message), for: Self.message))
            keychain.queuePasscodeReplies([.entered("5678")])
            let gated = try SecureEnclave.P256.Signing.PrivateKey(
                dataRepresentation: passcodeGated.dataRepresentation,
                authenticationContext: LAContext()
            )
            #expect(passcodeGated.publicKey.isValidSignature(try gated.signature(for: Self.message), for: Self.message))
            #expect(
                passcodeSet.publicKey.isValidSignature(try passcodeSet.signature(for: Self.message), for: Self.message)
            )

            try keychain.device.removePasscode(current: "5678")
            #expect(plain.publicKey.isValidSignature(try plain.signature(for: Self.message), for: Self.message))
            #expect(
                Self.failure {
                    _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: passcodeSet.dataRepresentation)
                }?.code == -3
            )
            // Its passcode lock died with the passcode: the key can never be used again.
            #expect(Self.failure { _ = try passcodeGated.signature(for: Self.message) }?.code == -3)
        }
    }

    @Test func aLockedKeychainRefusesWhenUnlockedKeys() throws {
        let keychain = try TemporaryKeychain(passcode: "1234")
        try keychain.run {
            let key = try SecureEnclave.P256.Signing.PrivateKey(accessControl: try Self.gated([]))
            try keychain.device.lock()
            let locked = Self.failure { _ = try key.signature(for: Self.message) }
            #expect(locked?.code == -9)
            #expect(locked?.status == Int(errSecInteractionNotAllowed))
            try keychain.device.unlock(passcode: "1234")
            #expect(key.publicKey.isValidSignature(try key.signature(for: Self.message), for: Self.message))
        }
    }

    @Test func dataThatIsNotAKeyOfThisKeychainIsRefused() throws {
        let keychain = try TemporaryKeychain()
        let other = try TemporaryKeychain()
        let foreign = try other.run { try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }
        try keychain.run {
            let blob = try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation
            var altered = blob
            altered[altered.count - 5] ^= 0x01
            for bad in [
                Data(), Data("not a key".utf8), Data(repeating: 1, count: 200), altered, foreign, blob.prefix(30),
                Data(count: 1 << 20),
            ] {
                let refused = Self.failure { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: bad) }
                #expect(refused?.code == -3)
                #expect(refused?.status == Int(errSecParam))
            }
            // The Always classes, which no passcode protects, are refused.
            let always = try #require(
                SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleAlwaysThisDeviceOnly, [], nil)
            )
            let refusedClass = Self.failure { _ = try SecureEnclave.P256.Signing.PrivateKey(accessControl: always) }
            #expect(refusedClass?.code == -8)
            #expect(refusedClass?.status == Int(errSecParam))
            // A signing key's blob is a key-agreement key's too, as on Apple's Secure Enclave (one kind of key).
            #expect(throws: Never.self) { try SecureEnclave.P256.KeyAgreement.PrivateKey(dataRepresentation: blob) }
        }
    }

    @Test func anotherApplicationsKeyIsRefused() throws {
        let keychain = try TemporaryKeychain(accessGroups: ["com.example.one"])
        let blob = try keychain.run { try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }
        let otherApp = try keychain.reopened(accessGroups: ["com.example.two"])
        Device.withCurrent(otherApp) {
            let refused = Self.failure { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob) }
            #expect(refused?.code == -6)
            #expect(refused?.status == Int(errSecMissingEntitlement))
        }
    }
}
