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
import GRDB
package import KeychainCore

extension KeybagService {
    // MARK: State

    /// The fewest characters a passcode may have (Apple's shortest passcode has four digits).
    package static let minimumPasscodeLength = 4
    /// The most bytes a passcode may have.
    package static let maximumPasscodeLength = 1024

    /// Whether a passcode is set (read from the database, so it reflects other processes).
    package func hasPasscode() throws(KeychainError) -> Bool {
        try currentRecord().hasPasscode
    }

    /// Whether the `WhenUnlocked` classes are available to this process.
    package var isUnlocked: Bool { keybag.isUnlocked }

    /// Whether this process has unlocked since it started (the `AfterFirstUnlock` classes are available).
    package var hasBeenUnlocked: Bool { keybag.hasBeenUnlocked }

    // MARK: Lock and unlock

    /// Unlocks the keychain for this process with the passcode.
    ///
    /// Without a passcode the keychain is always unlocked and this does nothing. An unlock that
    /// `endsBiometricLockout` stands for the Lock Screen (`security unlock`); a process merely
    /// opening its own view of an unlocked device (the tool's automatic prompt) does not.
    /// A wrong passcode is counted unless `countsWrongPasscode` is false: the login password,
    /// which the PAM stack verified and which may well not be the passcode.
    /// - Throws: ``KeychainError/Code/authenticationFailed`` for a wrong passcode,
    ///   ``KeychainError/Code/passcodeBackoff`` while the back-off delay runs.
    package func unlock(
        passcode: String,
        endsBiometricLockout: Bool = true,
        countsWrongPasscode: Bool = true
    ) throws(KeychainError) {
        let stored = try currentStored()
        guard stored.record.hasPasscode else {
            _ = try keybag.load(stored, passcodeKey: nil)
            return
        }
        let key = try verify(
            passcode,
            record: stored.record,
            endsBiometricLockout: endsBiometricLockout,
            countsWrongPasscode: countsWrongPasscode
        )
        try load(passcodeKey: key, checkedAgainst: stored)
        sessionResume.remember(key, salt: stored.record.passcodeSalt, at: attempts.clock())
        rekeyIfNeeded(passcodeKey: key)
    }

    /// Loads the class keys with a verified passcode key, from the keybag as stored now (another
    /// process may have written it since the passcode was checked).
    func load(passcodeKey: SymmetricKey, checkedAgainst checked: StoredKeybag) throws(KeychainError) {
        // Another thread may follow a newer keybag between the read and the load: read again.
        for _ in 0..<3 {
            let latest = try currentStored()
            guard latest.record.passcodeSalt == checked.record.passcodeSalt else {
                throw KeychainError(.authenticationFailed, "the passcode was changed by another process; try again")
            }
            if try keybag.load(latest, passcodeKey: passcodeKey) { return }
        }
        throw KeychainError(.io, "the keybag kept changing while it was unlocked; try again")
    }

    /// Locks the keychain for this process: `WhenUnlocked` classes become unreadable until the next unlock.
    ///
    /// Without a passcode there is nothing to lock with, as on a device without one.
    ///
    /// Nothing reopens it but the passcode: what a locked session keeps to reopen it is forgotten.
    package func lock() throws(KeychainError) {
        try sessionResume.serialized { () throws(KeychainError) in
            sessionResume.forget()
            if try hasPasscode() {
                keybag.lock()
            }
        }
    }

    // MARK: Changing the passcode

