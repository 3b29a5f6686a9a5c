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
import GRDB
import KeychainContract
import KeychainServices
import KeychainTestSupport
import SoftwareEnclave
import Testing

@testable import KeychainCore
@testable import KeychainDevice
@testable import KeychainEngine

/// Secure Enclave keys of a keychain bound to a TPM: made and used inside the TPM.
@Suite(.serialized) struct TPMEnclaveKeyTests {
    static let passcode = "482916"
    static let tag = Data("com.example.tpm.key".utf8)
    static let message = Data("message to sign".utf8)

    static func keyParameters() -> [String: Any] {
        [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: tag,
                kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
            ],
        ]
    }

    static func findKey(in device: Device) -> SecKey? {
        Device.withCurrent(device) {
            var item: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag, kSecReturnRef as String: true,
            ]
            guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess else { return nil }
            return item.flatMap { $0 as? SecKey }
        }
    }

    @Test func keychainKeysSignAndAgreeInTheTPMAndNoFileHoldsTheirPrivatePart() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture()
        defer { home.remove() }
        let device = try home.open(.tcti(tpm.tcti))
        try device.setPasscode(Self.passcode)
        let peer = P256.KeyAgreement.PrivateKey()
        let (signature, publicKeyBytes, shared) = try Device.withCurrent(device) { () throws -> (Data, Data, Data) in
            var error: Unmanaged<CFError>?
            let key = try #require(SecKeyCreateRandomKey(Self.keyParameters() as CFDictionary, &error))
            let publicKey = try #require(SecKeyCopyPublicKey(key))
            let signature = try #require(
                SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, &error)
            )
            let peerKey = try #require(
                SecKeyCreateWithData(
                    peer.publicKey.x963Representation as CFData,
                    [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPublic]
                        as CFDictionary,
                    &error
                )
            )
            let shared = try #require(
                SecKeyCopyKeyExchangeResult(key, .ecdhKeyExchangeStandard, peerKey, [:] as CFDictionary, &error)
            )
            let publicBytes = try #require(SecKeyCopyExternalRepresentation(publicKey, &error))
            return (signature as Data, publicBytes as Data, shared as Data)
        }
        let verifier = try P256.Signing.PublicKey(x963Representation: publicKeyBytes)
        #expect(
            verifier.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: Self.message)
        )
        let expected = try peer.sharedSecretFromKeyAgreement(
            with: P256.KeyAgreement.PublicKey(x963Representation: publicKeyBytes)
        )
        #expect(expected.withUnsafeBytes { Data($0) } == shared)
        // What the item seals in place of a private key is the TPM's blob: opened with the
        // keychain's own keys, it is no P-256 private key of that public key.
        let sealed = try Self.sealedSecret(of: device)
        #expect(sealed.starts(with: Array("SWKCTPMK".utf8)))
        #expect((try? P256.Signing.PrivateKey(x963Representation: sealed)) == nil)
    }

    @Test func keysMadeInTheTPMKeepWorkingAfterTheKeychainMovedBackToFiles() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture.withPasscode(Self.passcode, tpm: tpm)
        defer { home.remove() }
        let device = try home.open(.tcti(tpm.tcti))
        try device.unlock(passcode: Self.passcode)
        _ = try Device.withCurrent(device) { () throws -> SecKey in
            var error: Unmanaged<CFError>?
            return try #require(SecKeyCreateRandomKey(Self.keyParameters() as CFDictionary, &error))
        }
        try device.moveSecrets(toTPM: false, passcode: Self.passcode)
        let reopened = try home.open(.tcti(tpm.tcti))
        try reopened.unlock(passcode: Self.passcode)
        #expect(try reopened.secretStore().hasPrefix("file"))
        let key = try #require(Self.findKey(in: reopened))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, &error) != nil)
    }

    @Test func cryptoKitKeysAreMadeInTheTPM() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture()
        defer { home.remove() }
        let device = try home.open(.tcti(tpm.tcti))
        try device.setPasscode(Self.passcode)
        try Device.withCurrent(device) {
            let key = try SecureEnclave.P256.Signing.PrivateKey()
            let signature = try key.signature(for: Self.message)
            #expect(key.publicKey.isValidSignature(signature, for: Self.message))
            let agreement = try SecureEnclave.P256.KeyAgreement.PrivateKey()
            let peer = P256.KeyAgreement.PrivateKey()
            let ours = try agreement.sharedSecretFromKeyAgreement(with: peer.publicKey)
            let theirs = try peer.sharedSecretFromKeyAgreement(with: agreement.publicKey)
            #expect(ours == theirs)
            #expect(agreement.publicKey.compactRepresentation != nil)
        }
    }

    @Test func aCopyOfTheHomeCannotUseTheKeysOnAnotherTPM() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture()
        defer { home.remove() }
        do {
            let device = try home.open(.tcti(tpm.tcti))
            try device.setPasscode(Self.passcode)
            _ = try Device.withCurrent(device) { () throws -> SecKey in
                var error: Unmanaged<CFError>?
                return try #require(SecKeyCreateRandomKey(Self.keyParameters() as CFDictionary, &error))
            }
        }
        let stolen = TPMHomeFixture(directory: try home.copy())
        defer { stolen.remove() }
        let otherMachine = try SoftwareTPM()
        defer { withExtendedLifetime(otherMachine) {} }
        #expect(throws: KeychainDeviceError.self) { try stolen.open(.tcti(otherMachine.tcti)) }
        // On its own TPM, with the passcode, the copy's key still signs: the TPM is what it needs.
        let device = try stolen.open(.tcti(tpm.tcti))
        try device.unlock(passcode: Self.passcode)
        let key = try #require(Self.findKey(in: device))
        var error: Unmanaged<CFError>?
        #expect(SecKeyCreateSignature(key, .ecdsaSignatureMessageX962SHA256, Self.message as CFData, &error) != nil)
    }

    // MARK: Helpers

    /// The secret sealed in the key item tagged ``tag``, opened with the keychain's class keys.
    static func sealedSecret(of device: Device) throws -> Data {
        let referenceData = try Device.withCurrent(device) { () throws -> Data in
            var reference: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecAttrApplicationTag as String: tag,
                kSecReturnPersistentRef as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &reference) == errSecSuccess)
            return try #require(reference as? Data)
        }
        let engine = try #require(device.embedded)
        return try engine.keychain.storedSecretForTesting(of: try #require(PersistentReference(referenceData)))
    }
}
