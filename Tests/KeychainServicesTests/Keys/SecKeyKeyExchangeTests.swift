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
import Testing

/// `SecKeyCopyKeyExchangeResult`: both parties reach swift-crypto's shared secret, the X9.63
/// variants derive what swift-crypto derives, and bad parameters are refused.
@Suite struct SecKeyKeyExchangeTests {
    @Test(arguments: [256, 384, 521])
    func bothPartiesAgreeWithSwiftCrypto(bits: Int) throws {
        let alice = try SecKeyTestSupport.makePrivateKey(bits: bits)
        let bob = try SecKeyTestSupport.makePrivateKey(bits: bits)
        let alicePublic = try #require(SecKeyCopyPublicKey(alice))
        let bobPublic = try #require(SecKeyCopyPublicKey(bob))
        let empty = [String: Any]() as CFDictionary
        let fromAlice = try #require(
            SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandard, bobPublic, empty, nil) as Data?
        )
        let fromBob = try #require(
            SecKeyCopyKeyExchangeResult(bob, .ecdhKeyExchangeCofactor, alicePublic, empty, nil) as Data?
        )
        #expect(fromAlice == fromBob)
        #expect(fromAlice.count == SecKeyGetBlockSize(alice))

        if bits == 256 {
            let scalar = try SecKeyTestSupport.externalRepresentation(alice).suffix(32)
            let secret = try P256.KeyAgreement.PrivateKey(rawRepresentation: scalar)
                .sharedSecretFromKeyAgreement(
                    with: .init(x963Representation: SecKeyTestSupport.externalRepresentation(bobPublic))
                )
            #expect(secret.withUnsafeBytes { Data($0) } == fromAlice)

            // si-41-sececkey's derivation: 273 bytes with shared information.
            let sharedInfo = Data("sharedInput".utf8)
            let parameters =
                [
                    kSecKeyKeyExchangeParameterRequestedSize as String: 273,
                    kSecKeyKeyExchangeParameterSharedInfo as String: sharedInfo,
                ] as CFDictionary
            let derived = try #require(
                SecKeyCopyKeyExchangeResult(alice, .ecdhKeyExchangeStandardX963SHA256, bobPublic, parameters, nil)
                    as Data?
            )
            let expected = secret.x963DerivedSymmetricKey(
                using: SHA256.self,
                sharedInfo: sharedInfo,
                outputByteCount: 273
            )
            #expect(derived == expected.withUnsafeBytes { Data($0) })
            #expect(
                SecKeyCopyKeyExchangeResult(bob, .ecdhKeyExchangeCofactorX963SHA256, alicePublic, parameters, nil)
                    as Data? == derived
            )
        }
    }

    @Test func badParametersAndKeysAreRefused() throws {
        let alice = try SecKeyTestSupport.makePrivateKey()
        let bob = try SecKeyTestSupport.makePrivateKey()
        let bobPublic = try #require(SecKeyCopyPublicKey(bob))
        let otherCurve = try #require(SecKeyCopyPublicKey(try SecKeyTestSupport.makePrivateKey(bits: 384)))
        let cases: [(SecKey, SecKeyAlgorithm, SecKey, [String: Any], Int)] = [
            (alice, .ecdhKeyExchangeStandardX963SHA256, bobPublic, [:], Int(errSecParam)),
            (
                alice, .ecdhKeyExchangeStandardX963SHA256, bobPublic,
                [kSecKeyKeyExchangeParameterRequestedSize as String: "32"], Int(errSecParam)
            ),
            (
                alice, .ecdhKeyExchangeStandardX963SHA256, bobPublic,
                [kSecKeyKeyExchangeParameterRequestedSize as String: 1 << 40], Int(errSecParam)
            ),
            (
                alice, .ecdhKeyExchangeStandardX963SHA256, bobPublic,
                [
                    kSecKeyKeyExchangeParameterRequestedSize as String: 32,
                    kSecKeyKeyExchangeParameterSharedInfo as String: "text",
                ],
                Int(errSecParam)
            ),
            (bobPublic, .ecdhKeyExchangeStandard, bobPublic, [:], Int(errSecParam)),
            (alice, .ecdhKeyExchangeStandard, bob, [:], Int(errSecParam)),
            (alice, .ecdsaSignatureMessageX962SHA256, bobPublic, [:], Int(errSecParam)),
            (alice, .ecdhKeyExchangeStandard, otherCurve, [:], Int(errSecDecode)),
        ]
        for (key, algorithm, peer, parameters, code) in cases {
            let outcome = SecKeyTestSupport.capture {
                SecKeyCopyKeyExchangeResult(key, algorithm, peer, parameters as CFDictionary, $0)
            }
            #expect(outcome.result == nil)
            #expect(outcome.code == code, "\(algorithm.rawValue) \(parameters)")
        }
    }
}
