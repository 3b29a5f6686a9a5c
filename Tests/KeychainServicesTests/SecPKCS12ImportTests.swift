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

import Foundation
import KeychainServices
import KeychainTesting
import Testing

/// `SecPKCS12Import` on files OpenSSL's command line writes and on Apple's own test files: the
/// identity and its chain; a wrong password, damage and the older encryption schemes refused with
/// Apple's codes.
@Suite struct SecPKCS12ImportTests {
    /// A folder with a key, its self-signed certificate, a second certificate, and `id.p12`
    /// exported with `extra` options and the password "secret".
    static func makeFile(key: [String], extra: [String] = []) throws -> (folder: URL, data: Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("p12-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = { (name: String) in folder.appendingPathComponent(name).path }
        try SecKeyRSATests.openssl(
            ["req", "-x509"] + key + [
                "-keyout", path("key.pem"), "-out", path("cert.pem"), "-days", "2", "-nodes", "-subj", "/CN=P12 Test",
            ]
        )
        try SecKeyRSATests.openssl(
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-keyout", path("ca-key.pem"),
                "-out", path("ca.pem"),
                "-days", "2", "-nodes", "-subj", "/CN=P12 Other",
            ]
        )
        try SecKeyRSATests.openssl(
            [
                "pkcs12", "-export", "-inkey", path("key.pem"), "-in", path("cert.pem"), "-certfile", path("ca.pem"),
                "-name", "P12 Test",
                "-passout", "pass:secret", "-out", path("id.p12"),
            ] + extra
        )
        return (folder, try Data(contentsOf: URL(fileURLWithPath: path("id.p12"))))
    }

    static func importItems(_ data: Data, password: String?) -> (OSStatus, [[String: Any]]) {
        var items: CFArray?
        let options: [String: Any] = password.map { [kSecImportExportPassphrase as String: $0] } ?? [:]
        let status = SecPKCS12Import(data as CFData, options as CFDictionary, &items)
        return (status, (items as? [[String: Any]]) ?? [])
    }

    @Test(arguments: [
        ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
        ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"],
        ["-newkey", "rsa:2048"],
    ])
    func anOpenSSLFileGivesItsIdentityAndChain(key: [String]) throws {
        let (folder, data) = try Self.makeFile(key: key)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, items) = Self.importItems(data, password: "secret")
        #expect(status == errSecSuccess)
        let item = try #require(items.first)
        #expect(items.count == 1)
        // As on iOS: the identity and its chain, no label or key ID.
        #expect(item[kSecImportItemLabel as String] == nil)
        #expect(item[kSecImportItemKeyID as String] == nil)
        let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
        let chain = try #require(item[kSecImportItemCertChain as String] as? [SecCertificate])
        #expect(chain.count == 2)
        // And, as on iOS, a trust of the chain: a self-signed leaf is not trusted.
        let trust = try #require(item[kSecImportItemTrust as String] as? SecTrust)
        var trustError: CFError?
        #expect(!SecTrustEvaluateWithError(trust, &trustError))
        #expect(trustError.map { CFErrorGetCode($0) } == Int(errSecNotTrusted))
        var certificate: SecCertificate?
        var privateKey: SecKey?
        SecIdentityCopyCertificate(identity, &certificate)
        SecIdentityCopyPrivateKey(identity, &privateKey)
        #expect(chain.first == certificate)
        let leaf = try #require(certificate)
        #expect(SecCertificateCopySubjectSummary(leaf) as String? == "P12 Test")
        let pem = try String(contentsOfFile: folder.appendingPathComponent("cert.pem").path, encoding: .utf8)
        let base64 = pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        #expect(SecCertificateCopyData(leaf) as Data == Data(base64Encoded: base64))

        // The key is the certificate's: what it signs, the certificate's key verifies.
        let key = try #require(privateKey)
        let algorithm: SecKeyAlgorithm =
            key.description.contains("RSA") ? .rsaSignatureMessagePKCS1v15SHA256 : .ecdsaSignatureMessageX962SHA256
        let message = Data("imported".utf8) as CFData
        let signature = try #require(SecKeyCreateSignature(key, algorithm, message, nil))
        #expect(SecKeyVerifySignature(try #require(SecCertificateCopyKey(leaf)), algorithm, message, signature, nil))

