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

/// The access-control layer around an item's secret key: one wrapping per alternative of its policy.
///
/// Each alternative ("slot") wraps the secret key under a key derived from an X25519 agreement
/// between a fresh ephemeral key and the public key of every constraint of that alternative, plus the
/// application-password key when the policy has one. Sealing needs only public keys, so adding an
/// item never prompts; opening needs the constraint key private keys that only the authentication gate
/// releases. `or` is several slots, `and` is one slot that needs every constraint.
///
/// Layout 2 (inside the class-key-sealed envelope): version, the application password's salt and
/// cost (or none), slot count, then per slot the constraint key kinds and identifiers, an
/// application-password flag, the ephemeral public key and the wrapped secret key; zeros up to a
/// multiple of ``paddedLength``, so that every access control seals to the same size. Layout 1
/// (no parameters, no padding; the keychain's legacy salt and cost) is still read.
package struct ConstraintEnvelope: Sendable {
    package struct Slot: Sendable {
        package var constraints: [(constraint: AccessPolicy.Constraint, identifier: Data)]
        package var usesApplicationPassword: Bool
        package var ephemeralPublicKey: Data
        package var wrappedKey: Data
    }

    package var slots: [Slot]
    /// The application password's salt and cost; `nil` without one, or in layout 1.
    package var applicationPassword: ApplicationPasswordParameters?
    /// The layout the constraint key was read from.
    package private(set) var version: UInt8 = Self.currentVersion

    private static let currentVersion: UInt8 = 2
    private static let legacyVersion: UInt8 = 1
    private static let identifierLength = 16
    private static let publicKeyLength = 32
    /// Every serialized envelope is a multiple of this many bytes (the largest policy needs about 370).
    package static let paddedLength = 512

    /// Derives the application password's key for a wrapping's parameters (from the credentials).
    package typealias ApplicationKey = (ApplicationPasswordParameters) throws(KeychainError) -> SymmetricKey

    // MARK: Sealing

    /// Wraps `secretKey` for every alternative of `policy` that can be created now.
    ///
    /// - Parameters:
    ///   - secretKey: The item's secret key.
    ///   - accessControl: The item's access control, whose policy gives the alternatives.
    ///   - operation: The operation that seals it (creating an item or a key), named in the
    ///     authentication request when the application password is missing.
    ///   - available: The keybag's constraint keys; only verified, intact ones are sealed to.
    ///   - applicationKey: Derives the application-password key, `nil` when the caller has no password.
    ///   - newParameters: The salt and cost for the application password of this item.
    ///   - binding: The associated data that binds each slot's wrapping to the item.
    /// - Returns: The envelope, one slot per alternative that can be created now.
    /// - Throws: ``KeychainError/Code/authenticationNeeded`` when the application password is
    ///   missing; ``KeychainError/Code/authenticationFailed`` when no alternative can be created
    ///   (no passcode, no enrolled biometry, no companion); ``KeychainError/Code/constraintDamaged``
    ///   or ``KeychainError/Code/interactionNotAllowed`` when a constraint key it needs failed its check
    ///   or cannot be checked yet (before the first unlock).
    package static func seal(
        _ secretKey: SymmetricKey,
        accessControl: AccessControl,
        operation: AccessOperation,
        constraints available: [AccessPolicy.Constraint: ConstraintKeyRecord],
        applicationKey: ApplicationKey?,
        newParameters: ApplicationPasswordParameters,
        binding: AssociatedData
    ) throws(KeychainError) -> ConstraintEnvelope {
        let policy = AccessPolicy(accessControl)
        var parameters: ApplicationPasswordParameters?
        var applicationPasswordKey: SymmetricKey?
        if policy.requiresApplicationPassword {
            guard let applicationKey else {
                throw .authenticationNeeded(
                    AuthenticationRequest(accessControl: accessControl, operation: operation)
                )
            }
            parameters = newParameters
            applicationPasswordKey = try applicationKey(newParameters)
        }
        var slots: [Slot] = []
        for alternative in policy.alternatives {
            let records = alternative.compactMap { available[$0] }
            guard records.count == alternative.count else { continue }
            if policy.requiresEnrolledBiometry,
                alternative.contains(where: { $0 == .biometryAny || $0 == .biometryCurrentSet }),
                available[.biometryCurrentSet] == nil
            {
                continue  // nothing enrolled
            }
            for record in records {
                guard record.isIntact else {
                    throw KeychainError(
                        .constraintDamaged,
                        "the keybag's \(record.constraint) constraint key is damaged"
                    )
                }
                guard record.isVerified else {
                    throw KeychainError(
                        .interactionNotAllowed,
                        "the keybag's locks can only be checked after the first unlock; add this item after unlocking"
                    )
                }
            }
            let ephemeral = Curve25519.KeyAgreement.PrivateKey()
            let constraintList = records.map { (constraint: $0.constraint, identifier: $0.identifier) }
            var material = Data()
            for record in records {
                do {
                    let shared = try ephemeral.sharedSecretFromKeyAgreement(with: record.publicKey)
                    shared.withUnsafeBytes { material.append(contentsOf: $0) }
                } catch {
                    throw KeychainError(.internalInconsistency, "key agreement with a constraint key failed")
                }
            }
            let ephemeralPublic = ephemeral.publicKey.rawRepresentation
            let slotKey = derive(
                material,
                applicationKey: applicationPasswordKey,
                ephemeralPublicKey: ephemeralPublic,
                constraints: constraintList
            )
            material.resetBytes(in: 0..<material.count)
            slots.append(
                Slot(
                    constraints: constraintList,
                    usesApplicationPassword: applicationPasswordKey != nil,
                    ephemeralPublicKey: ephemeralPublic,
                    wrappedKey: try AtRestCipher.wrap(
                        secretKey,
                        using: slotKey,
                        binding: slotBinding(binding, index: slots.count)
                    )
                )
            )
        }
        guard !slots.isEmpty else {
            throw KeychainError(
                .authenticationFailed,
                "the access control cannot be satisfied on this device (it needs a passcode, enrolled biometry or a companion)"
            )
        }
        return ConstraintEnvelope(slots: slots, applicationPassword: parameters)
    }

    // MARK: Opening

    /// Unwraps the secret key with the first slot that `credentials` satisfy.
    ///
    /// - Parameters:
    ///   - accessControl: The item's access control, named in the authentication request.
    ///   - operation: The operation the key is opened for, named in the authentication request.
    ///   - credentials: What the caller's authentication context has earned.
    ///   - applicationKey: Derives the application-password key, `nil` when the caller has no password.
    ///   - legacyParameters: The salt and cost of application-password wrappings in layout 1.
    ///   - currentConstraints: The keybag's constraint keys now, read only when no slot opens.
    ///   - binding: The associated data the slots were sealed with.
    /// - Returns: The item's secret key.
    /// - Throws: ``KeychainError/Code/authenticationNeeded`` when a slot could open with more
    ///   credentials; ``KeychainError/Code/authenticationFailed`` for a wrong application
    ///   password; ``KeychainError/Code/itemInvalidated`` when every slot names a constraint key that no
    ///   longer exists (a new enrolment, a removed passcode): the item can never be read again;
    ///   ``KeychainError/Code/constraintDamaged`` when a constraint key it names failed its check.
    package func open(
        accessControl: AccessControl,
        operation: AccessOperation,
        credentials: AuthenticationCredentials,
        applicationKey: ApplicationKey?,
        legacyParameters: @autoclosure () -> ApplicationPasswordParameters?,
        currentConstraints: () throws(KeychainError) -> [AccessPolicy.Constraint: ConstraintKeyRecord],
        binding: AssociatedData
    ) throws(KeychainError) -> SymmetricKey {
        var wrongPassword = false
        for (index, slot) in slots.enumerated() {
            let keys = slot.constraints.compactMap { credentials.constraintKeys[$0.identifier] }
            guard keys.count == slot.constraints.count else { continue }
            var applicationPasswordKey: SymmetricKey?
            if slot.usesApplicationPassword {
                guard let applicationKey else { continue }
                guard let parameters = applicationPassword ?? legacyParameters() else {
                    throw KeychainError(.decode, "an item's application-password parameters are missing")
                }
                applicationPasswordKey = try applicationKey(parameters)
            }
            var material = Data()
            if !slot.constraints.isEmpty {
                guard let ephemeral = try? Curve25519.KeyAgreement.PublicKey(rawRepresentation: slot.ephemeralPublicKey)
                else {
                    throw KeychainError(.decode, "an item's constraint envelope is damaged")
                }
                for key in keys {
                    guard let shared = try? key.sharedSecretFromKeyAgreement(with: ephemeral) else {
                        throw KeychainError(.decode, "an item's constraint envelope is damaged")
                    }
                    shared.withUnsafeBytes { material.append(contentsOf: $0) }
                }
            }
            let slotKey = Self.derive(
                material,
                applicationKey: applicationPasswordKey,
                ephemeralPublicKey: slot.ephemeralPublicKey,
                constraints: slot.constraints
            )
            material.resetBytes(in: 0..<material.count)
            if let key = try? AtRestCipher.unwrap(
                slot.wrappedKey,
                using: slotKey,
                binding: Self.slotBinding(binding, index: index)
            ) {
                return key
            }
            if slot.usesApplicationPassword {
                wrongPassword = true
            } else {
                throw KeychainError(.decode, "an item's secret key does not unwrap")
            }
        }
        let existing = try currentConstraints()
        // A constraint key that failed its check may be the item's own, damaged: refuse, never take it for a
        // replaced constraint key (whose items are deleted).
        for slot in slots {
            for reference in slot.constraints where existing[reference.constraint]?.isIntact == false {
                throw KeychainError(
                    .constraintDamaged,
                    "the keybag's \(reference.constraint) constraint key is damaged"
                )
            }
        }
        let live = slots.filter { slot in
            slot.constraints.allSatisfy { existing[$0.constraint]?.identifier == $0.identifier }
        }
        guard !live.isEmpty else {
            throw KeychainError(.itemInvalidated, "the item's access control can no longer be satisfied")
        }
        let missingAlternatives = live.map { missing($0, credentials) }
        if wrongPassword && missingAlternatives.contains(where: \.isEmpty) {
            throw KeychainError(.authenticationFailed, "the application password is not correct")
        }
        throw .authenticationNeeded(
            AuthenticationRequest(
                accessControl: accessControl,
                operation: operation,
                missingAlternatives: missingAlternatives
            )
        )
    }

    private func missing(_ slot: Slot, _ credentials: AuthenticationCredentials) -> Set<AccessPolicy.Constraint> {
        Set(slot.constraints.filter { credentials.constraintKeys[$0.identifier] == nil }.map(\.constraint))
    }

    // MARK: Keys

    private static func derive(
        _ material: Data,
        applicationKey: SymmetricKey?,
        ephemeralPublicKey: Data,
        constraints: [(constraint: AccessPolicy.Constraint, identifier: Data)]
    ) -> SymmetricKey {
        var input = material
        if let applicationKey { applicationKey.withUnsafeBytes { input.append(contentsOf: $0) } }
        defer { input.resetBytes(in: 0..<input.count) }
        var info = AssociatedData("swift-keychain/v1/item-lock")
        for reference in constraints {
            info.append([reference.constraint.rawValue])
            info.append(Array(reference.identifier))
        }
        info.append([applicationKey == nil ? 0 : 1])
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: input),
            salt: ephemeralPublicKey,
            info: info.bytes,
            outputByteCount: 32
        )
    }

    private static func slotBinding(_ binding: AssociatedData, index: Int) -> [UInt8] {
        binding.appending("slot").appending([UInt8(truncatingIfNeeded: index)]).bytes
    }
}

