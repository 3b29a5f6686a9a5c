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
import KeychainDevice

/// A P-256 key whose private key the engine sealed into a blob that the caller keeps (CryptoKit's
/// `SecureEnclave.P256` keys): nothing is stored in the keychain, and every use hands the blob back
/// to the engine, which opens it, checks its access control, and answers with the signature or
/// shared secret only.
package struct SealedEnclaveKey: @unchecked Sendable {
    // Immutable; the context is the caller's `LAContext`, used for every operation as CryptoKit
    // uses the context a key was made or loaded with.
    /// The blob (CryptoKit's `dataRepresentation`).
    package let blob: Data
    /// The public key, X9.63.
    package let publicKey: Data
    private let context: AnyObject?

    // MARK: Making one

    /// Generates a key sealed to `accessControl` (a `SecAccessControl`), in the caller's default
    /// access group; `context` (an `LAContext`) authenticates its operations later.
    package static func generate(
        accessControl: SecAccessControl,
        compactRepresentable: Bool,
        context: AnyObject?
    ) throws(SealedEnclaveKeyError) -> SealedEnclaveKey {
        var dictionary: [String: Any] = [
            kSecClass as String: kSecClassKey as String,
            kSecAttrAccessControl as String: accessControl,
            kSecReturnData as String: true,
        ]
        if let context { dictionary[kSecUseAuthenticationContext as String] = context }
        let result = try call(dictionary, operation: .add, name: "generating a key") { device, query throws(KeychainCoreError) in
            var query = query
            query.keyOperation = .generateWrapped(compactRepresentable: compactRepresentable)
            return try device.engine.add(query)
        }
        guard let blob = result.data else {
            throw SealedEnclaveKeyError(errSecInternalError, "generating a key returned no key")
        }
        return try SealedEnclaveKey(blob: blob, context: context)
    }

    /// The key a blob holds, checked by the engine (which asks for no authentication to name its public key).
    package init(blob: Data, context: AnyObject?) throws(SealedEnclaveKeyError) {
        var dictionary = Self.useDictionary(context)
        dictionary[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail as String
        let result = try Self.call(dictionary, operation: .copyMatching, name: "loading a key") { device, query throws(KeychainCoreError) in
            var query = query
            query.keyOperation = .publicKeyOfWrapped(blob: blob)
            return try Self.single(device.engine.search(query))
        }
        guard let publicKey = result.data else {
            throw SealedEnclaveKeyError(errSecInternalError, "loading a key returned no public key")
        }
        self.blob = blob
        self.publicKey = publicKey
        self.context = context
    }

    // MARK: Using one

    /// An ECDSA signature (X9.62 DER) of `digest`, after the access control is satisfied for signing.
    package func signature(forDigest digest: Data) throws(SealedEnclaveKeyError) -> Data {
        try perform(.signWrapped(blob: blob, digest: digest), name: "signing")
    }

    /// The ECDH shared secret (the X coordinate) with `peer` (X9.63), after the access control is
    /// satisfied for key exchange.
    package func sharedSecret(with peer: Data) throws(SealedEnclaveKeyError) -> Data {
        try perform(.keyExchangeWrapped(blob: blob, publicKey: peer), name: "computing a shared secret")
    }

    // MARK: Private

    private func perform(_ operation: KeyOperation, name: String) throws(SealedEnclaveKeyError) -> Data {
        let result = try Self.call(Self.useDictionary(context), operation: .copyMatching, name: name) { device, query throws(KeychainCoreError) in
            var query = query
            query.keyOperation = operation
            return try Self.single(device.engine.search(query))
        }
        guard let data = result.data else {
            throw SealedEnclaveKeyError(errSecInternalError, "\(name) returned nothing")
        }
        return data
    }

    private static func useDictionary(_ context: AnyObject?) -> [String: Any] {
        var dictionary: [String: Any] = [kSecClass as String: kSecClassKey as String, kSecReturnData as String: true]
        if let context { dictionary[kSecUseAuthenticationContext as String] = context }
        return dictionary
    }

    private static func single(_ results: [ItemResult]) throws(KeychainCoreError) -> ItemResult {
        guard let result = results.first else {
            throw KeychainCoreError(.internalInconsistency, "the key operation returned nothing")
        }
        return result
    }

    /// One engine call made as a `SecItem*` call, with Apple's authentication loop.
    private static func call(
        _ dictionary: [String: Any],
        operation: KeychainOperation,
        name: String,
        _ body: (Device, ItemQuery) throws(KeychainCoreError) -> ItemResult
    ) throws(SealedEnclaveKeyError) -> ItemResult {
        let device: Device
        do {
            device = try Device.current()
        } catch {
            throw SealedEnclaveKeyError(errSecNotAvailable, "\(name): the keychain cannot be opened")
        }
        do {
            return try EnclaveKey.run(on: device, dictionary, operation: operation, name: name) { _, query throws(KeychainCoreError) in
                try body(device, query)
            }
        } catch {
            throw SealedEnclaveKeyError(error.status, error.message)
        }
    }
}

/// Why a sealed key operation failed: the `OSStatus` the keychain call returned, and a message that
/// names no secret.
package struct SealedEnclaveKeyError: Error, Sendable {
    package let status: OSStatus
    package let message: String

    init(_ status: OSStatus, _ message: String) {
        self.status = status
        self.message = message
    }
}
#endif
