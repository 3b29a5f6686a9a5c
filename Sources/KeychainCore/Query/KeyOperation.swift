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
package enum KeyOperation: Sendable, Hashable, Codable {
    /// Generate the private key of a new token key item (an add).
    case generate
    /// Sign a digest with the item's private key (ECDSA, X9.62 DER).
    case sign(digest: Data)
    /// Agree a secret with a peer's public key (ECDH; the X coordinate of the shared point).
    case keyExchange(publicKey: Data)

    /// The operation an access control is evaluated for.
    package var accessOperation: AccessOperation {
        switch self {
        case .generate: .createKey
        case .sign: .useKeySign
        case .keyExchange: .useKeyKeyExchange
        }
    }
}

/// The token identifiers of token key items (`kSecAttrTokenID`).
package enum TokenID {
    /// `kSecAttrTokenIDSecureEnclave`: keys the engine generates and never hands out.
    package static let secureEnclave = "com.apple.setoken"
}
