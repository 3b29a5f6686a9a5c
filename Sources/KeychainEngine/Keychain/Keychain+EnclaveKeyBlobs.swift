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

import Foundation
import KeychainCore
import KeychainCrypto
import Logging

extension Keychain {
    // MARK: Key blobs

    /// Generates a P-256 key and returns it sealed as a blob (``EnclaveKeyBlob``), storing nothing: CryptoKit's
    /// `SecureEnclave.P256` keys.
    ///
    /// The blob's access control is the query's; its group the one a new item of the query would get.
    ///
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` while the class is locked,
    ///   ``KeychainError/Code/notAvailable`` for `WhenPasscodeSetThisDeviceOnly` without a passcode,
    ///   ``KeychainError/Code/invalidParameter`` for the `Always` classes (their keys are never
    ///   replaced, and no passcode protects them), and what sealing an item to its constraints throws.
    func generateKeyBlob(
        _ query: ItemQuery,
        compactRepresentable: Bool,
        credentials: AuthenticationCredentials
    ) throws(KeychainError) -> ItemResult {
        guard query.itemClass == .key, query.valueData == nil else {
            throw KeychainError(.invalidParameter, "a key blob's key is generated, not imported")
        }
        let accessControl = AccessControl(
            protection: query.protection ?? .afterFirstUnlockThisDeviceOnly,
            flags: query.accessControl?.flags ?? 0
        )
        guard accessControl.protection.availability != .always else {
            throw KeychainError(
                .invalidParameter,
                "a Secure Enclave key needs a class the passcode protects, not an Always class"
            )
        }
        if accessControl.protection == .whenPasscodeSetThisDeviceOnly, try !keybagService.hasPasscode() {
            throw KeychainError(.notAvailable, "WhenPasscodeSetThisDeviceOnly keys need a passcode")
        }
        let group = try groupForNew(query)
        let key = try StoredEnclaveKeys.generate(hardware: hardware, compactRepresentable: compactRepresentable)
        let codec = codec
        var blob: Data?
        // A passcode change in another process between taking the blob key and sealing begins a new
        // generation: a blob sealed under the superseded one would open with a copy from before the
        // change, so it is sealed again under the new one.
        for _ in 0..<3 where blob == nil {
            let blobKey = try keybagService.currentBlobKey(for: accessControl.protection)
            let constraints = accessControl.hasConstraints ? try keybagService.constraintKeyRecords() : [:]
            let sealed = try EnclaveKeyBlob.seal(
                privateKey: key.privateKey,
                publicKey: key.publicKey,
                accessControl: accessControl,
                accessGroup: group,
                blobKey: blobKey
            ) { secretKey, binding throws(KeychainError) in
                try ConstraintEnvelope.seal(
                    secretKey,
                    accessControl: accessControl,
                    operation: .createKey,
                    constraints: constraints,
                    applicationKey: codec.applicationKey(credentials),
                    newParameters: .make(kdf: codec.passcodeKDF),
                    binding: binding
                )
            }
            if try keybagService.currentRecord().wrappedBlobKeys[accessControl.protection]?.count == blobKey.generation
                + 1
            {
                blob = sealed
            }
        }
        guard let blob else {
            throw KeychainError(
                .interactionNotAllowed,
                "the keychain's keys kept changing while the key was made; try again"
            )
        }
        logger.info("generated a key blob", metadata: ["keychain.class": "\(accessControl.protection.rawValue)"])
        return ItemResult(
            itemClass: .key,
            attributes: [
                QueryKey.accessGroup: .string(group),
                KeyOperation.generatedPublicKey: .data(key.publicKey),
            ],
            accessControl: accessControl,
            data: blob,
            persistentReference: PersistentReference(
                itemClass: .key,
                identifier: Data(repeating: 0, count: PersistentReference.identifierLength)
            )
        )
    }

    /// Opens a key blob for one operation: its public key (no authentication), or a signature or shared
    /// secret after its access control is satisfied with `credentials` for the operation.
    ///
    /// - Throws: ``KeychainError/Code/invalidParameter`` for bytes that are not a blob of this keychain,
    ///   ``KeychainError/Code/missingEntitlement`` for a blob of a group the caller may not use,
    ///   ``KeychainError/Code/interactionNotAllowed`` while its class is locked,
    ///   ``KeychainError/Code/authenticationNeeded`` until the access control is satisfied,
    ///   ``KeychainError/Code/itemInvalidated`` when it never can be again (a changed biometric set).
    func useKeyBlob(
        _ operation: KeyOperation,
        query: ItemQuery,
        credentials: AuthenticationCredentials
    ) throws(KeychainError) -> ItemResult {
        let bytes: Data
        switch operation {
        case .publicKeyOfWrapped(let blob), .signWrapped(let blob, _), .keyExchangeWrapped(let blob, _):
            bytes = blob
        case .generate, .sign, .keyExchange, .generateWrapped:
            throw KeychainError(.invalidParameter, "not an operation on a key blob")
        }
        guard query.itemClass == .key, query.matchLimit == .one, query.returnTypes.contains(.data) else {
            throw KeychainError(.invalidParameter, "a key operation uses one key and returns data")
        }
        let blob = try EnclaveKeyBlob(bytes)
        guard let blobKey = try keybagService.blobKey(for: blob.protection, generation: blob.generation) else {
            throw KeychainError(.invalidParameter, "the data is not a key of this keychain")
        }
        let contents = try blob.open(with: blobKey)
        guard accessGroups(of: query).permits(contents.accessGroup) else {
            throw KeychainError(.missingEntitlement, "the key belongs to an access group this process may not use")
        }
        var result = ItemResult(
            itemClass: .key,
            attributes: [QueryKey.accessGroup: .string(contents.accessGroup)],
            accessControl: contents.accessControl,
            data: contents.publicKey,
            persistentReference: PersistentReference(itemClass: .key, identifier: blob.identifier)
        )
        if case .publicKeyOfWrapped = operation { return result }
        let codec = codec
        let keybagService = keybagService
        let privateKey = try blob.privateKey(of: contents) { envelope, binding throws(KeychainError) in
            try envelope.open(
                accessControl: contents.accessControl,
                operation: operation.accessOperation,
                credentials: credentials,
                applicationKey: codec.applicationKey(credentials),
                legacyParameters: nil,
                currentConstraints: { () throws(KeychainError) in try keybagService.constraintKeyRecords() },
                binding: binding
            )
        }
        result.data = try StoredEnclaveKeys.perform(
            operation,
            secret: privateKey,
            publicKey: contents.publicKey,
            hardware: enclaveHardware
        )
        return result
    }
}
