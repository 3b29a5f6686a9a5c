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
import KeychainCore
import KeychainCrypto
import KeychainDevice

/// Items given and returned as objects: `kSecValueRef` and `kSecReturnRef` for keys and
/// certificates, as Apple's client turns them into attributes and data before a call leaves the
/// process (`SecItemAdd` with a reference stores the object's data and the attributes it implies;
/// a search with one finds that item) and back into objects after.
enum SecItemReference {
    /// The key attributes an item added by reference takes from its `SecKey` (what
    /// `SecKeyCopyAttributes` reports that the key class stores); attributes the caller gave win.
    private static let keyAttributes = [
        "kcls", "klbl", "type", "bsiz", "esiz", "perm", "sens", "extr", "encr", "decr", "drve", "sign", "vrfy", "wrap",
        "unwp",
    ]

    /// Replaces a query's `kSecValueRef` by what it stands for.
    static func expand(_ values: inout [String: Any], for operation: KeychainOperation) throws(KeychainError) {
        guard let reference = values[QueryKey.valueReference] else { return }
        values[QueryKey.valueReference] = nil
        switch reference {
        case let key as SecKey:
            try setClass(.key, in: &values)
            let attributes = key.material.attributes
            if operation == .add {
                guard let data = key.material.externalRepresentation else {
                    if case .enclave(let enclaveKey) = key.material, case .blob = enclaveKey.location {
                        throw KeychainError(
                            .unimplemented,
                            "an ephemeral Secure Enclave key cannot be stored on Linux; make it with kSecAttrIsPermanent"
                        )
                    }
                    // A permanent Secure Enclave key is stored from the moment it is made.
                    throw KeychainError(.duplicateItem, "the Secure Enclave key is in the keychain already")
                }
                for code in keyAttributes where values[code] == nil {
                    values[code] = attributes[code]
                }
                values[QueryKey.valueData] = data
            } else {
                values[kSecAttrApplicationLabel as String] = key.material.applicationLabel
                values[kSecAttrKeyClass as String] = attributes[kSecAttrKeyClass as String]
            }
        case let certificate as SecCertificate:
            try setClass(.certificate, in: &values)
            if operation == .add {
                values[QueryKey.valueData] = certificate.der
            } else {
                let derived = try CertificateAttributes.attributes(ofDER: certificate.der)
                for code in ["issr", "slnr"] {
                    values[code] = derived[code]?.foundationValue
                }
            }
        default:
            throw KeychainError(.invalidParameter, "kSecValueRef must be a certificate, key or identity reference")
        }
    }

    /// The object `kSecReturnRef` gives for an item: a `SecKey` for a key, a `SecCertificate` for
    /// a certificate; `nil` for passwords, which have no object type.
    ///
    /// A Secure Enclave key's operations use `device`'s engine and `context`, the call's
    /// `LAContext`.
    static func object(
        for item: ItemResult,
        device: Device,
        context: (any AuthenticationContextProviding)?
    ) -> AnyObject? {
        guard let data = item.data else { return nil }
        switch item.itemClass {
        case .key where item.attributes[QueryKey.tokenID] == .string(TokenID.secureEnclave):
            return (try? StoredEnclaveKey.key(for: item, device: device, context: context)).map { SecKey(.enclave($0)) }
        case .key:
            guard case .number(let keyClass)? = item.attributes[kSecAttrKeyClass as String] else { return nil }
            let isRSA = item.attributes[kSecAttrKeyType as String] == .number(42)
            switch (keyClass, isRSA) {
            case (0, false): return (try? ECPublicKey(x963Representation: data)).map { SecKey(.ecPublic($0)) }
            case (1, false): return (try? ECPrivateKey(x963Representation: data)).map { SecKey(.ecPrivate($0)) }
            case (0, true): return (try? RSAPublicKey(derRepresentation: data)).map { SecKey(.rsaPublic($0)) }
            case (1, true): return (try? RSAPrivateKey(derRepresentation: data)).map { SecKey(.rsaPrivate($0)) }
            default: return nil
            }
        case .certificate:
            return SecCertificateCreateWithData(nil, data as NSData)
        case .genericPassword, .internetPassword, .identity:
            return nil
        }
    }

    /// Sets `kSecClass` to the reference's class; another class given with it is `errSecParam`.
    private static func setClass(_ itemClass: ItemClass, in values: inout [String: Any]) throws(KeychainError) {
        if let given = values[QueryKey.itemClass] {
            guard (given as? String) == itemClass.rawValue else {
                throw KeychainError(.invalidParameter, "kSecValueRef is not of the class kSecClass names")
            }
        }
        values[QueryKey.itemClass] = itemClass.rawValue
    }
}
#endif
