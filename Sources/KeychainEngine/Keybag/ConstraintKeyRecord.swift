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

package import Crypto
package import Foundation
package import KeychainCore

/// A constraint key of the keybag: a key pair whose public half seals items and whose private half is
/// wrapped by what the constraint key stands for (the passcode key, or a class key for biometry).
///
/// Stored in the sealed keybag, one per ``AccessPolicy/Constraint``. Replacing one (a new biometric
/// enrolment, a removed passcode) destroys the old private key, and with it every item
/// alternative sealed to it.
package struct ConstraintKeyRecord: Sendable {
    // MARK: Properties

    package var constraint: AccessPolicy.Constraint
    /// A random identifier that item envelopes name, so a replaced constraint key is recognised.
    package var identifier: Data
    package var publicKey: Curve25519.KeyAgreement.PublicKey
    package var wrappedPrivateKey: Data
    /// For ``AccessPolicy/Constraint/biometryCurrentSet``: the hash of the enrolment set it belongs to.
    package var domainHash: Data?
    /// The constraint key's authentication code under the key from the `cku` class key; `nil` in a keychain
    /// converted from the unsealed keybag, until its first unlock computes it.
    package var mac: Data?
    /// Found damaged when the keychain was converted (its old integrity code did not match): its
    /// items are refused, never deleted.
    package var isDamaged = false
    /// Whether the constraint key passed its check (see ``verified(_:)``).
    ///
    /// A damaged constraint key must not pass for a replaced one: items sealed to a replaced constraint key are
    /// deleted, items of a damaged one only refused.
    package var isIntact = true
    /// Whether the check used the authentication key: only a verified constraint key may be sealed to.
    package var isVerified = false

    // MARK: Making

    /// A fresh constraint key whose private key is wrapped by `wrappingKey`.
    package static func make(
        _ constraint: AccessPolicy.Constraint,
        wrappingKey: SymmetricKey,
        domainHash: Data? = nil
    ) throws(KeychainError) -> ConstraintKeyRecord {
        let privateKey = Curve25519.KeyAgreement.PrivateKey()
        let identifier = SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
        return ConstraintKeyRecord(
            constraint: constraint,
            identifier: identifier,
            publicKey: privateKey.publicKey,
            wrappedPrivateKey: try AtRestCipher.seal(
                privateKey.rawRepresentation,
                using: wrappingKey,
                binding: binding(constraint: constraint, identifier: identifier).bytes
            ),
            domainHash: domainHash
        )
    }

    /// The private key, unwrapped with `wrappingKey`.
    ///
    /// - Throws: ``KeychainError/Code/authenticationFailed`` if `wrappingKey` is not the one
    ///   that wrapped it (a wrong passcode), or the row was altered.
    package func privateKey(using wrappingKey: SymmetricKey) throws(KeychainError) -> Curve25519.KeyAgreement.PrivateKey
    {
        let raw: Data
        do {
            raw = try AtRestCipher.open(
                wrappedPrivateKey,
                using: wrappingKey,
                binding: Self.binding(constraint: constraint, identifier: identifier).bytes
            )
        } catch {
            throw KeychainError(.authenticationFailed, "the \(constraint) constraint key does not open with this key")
        }
        do {
            let key = try Curve25519.KeyAgreement.PrivateKey(rawRepresentation: raw)
            guard key.publicKey.rawRepresentation == publicKey.rawRepresentation else {
                throw KeychainError(.decode, "the \(constraint) constraint key's key pair does not match")
            }
            return key
        } catch let error as KeychainError {
            throw error
        } catch {
            throw KeychainError(
                .decode,
                "the \(constraint) constraint key's private key is damaged",
                cause: SendableDescription(error)
            )
        }
    }

    /// The same constraint key, with its private key re-wrapped by `newKey` (a passcode change).
    package func rewrapped(
        from oldKey: SymmetricKey,
        to newKey: SymmetricKey
    ) throws(KeychainError) -> ConstraintKeyRecord {
        let key = try privateKey(using: oldKey)
        var copy = self
        copy.wrappedPrivateKey = try AtRestCipher.seal(
            key.rawRepresentation,
            using: newKey,
            binding: Self.binding(constraint: constraint, identifier: identifier).bytes
        )
        return copy
    }

    private static func binding(constraint: AccessPolicy.Constraint, identifier: Data) -> AssociatedData {
        AssociatedData("swift-keychain/v1/lock-key").appending([constraint.rawValue]).appending(Array(identifier))
    }
}

// MARK: - Authentication

extension ConstraintKeyRecord {
    /// The key that authenticates the constraint keys: derived from the `cku` class key, which only the
    /// passcode opens, so that nobody without the passcode can swap a constraint key's public key for one of
    /// their own (items sealed to it afterwards would open without the passcode).
    package static func authenticationKey(classKey: SymmetricKey) -> SymmetricKey {
        SymmetricKey(
            data: HMAC<SHA256>.authenticationCode(
                for: Array("swift-keychain/v2/lock-authentication".utf8),
                using: classKey
            )
        )
    }

    /// HMAC-SHA-256 over every field of the constraint key.
    package func authenticationCode(_ key: SymmetricKey) -> Data {
        var fields = AssociatedData("swift-keychain/v2/lock")
            .appending([constraint.rawValue])
            .appending(Array(identifier))
            .appending(Array(publicKey.rawRepresentation))
            .appending(Array(wrappedPrivateKey))
        fields.append(domainHash.map { [1] + Array($0) } ?? [0])
        return Data(HMAC<SHA256>.authenticationCode(for: fields.bytes, using: key))
    }

    /// This constraint key with its authentication code computed under `key`.
    package func authenticated(_ key: SymmetricKey) -> ConstraintKeyRecord {
        var copy = self
        copy.mac = authenticationCode(key)
        copy.isIntact = true
        copy.isVerified = true
        return copy
    }

    /// This constraint key checked against its code with `key` (`nil`: the key is locked, nothing is checked).
    ///
    /// With the key, a missing code is damage, not trust.
    package func verified(_ key: SymmetricKey?) -> ConstraintKeyRecord {
        var copy = self
        guard !isDamaged else {
            copy.isIntact = false
            return copy
        }
        guard let key else { return copy }
        copy.isVerified = mac.map { $0 == authenticationCode(key) } ?? false
        copy.isIntact = copy.isVerified
        return copy
    }
}
