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
/// `SecureEnclave.P256` keys, and Secure Enclave `SecKey`s that are not stored): nothing is stored in
/// the keychain, and every use hands the blob back to the engine, which opens it, checks its access
/// control, and answers with the signature or shared secret only.
package struct SealedEnclaveKey: @unchecked Sendable {
    // Immutable; the context is the caller's `LAContext`, used for every operation as CryptoKit
    // uses the context a key was made or loaded with.
    /// The blob (CryptoKit's `dataRepresentation`).
    package let blob: Data
    /// The public key, X9.63.
    package let publicKey: Data
    /// The keychain that made or loaded the key.
    let device: Device
    private let context: AnyObject?

    // MARK: Making one

    /// Generates a key sealed to `accessControl` (a `SecAccessControl`), in the caller's default
    /// access group; `context` (an `LAContext`) authenticates its operations later.
    package static func generate(
        accessControl: SecAccessControl,
        compactRepresentable: Bool,
        context: AnyObject?
    ) throws(SealedEnclaveKeyError) -> SealedEnclaveKey {
        var attributes: [String: Any] = [kSecAttrAccessControl as String: accessControl]
        if let context { attributes[kSecUseAuthenticationContext as String] = context }
        return try generate(attributes: attributes, compactRepresentable: compactRepresentable)
    }

    /// Generates a key with `attributes`' accessibility or access control, access group and
    /// `kSecUseAuthenticationContext`; the engine answers with the blob and its public key.
    package static func generate(
        attributes: [String: Any],
        compactRepresentable: Bool,
        name: String = "generating a key"
    ) throws(SealedEnclaveKeyError) -> SealedEnclaveKey {
        let kept: Set<String> = [
            kSecAttrAccessControl as String, kSecAttrAccessible as String, kSecAttrAccessGroup as String,
            kSecUseAuthenticationContext as String,
        ]
        var dictionary = attributes.filter { kept.contains($0.key) }
        dictionary[kSecClass as String] = kSecClassKey as String
        dictionary[kSecReturnData as String] = true
        let device = try currentDevice(name)
        let result = try call(on: device, dictionary, operation: .add, name: name) { query throws(KeychainError) in
            var query = query
            query.keyOperation = .generateWrapped(compactRepresentable: compactRepresentable)
            return try device.engine.add(query)
        }
        guard let blob = result.data, case .data(let publicKey)? = result.attributes[KeyOperation.generatedPublicKey]
        else {
            throw SealedEnclaveKeyError(errSecInternalError, "\(name): the engine returned no key")
        }
        return SealedEnclaveKey(
            blob: blob,
            publicKey: publicKey,
            device: device,
            context: attributes[kSecUseAuthenticationContext as String] as AnyObject?
        )
    }

    /// The key a blob holds, checked by the engine (which asks for no authentication to name its public key).
    package init(blob: Data, context: AnyObject?) throws(SealedEnclaveKeyError) {
        let name = "loading a key"
        let device = try Self.currentDevice(name)
        var dictionary = Self.useDictionary(context)
        dictionary[kSecUseAuthenticationUI as String] = kSecUseAuthenticationUIFail as String
        let result = try Self.call(on: device, dictionary, operation: .copyMatching, name: name) {
            query throws(KeychainError) in
            var query = query
            query.keyOperation = .publicKeyOfWrapped(blob: blob)
            return try Self.single(device.engine.search(query))
        }
        guard let publicKey = result.data else {
            throw SealedEnclaveKeyError(errSecInternalError, "\(name): the engine returned no public key")
        }
        self.init(blob: blob, publicKey: publicKey, device: device, context: context)
    }

    private init(blob: Data, publicKey: Data, device: Device, context: AnyObject?) {
        self.blob = blob
        self.publicKey = publicKey
        self.device = device
        self.context = context
    }

    // MARK: Using one

    /// An ECDSA signature (X9.62 DER) of `digest`, after the access control is satisfied for signing.
    package func signature(forDigest digest: Data, name: String = "signing") throws(SealedEnclaveKeyError) -> Data {
        try perform(.signWrapped(blob: blob, digest: digest), name: name)
    }

    /// The ECDH shared secret (the X coordinate) with `peer` (X9.63), after the access control is
    /// satisfied for key exchange.
    package func sharedSecret(
        with peer: Data,
        name: String = "computing a shared secret"
    ) throws(SealedEnclaveKeyError) -> Data {
        try perform(.keyExchangeWrapped(blob: blob, publicKey: peer), name: name)
    }

    // MARK: Private

    private func perform(_ operation: KeyOperation, name: String) throws(SealedEnclaveKeyError) -> Data {
        let device = device
        let result = try Self.call(on: device, Self.useDictionary(context), operation: .copyMatching, name: name) {
            query throws(KeychainError) in
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

    private static func single(_ results: [ItemResult]) throws(KeychainError) -> ItemResult {
        guard let result = results.first else {
            throw KeychainError(.internalInconsistency, "the key operation returned nothing")
        }
        return result
    }

    private static func currentDevice(_ name: String) throws(SealedEnclaveKeyError) -> Device {
        do {
            return try Device.current()
        } catch {
            throw SealedEnclaveKeyError(errSecNotAvailable, "\(name): the keychain cannot be opened")
        }
    }

    /// One engine call made as a `SecItem*` call, with Apple's authentication loop.
    private static func call(
        on device: Device,
        _ dictionary: [String: Any],
        operation: KeychainOperation,
        name: String,
        _ body: (ItemQuery) throws(KeychainError) -> ItemResult
    ) throws(SealedEnclaveKeyError) -> ItemResult {
        do {
            return try StoredEnclaveKey.run(on: device, dictionary, operation: operation, name: name) {
                _,
                query throws(KeychainError) in
                try body(query)
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