    /// Sets a passcode where there is none, or changes it (the current passcode is then required).
    ///
    /// Every passcode-protected class key is replaced, and every item of those classes sealed
    /// again under the new keys, in one transaction (`progress` reports the rows): a copy of the
    /// keybag from before — a backup, a snapshot — opens nothing written from now on, even with
    /// the old passcode. A first passcode creates the `WhenPasscodeSetThisDeviceOnly` class key.
    /// A wrong current passcode is counted unless `countsWrongPasscode` is false (the old login
    /// password of a password change).
    /// - Throws: ``KeychainError/Code/invalidParameter`` for a passcode shorter than four
    ///   characters or longer than 1,024 bytes.
    package func setPasscode(
        _ newPasscode: String,
        current: String?,
        progress: RekeyProgress? = nil,
        countsWrongPasscode: Bool = true
    ) throws(KeychainError) {
        try Self.validate(newPasscode)
        let stored = try currentStored()
        let (oldPasscodeKey, currentKeys) = try classKeys(
            of: stored.record,
            currentPasscode: current,
            countsWrongPasscode: countsWrongPasscode
        )
        var newKeys = currentKeys
        for protection in ProtectionClass.allCases where protection.isPasscodeProtected {
            newKeys[protection] = SymmetricKey(size: .bits256)
        }
        var passcodeRecord = stored.record
        passcodeRecord.passcodeSalt = Self.randomSalt()
        passcodeRecord.kdf = passcodeKDF
        passcodeRecord.hasPasscode = true
        let passcodeKey = try keybag.newPasscodeKey(for: newPasscode, record: &passcodeRecord)
        try writeKeybag(loading: passcodeKey) { (db, latest) throws(KeychainError) -> (KeybagRecord, Void) in
            try Self.requireUnchanged(latest, since: stored)
            var updated = latest.record
            updated.passcodeSalt = passcodeRecord.passcodeSalt
            updated.kdf = passcodeRecord.kdf
            updated.hasPasscode = true
            updated.hardwarePasscodeKey = passcodeRecord.hardwarePasscodeKey
            try rekey(
                &updated,
                from: currentKeys,
                to: newKeys,
                passcodeKey: passcodeKey,
                oldPasscodeKey: oldPasscodeKey,
                in: db,
                progress: progress
            )
            return (updated, ())
        }
        sessionResume.remember(passcodeKey, salt: passcodeRecord.passcodeSalt, at: attempts.clock())
    }

    /// The class whose key wraps the biometric constraint keys and keys their authentication: available
    /// after the first unlock, never without the passcode, so a copied keychain does not give them
    /// up (and, as on iOS, biometry needs the passcode once after every restart).
    static let biometryWrappingClass = ProtectionClass.afterFirstUnlockThisDeviceOnly

    /// Removes the passcode.
    ///
    /// `WhenPasscodeSetThisDeviceOnly` items are destroyed, as on iOS: their class key is forgotten
    /// and their keys and ciphertexts are erased at once; what is left of each (its look-up
    /// columns) is removed when an operation next meets it, as Apple removes such items, so that
    /// deleting one right after the passcode was removed still succeeds.
    package func removePasscode(current: String) throws(KeychainError) {
        let stored = try currentStored()
        guard stored.record.hasPasscode else {
            throw KeychainError(.notAvailable, "no passcode is set")
        }
        let currentKeys = try classKeys(of: stored.record, currentPasscode: current).keys
        var keys = currentKeys
        keys[.whenPasscodeSetThisDeviceOnly] = nil
        try writeKeybag { (db, latest) throws(KeychainError) -> (KeybagRecord, Void) in
            try Self.requireUnchanged(latest, since: stored)
            var updated = latest.record
            updated.passcodeSalt = nil
            updated.hasPasscode = false
            updated.hardwarePasscodeKey = nil
            updated.wrappedClassKeys = try wrap(keys, passcodeKey: nil)
            // Passcode and biometry constraints die with the passcode, as on iOS, and so do keys
            // made in the WhenPasscodeSet class.
            updated.constraints = [:]
            updated.wrappedBlobKeys[.whenPasscodeSetThisDeviceOnly] = nil
            let tiers = try keybag.lookupTiers(of: latest.record, classKeys: currentKeys)
            for itemClass in ItemClass.storedClasses {
                try buryRows(of: .whenPasscodeSetThisDeviceOnly, in: itemClass, tiers: tiers, db: db)
            }
            return (updated, ())
        }
        sessionResume.forget()
    }

    // MARK: Private

    /// Refuses a passcode Apple would not accept as one.
    static func validate(_ passcode: String) throws(KeychainError) {
        guard passcode.count >= minimumPasscodeLength else {
            throw KeychainError(
                .invalidParameter,
                "the passcode must have at least \(minimumPasscodeLength) characters"
            )
        }
        guard passcode.utf8.count <= maximumPasscodeLength else {
            throw KeychainError(.invalidParameter, "the passcode must have at most \(maximumPasscodeLength) bytes")
        }
    }

