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

extension SecureEnclave.P256.Signing {
    /// A P-256 signing key whose private key only the keychain's engine uses.
    public struct PrivateKey: @unchecked Sendable {
        // Immutable: the sealed key and the caller's context.
        private let key: SealedEnclaveKey

        /// The blob to keep to use the key again (with ``init(dataRepresentation:authenticationContext:)``):
        /// opaque, usable only with this keychain and by the access group that made the key.
        public var dataRepresentation: Data { key.blob }

        /// The key's public key.
        public let publicKey: P256.Signing.PublicKey

        /// Generates a key.
        ///
        /// - Parameters:
        ///   - compactRepresentable: Whether the public key has a compact (X coordinate only) form.
        ///   - accessControl: When the key may be used; by default after the first unlock, on this
        ///     device only, with no constraint. With `.privateKeyUsage` and a constraint (biometry, the
        ///     passcode), every signature asks for it.
        ///   - authenticationContext: The context that authenticates the key's operations.
        /// - Throws: A CryptoTokenKit error, as CryptoKit reports it, when the key cannot be made.
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
            publicKey = try SecureEnclave.publicKey(of: key, P256.Signing.PublicKey.init(x963Representation:))
        }

        /// The key a ``dataRepresentation`` holds.
        ///
        /// Asks for no authentication.
        ///
        /// - Throws: CryptoTokenKit's corrupted-data error (`-3`) for data that is not a key of this keychain.
        public init(dataRepresentation: Data, authenticationContext: LAContext? = nil) throws {
            key = try SecureEnclave.load(dataRepresentation, context: authenticationContext)
            publicKey = try SecureEnclave.publicKey(of: key, P256.Signing.PublicKey.init(x963Representation:))
        }

        /// An ECDSA signature of `digest`.
        public func signature<D: Digest>(for digest: D) throws -> P256.Signing.ECDSASignature {
            let der: Data
            do {
                der = try key.signature(forDigest: Data(digest))
            } catch {
                throw SecureEnclaveFailure.error(error)
            }
            return try P256.Signing.ECDSASignature(derRepresentation: der)
        }

        /// An ECDSA signature of `data`'s SHA-256 digest.
        public func signature<D: DataProtocol>(for data: D) throws -> P256.Signing.ECDSASignature {
            try signature(for: SHA256.hash(data: data))
        }
    }
}
#endif
