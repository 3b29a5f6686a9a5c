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
package import Foundation
import GRDB
package import KeychainCore

extension KeybagService {
    // MARK: Constraint keys

    /// The keybag's constraint keys as they are now (other processes may have changed them), checked.
    package func constraintKeyRecords() throws(KeychainError) -> [AccessPolicy.Constraint: ConstraintKeyRecord] {
        try store.read { db throws(KeychainError) in try constraints(in: db) }
    }

    // MARK: Releasing the constraint keys

    /// The passcode gate: checks `passcode` with Apple's back-off and releases the passcode constraint key.
    ///
    /// A correct passcode also unlocks this process's keybag and ends a biometric lockout.
    /// - Throws: ``KeychainError/Code/authenticationFailed`` for a wrong passcode (counted),
    ///   ``KeychainError/Code/passcodeBackoff`` while the delay runs,
    ///   ``KeychainError/Code/notAvailable`` when no passcode is set.
    package func authenticate(passcode: String) throws(KeychainError) -> AuthenticationCredentials {
        let stored = try currentStored()
        guard stored.record.hasPasscode else {
            throw KeychainError(.notAvailable, "no passcode is set")
        }
        let passcodeKey = try verify(passcode, record: stored.record, endsBiometricLockout: true)
        try load(passcodeKey: passcodeKey, checkedAgainst: stored)
        rekeyIfNeeded(passcodeKey: passcodeKey)
        var credentials = AuthenticationCredentials()
        if let lock = try constraintKeyRecords()[.passcode], lock.isIntact {
            credentials.constraintKeys[lock.identifier] = try lock.privateKey(using: passcodeKey)
        }
        return credentials
    }

    /// The biometric gate: after the sensor reported a match, releases the biometric constraint keys.
    ///
    /// The constraint keys are wrapped by a class key that exists only after the first unlock.
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` before the first unlock.
    package func releaseBiometricConstraints() throws(KeychainError) -> AuthenticationCredentials {
        guard let wrappingKey = keybag.classKey(Self.biometryWrappingClass) else {
            throw KeychainError(.interactionNotAllowed, "biometry needs the passcode once after the keychain is opened")
        }
        var credentials = AuthenticationCredentials()
        for (lock, record) in try constraintKeyRecords()
        where (lock == .biometryAny || lock == .biometryCurrentSet) && record.isIntact {
            credentials.constraintKeys[record.identifier] = try record.privateKey(using: wrappingKey)
        }
        return credentials
    }

    /// Replaces the constraint key of the current biometric set: every item sealed to the old set becomes
    /// unreadable for good.
    ///
    /// `nil` (nothing enrolled) destroys the constraint key without a successor.
    ///
    /// - Throws: ``KeychainError/Code/interactionNotAllowed`` before the first unlock,
    ///   ``KeychainError/Code/notAvailable`` without a passcode.
    package func replaceBiometricSetConstraint(domainHash: Data?) throws(KeychainError) {
        guard try currentRecord().hasPasscode else {
            throw KeychainError(.notAvailable, "biometry needs a passcode")
        }
        guard let domainHash else {
            try writeKeybag { (_, latest) throws(KeychainError) -> (KeybagRecord, Void) in
                var updated = latest.record
                updated.constraints[.biometryCurrentSet] = nil
                return (updated, ())
            }
            return
        }
        guard let wrappingKey = keybag.classKey(Self.biometryWrappingClass) else {
            throw KeychainError(.interactionNotAllowed, "enrolling biometry needs the passcode first")
        }
        let authentication = ConstraintKeyRecord.authenticationKey(classKey: wrappingKey)
        let lock = try ConstraintKeyRecord.make(.biometryCurrentSet, wrappingKey: wrappingKey, domainHash: domainHash)
        try writeKeybag { (_, latest) throws(KeychainError) -> (KeybagRecord, Void) in
            guard keybag.classKey(Self.biometryWrappingClass) == wrappingKey else {
                throw KeychainError(
                    .interactionNotAllowed,
                    "the class keys were replaced by another process; enter the passcode"
                )
            }
            var updated = latest.record
            if updated.constraints[.biometryAny] == nil {
                updated.constraints[.biometryAny] = try ConstraintKeyRecord.make(.biometryAny, wrappingKey: wrappingKey)
                    .authenticated(authentication)
            }
            updated.constraints[.biometryCurrentSet] = lock.authenticated(authentication)
            return (updated, ())
        }
    }
}
