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
public import Foundation
import Crypto
import KeychainCrypto

/// Retrieves the attributes of a key.
///
/// - Parameter key: The key.
/// - Returns: The key's attributes as Apple reports them for a software key: its class, type,
///   size, application label (the SHA-1 of its public key), what it can do, and its external
///   representation under `kSecValueData`.
@discardableResult
public func SecKeyCopyAttributes(_ key: SecKey) -> CFDictionary? {
    key.material.attributes as NSDictionary
}

extension KeyMaterial {
    /// `kSecAttrApplicationLabel`: the SHA-1 of the public key's external representation (X9.63,
    /// or PKCS #1 for RSA), the same for both halves of a pair (and what an identity's certificate
    /// is matched by).
    var applicationLabel: Data {
        Data(Insecure.SHA1.hash(data: publicKeyData))
    }

    /// The attribute dictionary of `SecKeyCopyAttributes` (Apple's `SecKeyCopyAttributeDictionary`
    /// for software EC keys, value for value).
    var attributes: [String: Any] {
        let bits = self.bits
        let isPrivate = self.isPrivate
        var attributes: [String: Any] = [
            kSecClass as String: kSecClassKey as String,
            kSecAttrKeyClass as String: (isPrivate ? kSecAttrKeyClassPrivate : kSecAttrKeyClassPublic) as String,
            kSecAttrApplicationLabel as String: applicationLabel,
            kSecAttrIsPermanent as String: true,
            "priv": true,
            "modi": true,
            kSecAttrKeyType as String: String(keyType),
            kSecAttrKeySizeInBits as String: bits,
            kSecAttrEffectiveKeySize as String: bits,
            kSecAttrIsSensitive as String: false,
            "asen": false,
            kSecAttrIsExtractable as String: true,
            "next": false,
            kSecAttrCanEncrypt as String: !isPrivate,
            kSecAttrCanDecrypt as String: isPrivate || keyType == 42,
            kSecAttrCanDerive as String: isPrivate && keyType == 73,
            kSecAttrCanSign as String: isPrivate,
            kSecAttrCanVerify as String: !isPrivate,
            "snrc": false,
            "vyrc": false,
            kSecAttrCanWrap as String: !isPrivate,
            kSecAttrCanUnwrap as String: isPrivate,
        ]
        if let externalRepresentation {
            attributes[kSecValueData as String] = externalRepresentation
        } else {
            // A Secure Enclave key: no data to hand out, and the token named.
            attributes[kSecAttrTokenID as String] = kSecAttrTokenIDSecureEnclave as String
            attributes[kSecAttrIsSensitive as String] = true
            attributes[kSecAttrIsExtractable as String] = false
        }
        return attributes
    }
}
#endif
