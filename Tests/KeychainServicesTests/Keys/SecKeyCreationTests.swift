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

/// `SecKeyCreateRandomKey`, `SecKeyCreateWithData`, `SecKeyCopyPublicKey`,
/// `SecKeyCopyExternalRepresentation`, `SecKeyCopyAttributes`: what Apple's software keys give
/// (si-41-sececkey, si-44-seckey-ec), and the refusals with Apple's codes.
@Suite struct SecKeyCreationTests {
    @Test(arguments: [(256, 32), (384, 48), (521, 66)])
    func aGeneratedKeyExportsInX963AndComesBackEqual(bits: Int, coordinate: Int) throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey(bits: bits)
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let privateData = try SecKeyTestSupport.externalRepresentation(privateKey)
        let publicData = try SecKeyTestSupport.externalRepresentation(publicKey)
        #expect(privateData.count == 3 * coordinate + 1)
        #expect(publicData.count == 2 * coordinate + 1)
        #expect(privateData.prefix(publicData.count) == publicData)
        #expect(publicData.first == 0x04)
        #expect(SecKeyGetBlockSize(privateKey) == coordinate)
        #expect(SecKeyGetBlockSize(publicKey) == coordinate)

        let restoredPrivate = SecKeyCreateWithData(
            privateData as CFData,
            [kSecAttrKeyType: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass: kSecAttrKeyClassPrivate]
                as CFDictionary,
            nil
        )
        let restoredPublic = SecKeyCreateWithData(
            publicData as CFData,
            [kSecAttrKeyType: kSecAttrKeyTypeEC, kSecAttrKeyClass: kSecAttrKeyClassPublic] as CFDictionary,
            nil
        )
        #expect(restoredPrivate == privateKey)
        #expect(restoredPublic == publicKey)
        #expect(restoredPublic != privateKey)
        #expect(SecKeyCopyPublicKey(publicKey) == publicKey)
    }

    @Test func theExportedPublicKeyIsSwiftCryptosPublicKey() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let privateData = try SecKeyTestSupport.externalRepresentation(privateKey)
        let scalar = privateData.suffix(32)
        let cryptoKey = try P256.Signing.PrivateKey(rawRepresentation: scalar)
        #expect(cryptoKey.publicKey.x963Representation == privateData.prefix(65))
    }

    @Test func twoGeneratedKeysDiffer() throws {
        let first = try SecKeyTestSupport.makePrivateKey()
        let second = try SecKeyTestSupport.makePrivateKey()
        #expect(first != second)
        #expect(try SecKeyTestSupport.externalRepresentation(first) != SecKeyTestSupport.externalRepresentation(second))
    }

    @Test func attributesAreApplesForASoftwareKey() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let publicKey = try #require(SecKeyCopyPublicKey(privateKey))
        let privateAttributes = try #require(SecKeyCopyAttributes(privateKey) as? [String: Any])
        let publicAttributes = try #require(SecKeyCopyAttributes(publicKey) as? [String: Any])
        let publicData = try SecKeyTestSupport.externalRepresentation(publicKey)
        let label = Data(Insecure.SHA1.hash(data: publicData))

        #expect(privateAttributes[kSecClass as String] as? String == kSecClassKey as String)
        #expect(privateAttributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPrivate as String)
        #expect(publicAttributes[kSecAttrKeyClass as String] as? String == kSecAttrKeyClassPublic as String)
        #expect(privateAttributes[kSecAttrKeyType as String] as? String == "73")
        #expect(privateAttributes[kSecAttrKeySizeInBits as String] as? Int == 256)
        #expect(privateAttributes[kSecAttrEffectiveKeySize as String] as? Int == 256)
        #expect(privateAttributes[kSecAttrApplicationLabel as String] as? Data == label)
        #expect(publicAttributes[kSecAttrApplicationLabel as String] as? Data == label)
        #expect(
            privateAttributes[kSecValueData as String] as? Data == SecKeyCopyExternalRepresentation(privateKey, nil)
                as Data?
        )
        #expect(publicAttributes[kSecValueData as String] as? Data == publicData)
        // si-41-sececkey's testcopyattributes: a private key derives, a public one does not.
        #expect(privateAttributes[kSecAttrCanDerive as String] as? Bool == true)
        #expect(publicAttributes[kSecAttrCanDerive as String] as? Bool == false)
        #expect(privateAttributes[kSecAttrCanSign as String] as? Bool == true)
        #expect(privateAttributes[kSecAttrCanVerify as String] as? Bool == false)
        #expect(publicAttributes[kSecAttrCanVerify as String] as? Bool == true)
        #expect(publicAttributes[kSecAttrCanEncrypt as String] as? Bool == true)
        #expect(privateAttributes[kSecAttrCanDecrypt as String] as? Bool == true)
        #expect(privateAttributes[kSecAttrIsPermanent as String] as? Bool == true)
        #expect(privateAttributes[kSecAttrTokenID as String] == nil)
    }

    @Test func theDescriptionNeverShowsThePrivateScalar() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let scalar = try SecKeyTestSupport.externalRepresentation(privateKey).suffix(32)
        let hex = scalar.map { String(format: "%02x", $0) }.joined()
        #expect(!privateKey.description.contains(hex))
        #expect(!"\(privateKey)".contains(hex))
        #expect(privateKey.description.contains("ECPrivateKey"))
    }

    @Test func generationRefusesWhatAppleRefuses() {
        let cases: [([String: Any], Int)] = [
            ([kSecAttrKeySizeInBits as String: 256], Int(errSecParam)),
            ([kSecAttrKeyType as String: 73, kSecAttrKeySizeInBits as String: 256], Int(errSecParam)),
            ([kSecAttrKeyType as String: "99", kSecAttrKeySizeInBits as String: 256], Int(errSecParam)),
            ([kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom], Int(errSecParam)),
            (
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 255],
                Int(errSecParam)
            ),
            (
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: "abc"],
                Int(errSecParam)
            ),
            (
                [kSecAttrKeyType as String: kSecAttrKeyTypeRSA, kSecAttrKeySizeInBits as String: 768],
                Int(errSecUnimplemented)
            ),
            // (A Secure Enclave key that is not stored is made by the keychain's engine: SecureEnclaveKeyTests, in a
            // throw-away keychain. One on another curve is refused before any keychain is opened.)
            (
                [
                    kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 384,
                    kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
                ],
                Int(errSecParam)
            ),
        ]
        for (parameters, code) in cases {
            let outcome = SecKeyTestSupport.capture { SecKeyCreateRandomKey(parameters as CFDictionary, $0) }
            #expect(outcome.result == nil)
            #expect(outcome.code == code, "\(parameters)")
        }
        // A size given as a string of digits is a size.
        let sized = SecKeyCreateRandomKey(
            [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: "384"]
                as CFDictionary,
            nil
        )
        #expect(sized.map(SecKeyGetBlockSize) == 48)
    }

    @Test func dataThatIsNotAKeyOfThatClassIsRefused() throws {
        let privateKey = try SecKeyTestSupport.makePrivateKey()
        let privateData = try SecKeyTestSupport.externalRepresentation(privateKey)
        let publicData = privateData.prefix(65)
        var offCurve = Data(publicData)
        offCurve[64] ^= 0x01
        var mismatched = Data(privateData)
        mismatched[96] ^= 0x01
        var compressed = Data([0x02 | (publicData[64] & 1)])
        compressed.append(publicData[1..<33])
        let publicClass: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPublic,
        ]
        let privateClass: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom,
            kSecAttrKeyClass as String: kSecAttrKeyClassPrivate,
        ]
        let cases: [(Data, [String: Any])] = [
            (privateData, publicClass),
            (Data(publicData), privateClass),
            (offCurve, publicClass),
            (mismatched, privateClass),
            (compressed, publicClass),
            (Data(), publicClass),
            (Data(repeating: 0, count: 65), publicClass),
            (Data(publicData), [kSecAttrKeyClass as String: kSecAttrKeyClassPublic]),
            (Data(publicData), [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom]),
            (
                Data(publicData),
                [kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeyClass as String: "7"]
            ),
        ]
        for (data, attributes) in cases {
            let outcome = SecKeyTestSupport.capture {
                SecKeyCreateWithData(data as CFData, attributes as CFDictionary, $0)
            }
            #expect(outcome.result == nil)
            #expect(outcome.code == Int(errSecParam))
        }
        // The key type and class may be numbers; a size that disagrees with the data is ignored, as Apple ignores it.
        let numeric = SecKeyCreateWithData(
            Data(publicData) as CFData,
            [kSecAttrKeyType as String: 73, kSecAttrKeyClass as String: 0, kSecAttrKeySizeInBits as String: 384]
                as CFDictionary,
            nil
        )
        #expect(numeric.map(SecKeyGetBlockSize) == 32)
    }

    @Test func typeIdentifiersTellKeysFromOtherObjects() throws {
        let key: CFTypeRef = try SecKeyTestSupport.makePrivateKey()
        #expect(CFGetTypeID(key) == SecKeyGetTypeID())
        #expect(CFGetTypeID("text" as CFString) != SecKeyGetTypeID())
        #expect(CFGetTypeID(Data() as CFData) == CFDataGetTypeID())
        let asKey = key as! SecKey
        #expect(SecKeyGetBlockSize(asKey) == 32)
    }
}