// MARK: - Serialization

extension ConstraintEnvelope {
    package init(slots: [Slot], applicationPassword: ApplicationPasswordParameters?) {
        self.slots = slots
        self.applicationPassword = applicationPassword
    }

    /// Layout 2, padded with zeros to a multiple of ``paddedLength``.
    package var serialized: Data {
        var out = Data([Self.currentVersion])
        if let parameters = applicationPassword {
            out.append(1)
            out.append(contentsOf: parameters.kdf.serialized)
            out.append(UInt8(truncatingIfNeeded: parameters.salt.count))
            out.append(parameters.salt)
        } else {
            out.append(0)
        }
        out.append(UInt8(slots.count))
        for slot in slots {
            out.append(UInt8(slot.constraints.count))
            for reference in slot.constraints {
                out.append(reference.constraint.rawValue)
                out.append(reference.identifier)
            }
            out.append(slot.usesApplicationPassword ? 1 : 0)
            out.append(slot.ephemeralPublicKey)
            out.append(UInt8(truncatingIfNeeded: slot.wrappedKey.count >> 8))
            out.append(UInt8(truncatingIfNeeded: slot.wrappedKey.count))
            out.append(slot.wrappedKey)
        }
        let padded = (out.count + Self.paddedLength - 1) / Self.paddedLength * Self.paddedLength
        out.append(contentsOf: repeatElement(0, count: padded - out.count))
        return out
    }