    /// Refuses to write over a keybag whose passcode or class keys another process changed since
    /// `original` was read (the change was checked against `original`).
    static func requireUnchanged(_ latest: StoredKeybag, since original: StoredKeybag) throws(KeychainError) {
        guard latest.record.passcodeSalt == original.record.passcodeSalt,
            latest.record.hasPasscode == original.record.hasPasscode,
            latest.record.classKeyEpoch == original.record.classKeyEpoch
        else {
            throw KeychainError(.authenticationFailed, "the passcode was changed by another process; try again")
        }
    }

    /// Every class key of `record`, verifying the current passcode if one is set.
    func classKeys(
        of record: KeybagRecord,
        currentPasscode: String?,
        countsWrongPasscode: Bool = true
    ) throws(KeychainError) -> (passcodeKey: SymmetricKey?, keys: [ProtectionClass: SymmetricKey]) {
        var passcodeKey: SymmetricKey?
        if record.hasPasscode {
            guard let currentPasscode else {
                throw KeychainError(.authenticationFailed, "the current passcode is required")
            }
            passcodeKey = try verify(currentPasscode, record: record, countsWrongPasscode: countsWrongPasscode)
        }
        return (passcodeKey, try keybag.classKeys(in: record, passcodeKey: passcodeKey))
    }

    /// Erases every row of `protection` in `itemClass`'s table down to a tombstone: by tag where
    /// the tier has one tag per class, row by row where the tag covers the row.
    private func buryRows(
        of protection: ProtectionClass,
        in itemClass: ItemClass,
        tiers: LookupTiers,
        db: Database
    ) throws(KeychainError) {
        let table = ItemTable(itemClass)
        guard let tier = tiers.tier(for: protection) else {
            throw KeychainError(.interactionNotAllowed, "the \(protection.rawValue) class is locked")
        }
        if let tag = tier.sharedTag(protection, table: table.name) {
            try table.bury(tagged: tag, in: db)
            return
        }
        var doomed: [Int64] = []
        try table.forEachTag(in: db) { rowID, identifier, tag in
            if tier.protection(forTag: tag, table: table.name, identifier: identifier) == protection {
                doomed.append(rowID)
            }
        }
        try table.bury(doomed, in: db)
    }

    /// Checks a passcode against the keybag, with Apple's back-off; returns the passcode key.
    ///
    /// The attempt is reserved (see ``AttemptCounters/reservePasscodeAttempt()``) before the KDF runs, so that
    /// guesses made in parallel each count; a correct passcode then clears the count. With
    /// `endsBiometricLockout`, a correct passcode also ends a biometric lockout, as entering the
    /// passcode does on iOS. Without `countsWrongPasscode`, a wrong passcode only releases its
    /// reservation (the back-off still applies: a login password is not checked during it).
    func verify(
        _ passcode: String,
        record: KeybagRecord,
        endsBiometricLockout: Bool = false,
        countsWrongPasscode: Bool = true
    ) throws(KeychainError) -> SymmetricKey {
        let attempt = try attempts.reservePasscodeAttempt()
        let derived = Result { () throws(KeychainError) in
            try keybag.passcodeKey(for: passcode, record: record, minimum: minimumKDF)
        }
        guard case .success(let key) = derived else {
            // The TPM refusing the passcode's authorization is a wrong passcode; a TPM that does
            // not answer checked nothing.
            var refused = false
            if case .failure(let error) = derived { refused = error.code == .authenticationFailed }
            try attempts.settlePasscodeAttempt(attempt, outcome: refused && countsWrongPasscode ? false : nil)
            return try derived.get()
        }
        let correct =
            record.wrappedClassKeys[.whenUnlocked].map { wrapped in
                (try? AtRestCipher.unwrap(
                    wrapped,
                    using: key,
                    binding: KeybagRecord.classKeyBinding(.whenUnlocked).bytes
                )) != nil
            } ?? false
        try attempts.settlePasscodeAttempt(
            attempt,
            outcome: correct || countsWrongPasscode ? correct : nil,
            endsBiometricLockout: endsBiometricLockout
        )
        guard correct else {
            throw KeychainError(.authenticationFailed, "the passcode is not correct")
        }
        return key
    }

    static func randomSalt() -> Data {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }
}
