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

/// A Secure Enclave key as a program holds it: which keychain item it is, its public key, and
/// the `LAContext` its operations authenticate with.
///
/// The private key stays in the engine (in `securityd` when the keychain is served by one), which
/// signs and agrees secrets with it after the key's access control is satisfied.
struct StoredEnclaveKey: @unchecked Sendable {
    // Immutable; the context is the caller's `LAContext`, used as Apple's client uses the one a
    // key was found or made with.
    let device: Device
    let location: Location
    let publicKey: ECPublicKey
    let context: (any AuthenticationContextProviding)?

    /// Where the private key is: in a key item of the keychain (`kSecAttrIsPermanent`), or sealed in a
    /// blob this key object holds (an ephemeral key, as CryptoKit's `SecureEnclave.P256` keys are).
    enum Location: Equatable {
        case item(PersistentReference)
        case blob(SealedEnclaveKey)

        static func == (left: Location, right: Location) -> Bool {
            switch (left, right) {
            case (.item(let left), .item(let right)): left == right
            case (.blob(let left), .blob(let right)): left.blob == right.blob
            case (.item, .blob), (.blob, .item): false
            }
        }
    }

    // MARK: Making one

    /// Generates a key in the engine and stores it as a key item with `attributes` (tag, label,
    /// access group, accessibility or access control, `kSecUseAuthenticationContext`).
    static func generate(attributes: [String: Any]) throws(SecKeyError) -> StoredEnclaveKey {
        var dictionary = attributes
        dictionary[kSecClass as String] = kSecClassKey as String
        dictionary[kSecReturnData as String] = true
        dictionary[kSecReturnAttributes as String] = true
        let device: Device
        do {
            device = try Device.current()
        } catch {
            throw SecKeyError(errSecNotAvailable, "SecKeyCreateRandomKey: the keychain cannot be opened")
        }
        return try run(on: device, dictionary, operation: .add) { call, query throws(KeychainError) in
            var query = query
            query.keyOperation = .generate
            let item = try device.engine.add(query)
            return try key(for: item, device: device, context: call.provided)
        }
    }

    /// The key a token key item stands for; its data is the public key.
    static func key(
        for item: ItemResult,
        device: Device,
        context: (any AuthenticationContextProviding)?
    ) throws(KeychainError) -> StoredEnclaveKey {
        guard let data = item.data, let publicKey = try? ECPublicKey(x963Representation: data) else {
            throw KeychainError(.decode, "a Secure Enclave key item has no public key")
        }
        return StoredEnclaveKey(
            device: device,
            location: .item(item.persistentReference),
            publicKey: publicKey,
            context: context
        )
    }

    /// Generates a key that is not stored: the engine seals it into a blob this object keeps.
    static func generateEphemeral(attributes: [String: Any]) throws(SecKeyError) -> StoredEnclaveKey {
        let sealed: SealedEnclaveKey
        do {
            sealed = try SealedEnclaveKey.generate(
                attributes: attributes,
                compactRepresentable: false,
                name: "SecKeyCreateRandomKey"
            )
        } catch {
            throw SecKeyError(error.status, error.message)
        }
        guard let publicKey = try? ECPublicKey(x963Representation: sealed.publicKey) else {
            throw SecKeyError(errSecInternal, "SecKeyCreateRandomKey: the engine returned no public key")
        }
        return StoredEnclaveKey(device: sealed.device, location: .blob(sealed), publicKey: publicKey, context: nil)
    }

    // MARK: Using one

    /// Runs `operation` with the private key in the engine, authenticating as the key's access
    /// control asks (on the key's context, or one of the call's own, prompting when allowed).
    func perform(_ operation: KeyOperation, name: String) throws(SecKeyError) -> Data {
        let reference: PersistentReference
        switch location {
        case .item(let item):
            reference = item
        case .blob(let sealed):
            do throws(SealedEnclaveKeyError) {
                switch operation {
                case .sign(let digest): return try sealed.signature(forDigest: digest, name: name)
                case .keyExchange(let publicKey): return try sealed.sharedSecret(with: publicKey, name: name)
                case .generate, .generateWrapped, .publicKeyOfWrapped, .signWrapped, .keyExchangeWrapped:
                    throw SealedEnclaveKeyError(errSecParam, "\(name): not an operation with the private key")
                }
            } catch {
                throw SecKeyError(error.status, error.message)
            }
        }
        var dictionary: [String: Any] = [
            kSecClass as String: kSecClassKey as String,
            kSecValuePersistentRef as String: reference.data,
            kSecReturnData as String: true,
        ]
        if let context { dictionary[kSecUseAuthenticationContext as String] = context }
        let device = self.device
        return try Self.run(on: device, dictionary, operation: .copyMatching, name: name) {
            _,
            query throws(KeychainError) in
            var query = query
            query.keyOperation = operation
            guard let data = try device.engine.search(query).first?.data else {
                throw KeychainError(.internalInconsistency, "the key operation returned nothing")
            }
            return data
        }
    }

    /// One engine call made as a `SecItem*` call: the dictionary parsed, Apple's authentication
    /// loop around `body`, failures as the `OSStatus` the call would return.
    static func run<T>(
        on device: Device,
        _ dictionary: [String: Any],
        operation: KeychainOperation,
        name: String = "SecKeyCreateRandomKey",
        _ body: (SecItemCall, ItemQuery) throws(KeychainError) -> T
    ) throws(SecKeyError) -> T {
        let outcome = Device.withCurrent(device) {
            Result { () throws(KeychainError) in
                let call = try SecItemCall.parse(dictionary as NSDictionary, for: operation)
                return try call.authenticating(on: device) { query throws(KeychainError) in try body(call, query) }
            }
        }
        switch outcome {
        case .success(let value):
            return value
        case .failure(let error):
            throw SecKeyError(error.osStatus, "\(name): \(error.message)")
        }
    }
}
#endif
