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
import KeychainCore

/// A Secure Enclave key made in the keychain's TPM, as its item or CryptoKit blob keeps it in
/// place of a private key: a random authorization value of the TPM key, and the key as the TPM
/// wrapped it.
///
/// Both are sealed like any private key — by the class key and the constraint keys the access
/// control names — so using the key needs the TPM *and* what the access control releases: the
/// machine alone is not enough, and a copy of the keychain on another machine has no TPM that
/// loads the key.
struct HardwareEnclaveKey {
    /// Marks the sealed bytes of a TPM key (a software key's are an X9.63 private key, `04…`).
    private static let magic = Array("SWKCTPMK".utf8)
    private static let authorizationSize = 32

    let authorization: [UInt8]
    let key: Data

    /// The sealed form: the mark, the authorization value, the TPM's blob.
    var serialized: Data { Data(Self.magic + authorization) + key }

    /// Reads the sealed form; `nil` for the bytes of a software key.
    init?(sealed bytes: Data) {
        guard bytes.count > Self.magic.count + Self.authorizationSize,
            Array(bytes.prefix(Self.magic.count)) == Self.magic
        else { return nil }
        let rest = bytes.dropFirst(Self.magic.count)
        authorization = Array(rest.prefix(Self.authorizationSize))
        key = Data(rest.dropFirst(Self.authorizationSize))
    }

    private init(authorization: [UInt8], key: Data) {
        self.authorization = authorization
        self.key = key
    }

    /// A new key in `hardware`: what to seal, and its public key (X9.63).
    ///
    /// With `compactRepresentable` (CryptoKit's option) keys are made until one's public key has
    /// a compact representation, as swift-crypto does in software (one in two does).
    static func make(
        in hardware: any HardwareRoot,
        compactRepresentable: Bool
    ) throws(KeychainError) -> (sealed: Data, publicKey: Data) {
        for _ in 0..<32 {
            let authorization = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
            let made = try hardware.makeEnclaveKey(authorization: authorization)
            if compactRepresentable,
                (try? P256.KeyAgreement.PublicKey(x963Representation: made.publicKey))?.compactRepresentation == nil
            {
                continue
            }
            return (HardwareEnclaveKey(authorization: authorization, key: made.key).serialized, made.publicKey)
        }
        throw KeychainError(.internalInconsistency, "the TPM made no key with a compact public key")
    }
}
