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

#if !(KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API)
public import Crypto
public import Foundation
public import KeychainServices
public import LocalAuth

extension SecureEnclave.P256.KeyAgreement {
    /// A P-256 key-agreement key whose private key only the keychain's engine uses.
    public struct PrivateKey: @unchecked Sendable {
        // Immutable: the sealed key and the caller's context.
        private let key: SealedEnclaveKey

        /// The blob to keep to use the key again (with ``init(dataRepresentation:authenticationContext:)``):
        /// opaque, usable only with this keychain and by the access group that made the key.
        public var dataRepresentation: Data { key.blob }

        /// The key's public key.
        public let publicKey: P256.KeyAgreement.PublicKey

        /// Generates a key; the parameters are those of ``SecureEnclave/P256/Signing/PrivateKey/init(compactRepresentable:accessControl:authenticationContext:)``.
        public init(
            compactRepresentable: Bool = true,
            accessControl: SecAccessControl = SecureEnclave.defaultAccessControl(),
            authenticationContext: LAContext? = nil
        ) throws {
            key = try SecureEnclave.generate(
                compactRepresentable: compactRepresentable,
                accessControl: accessControl,
                context: authenticationContext
            )
            publicKey = try SecureEnclave.publicKey(of: key, P256.KeyAgreement.PublicKey.init(x963Representation:))
        }

        /// The key a ``dataRepresentation`` holds.
        ///
        /// Asks for no authentication.
        ///
        /// - Throws: CryptoTokenKit's corrupted-data error (`-3`) for data that is not a key of this keychain.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            key = try SecureEnclave.load(dataRepresentation, context: authenticationContext)
            publicKey = try SecureEnclave.publicKey(of: key, P256.KeyAgreement.PublicKey.init(x963Representation:))
        }

        /// The ECDH shared secret with `publicKeyShare`, to derive keys from with its HKDF or X9.63 methods.
        public func sharedSecretFromKeyAgreement(
            with publicKeyShare: P256.KeyAgreement.PublicKey
        ) throws -> SharedSecret {
            let secret: Data
            do {
                secret = try key.sharedSecret(with: publicKeyShare.x963Representation)
            } catch {
                throw SecureEnclaveFailure.error(error)
            }
            return try Self.sharedSecret(fromCoordinate: secret)
        }

        /// swift-crypto's `SharedSecret` for the X coordinate the engine computed.
        ///
        /// `SharedSecret` has no public initializer, and only swift-crypto's own key agreement makes one.
        /// The secret is the X coordinate of the shared point S; the point with that X coordinate (either
        /// one: both have it) is 1 · S, so agreeing with it using the scalar 1 gives the same secret,
        /// computed by swift-crypto. The scalar 1 is no secret: nothing is derived from it but S's own X.
        private static func sharedSecret(fromCoordinate x: Data) throws -> SharedSecret {
            do {
                let point = try P256.KeyAgreement.PublicKey(compressedRepresentation: [0x02] + x)
                let one = try P256.KeyAgreement.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [1])
                return try one.sharedSecretFromKeyAgreement(with: point)
            } catch {
                throw SecureEnclaveFailure.error(.corruptedData, "the shared secret is not a P-256 X coordinate")
            }
        }
    }
}
#endif