    package init(serialized: Data) throws(KeychainError) {
        var reader = ByteReader(Array(serialized))
        let version = reader.byte()
        guard version == Self.currentVersion || version == Self.legacyVersion, let version else {
            throw KeychainError(.decode, "an item's constraint envelope is damaged")
        }
        var parameters: ApplicationPasswordParameters?
        if version == Self.currentVersion {
            guard let flag = reader.byte(), flag <= 1 else {
                throw KeychainError(.decode, "an item's constraint envelope is damaged")
            }
            if flag == 1 {
                guard let numbers = reader.bytes(PasscodeKDF.serializedCount),
                    let kdf = PasscodeKDF(serialized: numbers),
                    let saltLength = reader.byte(), let salt = reader.bytes(Int(saltLength))
                else {
                    throw KeychainError(.decode, "an item's constraint envelope is truncated")
                }
                parameters = ApplicationPasswordParameters(kdf: kdf, salt: Data(salt))
            }
        }
        guard let count = reader.byte(), count > 0 else {
            throw KeychainError(.decode, "an item's constraint envelope is damaged")
        }
        var slots: [Slot] = []
        for _ in 0..<count {
            guard let referenceCount = reader.byte() else {
                throw KeychainError(.decode, "an item's constraint envelope is truncated")
            }
            var constraints: [(constraint: AccessPolicy.Constraint, identifier: Data)] = []
            for _ in 0..<referenceCount {
                guard let raw = reader.byte(), let constraint = AccessPolicy.Constraint(rawValue: raw),
                    let identifier = reader.bytes(Self.identifierLength)
                else { throw KeychainError(.decode, "an item's constraint envelope is damaged") }
                constraints.append((constraint, Data(identifier)))
            }
            guard let flag = reader.byte(), flag <= 1, let ephemeral = reader.bytes(Self.publicKeyLength),
                let high = reader.byte(), let low = reader.byte(),
                let wrapped = reader.bytes(Int(high) << 8 | Int(low))
            else { throw KeychainError(.decode, "an item's constraint envelope is damaged") }
            if flag == 1, version == Self.currentVersion, parameters == nil {
                throw KeychainError(
                    .decode,
                    "an item's constraint envelope uses an application password without its parameters"
                )
            }
            slots.append(
                Slot(
                    constraints: constraints,
                    usesApplicationPassword: flag == 1,
                    ephemeralPublicKey: Data(ephemeral),
                    wrappedKey: Data(wrapped)
                )
            )
        }
        let padding = reader.remaining
        guard padding.allSatisfy({ $0 == 0 }), version == Self.currentVersion || padding.isEmpty else {
            throw KeychainError(.decode, "an item's constraint envelope has trailing bytes")
        }
        self.slots = slots
        self.applicationPassword = parameters
        self.version = version
    }
}