        // Nothing was added to the keychain; adding the identity stores it.
        let keychain = try TemporaryKeychain()
        keychain.run {
            #expect(
                SecItemCopyMatching([kSecClass as String: kSecClassIdentity] as CFDictionary, nil) == errSecItemNotFound
            )
            #expect(SecItemAdd([kSecValueRef as String: identity] as CFDictionary, nil) == errSecSuccess)
            var found: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassIdentity, kSecAttrLabel as String: "P12 Test",
                kSecReturnRef as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            #expect(found as? SecIdentity == identity)
        }
    }

    @Test func aWrongPasswordDamageAndOldSchemesAreRefused() throws {
        let (folder, data) = try Self.makeFile(key: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(Self.importItems(data, password: "wrong").0 == errSecAuthFailed)
        #expect(Self.importItems(data, password: nil).0 == errSecAuthFailed)
        #expect(Self.importItems(data.prefix(data.count / 2), password: "secret").0 == errSecDecode)
        #expect(Self.importItems(Data("not a PKCS #12 file".utf8), password: "secret").0 == errSecDecode)
        #expect(Self.importItems(Data(), password: "secret").0 == errSecDecode)
        var flipped = data
        flipped[flipped.count / 2] ^= 0x01
        #expect([errSecAuthFailed, errSecDecode].contains(Self.importItems(flipped, password: "secret").0))

        let (legacyFolder, legacy) = try Self.makeFile(
            key: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"],
            extra: ["-certpbe", "PBE-SHA1-3DES", "-keypbe", "PBE-SHA1-3DES", "-macalg", "sha1"]
        )
        defer { try? FileManager.default.removeItem(at: legacyFolder) }
        #expect(Self.importItems(legacy, password: "secret").0 == errSecUnimplemented)
        #expect(Self.importItems(legacy, password: "wrong").0 == errSecAuthFailed)
    }

    /// Hostile bytes end in a status, never a crash: a valid file with bytes flipped, cut or
    /// repeated, 2,000 times.
    @Test func mutatedFilesNeverCrash() throws {
        let (folder, data) = try Self.makeFile(key: ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"])
        defer { try? FileManager.default.removeItem(at: folder) }
        var generator = SystemRandomNumberGenerator()
        let allowed: Set<OSStatus> = [errSecSuccess, errSecAuthFailed, errSecDecode, errSecUnimplemented]
        for round in 0..<2_000 {
            var mutated = [UInt8](data)
            switch round % 3 {
            case 0:
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    mutated[Int.random(in: 0..<mutated.count, using: &generator)] = UInt8.random(
                        in: 0...255,
                        using: &generator
                    )
                }
            case 1:
                mutated = Array(mutated.prefix(Int.random(in: 0..<mutated.count, using: &generator)))
            default:
                let start = Int.random(in: 0..<mutated.count, using: &generator)
                mutated.insert(contentsOf: mutated[start..<min(mutated.count, start + 40)], at: start)
            }
            let status = Self.importItems(Data(mutated), password: "secret").0
            #expect(allowed.contains(status), "round \(round): \(status)")
        }
    }

    struct AppleVectors: Decodable {
        struct Vector: Decodable {
            var name: String
            var password: String?
            var status: Int32
            var identities: Int
            var data: String
        }
        var vectors: [Vector]
    }

    @Test func applesTestFilesImportAsOnIOS() throws {
        let url = try #require(
            Bundle.module.url(forResource: "pkcs12-apple", withExtension: "json", subdirectory: "Vectors")
        )
        let file = try JSONDecoder().decode(AppleVectors.self, from: Data(contentsOf: url))
        for vector in file.vectors {
            let data = try #require(Data(base64Encoded: vector.data))
            let (status, items) = Self.importItems(data, password: vector.password)
            #expect(status == vector.status, "\(vector.name)")
            #expect(items.count == vector.identities, "\(vector.name)")
            for item in items {
                let identity = try #require(item[kSecImportItemIdentity as String] as? SecIdentity)
                var key: SecKey?
                SecIdentityCopyPrivateKey(identity, &key)
                #expect(key.map { SecKeyGetBlockSize($0) } == 256, "\(vector.name)")
            }
        }
    }
}
