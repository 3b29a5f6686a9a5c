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

/// Hostile bytes given to the key and certificate functions end in `nil` or an error, never a
/// crash: mutated keys, certificates, signatures and ciphertexts, and made-up algorithm names.
@Suite struct HostileKeyInputTests {
    static func mutations(of data: Data, count: Int) -> [Data] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { round in
            var bytes = [UInt8](data)
            switch round % 4 {
            case 0:
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
            case 1: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
            case 2:
                bytes += (0..<Int.random(in: 1...64, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            default:
                bytes = (0..<Int.random(in: 0...200, using: &generator)).map { _ in
                    UInt8.random(in: 0...255, using: &generator)
                }
            }
            return Data(bytes)
        }
    }

    @Test func mutatedKeysCertificatesAndCiphertextsNeverCrash() throws {
        let ecKey = try SecKeyTestSupport.makePrivateKey()
        let ecPublic = try #require(SecKeyCopyPublicKey(ecKey))
        let rsaKey = try SecKeyRSATests.makeKey(bits: 1024)
        for (key, type) in [(ecKey, kSecAttrKeyTypeECSECPrimeRandom), (rsaKey, kSecAttrKeyTypeRSA)] {
            let data = try SecKeyTestSupport.externalRepresentation(key)
            for bytes in Self.mutations(of: data, count: 300) {
                for keyClass in [kSecAttrKeyClassPrivate, kSecAttrKeyClassPublic] {
                    let made = SecKeyCreateWithData(
                        bytes as CFData,
                        [kSecAttrKeyType: type, kSecAttrKeyClass: keyClass] as CFDictionary,
                        nil
                    )
                    if let made { _ = SecKeyCopyAttributes(made) }
                }
            }
        }
        let message = Data("message".utf8) as CFData
        let signature = try #require(
            SecKeyCreateSignature(ecKey, .ecdsaSignatureMessageX962SHA256, message, nil) as Data?
        )
        for bytes in Self.mutations(of: signature, count: 500) {
            _ = SecKeyVerifySignature(ecPublic, .ecdsaSignatureMessageX962SHA256, message, bytes as CFData, nil)
            _ = SecKeyVerifySignature(ecPublic, .ecdsaSignatureMessageRFC4754SHA256, message, bytes as CFData, nil)
        }
        let sealed = try #require(
            SecKeyCreateEncryptedData(ecPublic, .eciesEncryptionCofactorVariableIVX963SHA256AESGCM, message, nil)
                as Data?
        )
        for bytes in Self.mutations(of: sealed, count: 500) {
            #expect(
                SecKeyCreateDecryptedData(
                    ecKey,
                    .eciesEncryptionCofactorVariableIVX963SHA256AESGCM,
                    bytes as CFData,
                    nil
                ) == nil || bytes == sealed
            )
        }
        for bytes in Self.mutations(of: Data("algid:encrypt:ECIES:ECDHC:KDFX963:SHA256:AESGCM-KDFIV".utf8), count: 300)
        {
            let algorithm = SecKeyAlgorithm(rawValue: String(decoding: bytes, as: UTF8.self) as CFString)
            _ = SecKeyIsAlgorithmSupported(ecKey, .decrypt, algorithm)
            _ = SecKeyCreateSignature(ecKey, algorithm, message, nil)
        }
        let (der, _) = try CertificateItemTests.makeCertificate(commonName: "Hostile", serial: [1, 2, 3])
        for bytes in Self.mutations(of: der, count: 1_000) {
            guard let certificate = SecCertificateCreateWithData(nil, bytes as CFData) else { continue }
            var name: CFString?
            var addresses: CFArray?
            _ = SecCertificateCopySubjectSummary(certificate)
            SecCertificateCopyCommonName(certificate, &name)
            SecCertificateCopyEmailAddresses(certificate, &addresses)
            _ = SecCertificateCopyKey(certificate)
            _ = SecCertificateCopyNormalizedIssuerSequence(certificate)
            _ = SecCertificateCopySerialNumberData(certificate, nil)
        }
    }
}
