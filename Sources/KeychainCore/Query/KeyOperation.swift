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

package import Foundation

/// What the engine does with the private key of a token key item (Apple's Secure Enclave keys):
/// the key is made there and used there, and its private part never leaves the engine.
///
/// It rides on the item requests: an add that generates the key, a search for one item that
/// signs or agrees a secret with it and returns the result as the item's data. Access control
/// applies as to reading any item's secret, for the operation named.
///
/// The `…Wrapped` operations serve keys that are not items (CryptoKit's `SecureEnclave.P256`
/// keys): the engine seals the new private key into a blob the caller keeps, and later opens
/// that blob for one operation. The blob opens only with this keychain's keys, for the access
/// group it was made in, and only as its access control allows.
package enum KeyOperation: Sendable, Hashable, Codable {
    /// Generate the private key of a new token key item (an add).
    case generate
    /// Sign a digest with the item's private key (ECDSA, X9.62 DER).
    case sign(digest: Data)
    /// Agree a secret with a peer's public key (ECDH; the X coordinate of the shared point).
    case keyExchange(publicKey: Data)
    /// Generate a key and return it sealed as a blob, storing nothing (an add).
    case generateWrapped(compactRepresentable: Bool)
    /// Check a blob and return its public key; asks for no authentication (a search).
    case publicKeyOfWrapped(blob: Data)
    /// Sign a digest with a blob's private key (a search).
    case signWrapped(blob: Data, digest: Data)
    /// Agree a secret with a peer's public key using a blob's private key (a search).
    case keyExchangeWrapped(blob: Data, publicKey: Data)

    /// The operation an access control is evaluated for.
    package var accessOperation: AccessOperation {
        switch self {
        case .generate, .generateWrapped: .createKey
        case .sign, .signWrapped: .useKeySign
        case .keyExchange, .keyExchangeWrapped: .useKeyKeyExchange
        case .publicKeyOfWrapped: .useItem
        }
    }

    /// The attribute of a `.generateWrapped` result that holds the new key's public key (X9.63), so that
    /// making a key is one request.
    package static let generatedPublicKey = "@generatedPublicKey"

    /// Whether the operation is on a key sealed into a blob rather than on an item.
    package var isWrapped: Bool {
        switch self {
        case .generate, .sign, .keyExchange: false
        case .generateWrapped, .publicKeyOfWrapped, .signWrapped, .keyExchangeWrapped: true
        }
    }
}

/// The token identifiers of token key items (`kSecAttrTokenID`).
package enum TokenID {
    /// `kSecAttrTokenIDSecureEnclave`: keys the engine generates and never hands out.
    package static let secureEnclave = "com.apple.setoken"
}
