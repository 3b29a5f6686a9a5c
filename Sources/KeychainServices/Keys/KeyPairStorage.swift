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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import Security
#else
import Foundation

/// Adds a new key pair's permanent halves to the keychain, as `SecKeyCreateRandomKey` does:
/// each half takes the top-level attributes overlaid with its own dictionary
/// (`kSecPrivateKeyAttrs`, `kSecPublicKeyAttrs`), and is stored when `kSecAttrIsPermanent` is true
/// there.
struct KeyPairStorage {
    /// Generation parameters that are not attributes of the stored items.
    private static let generationOnly: Set<String> = [
        kSecAttrKeyType as String, kSecAttrKeySizeInBits as String, kSecPrivateKeyAttrs as String,
        kSecPublicKeyAttrs as String, kSecAttrTokenID as String,
    ]

    /// The attributes of the private half's item, and of the public half's.
    let privateAttributes: [String: Any]
    let publicAttributes: [String: Any]

    init(_ parameters: KeyParameters) {
        let common = parameters.values.filter { !Self.generationOnly.contains($0.key) }
        func merged(_ key: CFString) -> [String: Any] {
            let own = parameters.values[key as String] as? [String: Any] ?? [:]
            return common.merging(own) { _, own in own }
        }
        privateAttributes = merged(kSecPrivateKeyAttrs)
        publicAttributes = merged(kSecPublicKeyAttrs)
    }

    /// Whether the private half is to be stored.
    var isPrivateKeyPermanent: Bool {
        Self.isPermanent(privateAttributes)
    }

    /// Adds the public half of a Secure Enclave key when it is marked permanent; if it cannot be
    /// added, the private half (already stored by the engine) is removed again.
    func store(publicKey: SecKey, after privateKey: SecKey) throws(SecKeyError) {
        guard Self.isPermanent(publicAttributes) else { return }
        var item = publicAttributes
        item[kSecClass as String] = kSecClassKey as String
        item[kSecValueRef as String] = publicKey
        let status = SecItemAdd(item as CFDictionary, nil)
        guard status == errSecSuccess else {
            SecItemDelete(Self.identity(of: privateKey, privateAttributes) as CFDictionary)
            throw SecKeyError(
                status,
                "SecKeyCreateRandomKey: the public key could not be added to the keychain (\(status))"
            )
        }
    }

    /// Adds the halves marked permanent; if the second cannot be added, the first is removed again.
    func store(privateKey: SecKey, publicKey: SecKey) throws(SecKeyError) {
        var added: [[String: Any]] = []
        for (key, attributes) in [(privateKey, privateAttributes), (publicKey, publicAttributes)]
        where Self.isPermanent(attributes) {
            var item = attributes
            item[kSecClass as String] = kSecClassKey as String
            item[kSecValueRef as String] = key
            let status = SecItemAdd(item as CFDictionary, nil)
            guard status == errSecSuccess else {
                for earlier in added { SecItemDelete(earlier as CFDictionary) }
                throw SecKeyError(
                    status,
                    "SecKeyCreateRandomKey: the key could not be added to the keychain (\(status))"
                )
            }
            added.append(Self.identity(of: key, attributes))
        }
    }

    private static func isPermanent(_ attributes: [String: Any]) -> Bool {
        let flag = attributes[kSecAttrIsPermanent as String]
        return (flag as? Bool) ?? (flag as? NSNumber)?.boolValue ?? false
    }

    /// A query that finds exactly the item just added for `key`.
    private static func identity(of key: SecKey, _ attributes: [String: Any]) -> [String: Any] {
        var query: [String: Any] = [kSecValueRef as String: key]
        for name in [kSecAttrAccessGroup, kSecAttrSynchronizable, kSecUseAuthenticationContext] {
            query[name as String] = attributes[name as String]
        }
        return query
    }
}
#endif
