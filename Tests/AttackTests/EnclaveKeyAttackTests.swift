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
import KeychainContract
import KeychainServices
import KeychainTesting
import Testing

@testable import KeychainCore
@testable import KeychainDevice
@testable import KeychainEngine

/// A Secure Enclave key's private key stays in the engine: it is in no file in the clear, and in
/// nothing a client receives — the key object, its attributes, the item's data.
@Suite struct EnclaveKeyAttackTests {
    @Test func thePrivateKeyIsInNoFileAndInNoReply() throws {
        let keychain = try TemporaryKeychain()
        let access = try #require(
            SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [.privateKeyUsage], nil)
        )
        let parameters: [String: Any] = [
            kSecAttrKeyType as String: kSecAttrKeyTypeECSECPrimeRandom, kSecAttrKeySizeInBits as String: 256,
            kSecAttrTokenID as String: kSecAttrTokenIDSecureEnclave,
            kSecPrivateKeyAttrs as String: [
                kSecAttrIsPermanent as String: true, kSecAttrApplicationTag as String: Data("enclave".utf8),
                kSecAttrAccessControl as String: access,
            ],
        ]
        let (key, replies) = try keychain.run { () throws -> (SecKey, [Data]) in
            let key = try #require(SecKeyCreateRandomKey(parameters as CFDictionary, nil))
            var found: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassKey, kSecReturnData as String: true, kSecReturnAttributes as String: true,
                kSecReturnPersistentRef as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &found) == errSecSuccess)
            let item = try #require(found as? [String: Any])
            let archived = try NSKeyedArchiver.archivedData(
                withRootObject: item.filter { !($0.value is SecAccessControl) },
                requiringSecureCoding: false
            )
            return (key, [archived, Data(key.description.utf8), Data("\(SecKeyCopyAttributes(key) as Any)".utf8)])
        }
        // The engine's own copy, through its test accessor on a second opening of the files (the
        // test's engine may be behind the wire format): the private key as stored.
        var query: [String: Any] = [kSecClass as String: kSecClassKey, kSecReturnPersistentRef as String: true]
        query[kSecValueRef as String] = key
        let referenceData = try keychain.run { () throws -> Data in
            var reference: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &reference) == errSecSuccess)
            return try #require(reference as? Data)
        }
        let engine = try Keychain(directory: keychain.directory, accessGroups: AccessGroups(["*"]))
        let stored = try engine.storedSecretForTesting(of: try #require(PersistentReference(referenceData)))
        #expect(stored.count == 97)
        #expect(
            stored.prefix(65) == SecKeyCopyExternalRepresentation(try #require(SecKeyCopyPublicKey(key)), nil) as Data?
        )
        let scalar = stored.suffix(32)

        for file in try FileManager.default.contentsOfDirectory(at: keychain.directory, includingPropertiesForKeys: nil)
        {
            #expect(try Data(contentsOf: file).range(of: scalar) == nil, "\(file.lastPathComponent)")
        }
        for reply in replies {
            #expect(reply.range(of: scalar) == nil)
            let hex = scalar.map { String(format: "%02x", $0) }.joined()
            #expect(!String(decoding: reply, as: UTF8.self).contains(hex))
        }
        // What the program holds is the public key and a reference, nothing more.
        let mirror = String(reflecting: key)
        #expect(!mirror.contains(scalar.map { String(format: "%02x", $0) }.joined()))
    }
}
