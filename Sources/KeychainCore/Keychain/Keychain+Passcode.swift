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

extension Keychain {
    // MARK: State

    /// Whether a passcode is set (read from the database, so it reflects other processes).
    package func hasPasscode() throws(KeychainCoreError) -> Bool {
        try currentRecord().hasPasscode
    }

    /// Whether the `WhenUnlocked` classes are available to this process.
    package var isUnlocked: Bool { keybag.isUnlocked }

    /// Whether this process has unlocked since it started (the `AfterFirstUnlock` classes are available).
    package var hasBeenUnlocked: Bool { keybag.hasBeenUnlocked }

    /// The wrong-passcode count and when the next attempt is allowed.
    package func passcodeBackoff() throws(KeychainCoreError) -> PasscodeBackoff {
        try store.read { db throws(KeychainCoreError) in try Self.fetchBackoff(db) }
    }

    // MARK: Lock and unlock

    /// Unlocks the keychain for this process with the passcode.
    ///
    /// Without a passcode the keychain is always unlocked and this does nothing. An unlock that
    /// `endsBiometricLockout` stands for the Lock Screen (`security unlock`); a process merely
    /// opening its own view of an unlocked device (the tool's automatic prompt) does not.
    /// - Throws: ``KeychainCoreError/Code/authenticationFailed`` for a wrong passcode (counted),
    ///   ``KeychainCoreError/Code/passcodeBackoff`` while the back-off delay runs.
    package func unlock(passcode: String, endsBiometricLockout: Bool = true) throws(KeychainCoreError) {
        let record = try currentRecord()
        guard record.hasPasscode else {
            try keybag.load(record, passcodeKey: nil)
            return
        }
        let key = try verify(passcode, record: record, endsBiometricLockout: endsBiometricLockout)
        try keybag.load(record, passcodeKey: key)
        separateLookupTiersIfNeeded()
    }

    /// Locks the keychain for this process: `WhenUnlocked` classes become unreadable until the next unlock.
    ///
    /// Without a passcode there is nothing to lock with, as on a device without one.
    package func lock() throws(KeychainCoreError) {
        if try hasPasscode() {
            keybag.lock()
        }
    }

    // MARK: Changing the passcode

    /// Sets a passcode where there is none, or changes it (the current passcode is then required).
    ///
    /// Only the class keys are re-wrapped; items are not touched. A first passcode creates the
    /// `WhenPasscodeSetThisDeviceOnly` class key.
    package func setPasscode(_ newPasscode: String, current: String?) throws(KeychainCoreError) {
        guard !newPasscode.isEmpty else {
            throw KeychainCoreError(.invalidParameter, "the passcode is empty")
        }
        let record = try currentRecord()
        let (oldPasscodeKey, currentKeys) = try classKeys(of: record, currentPasscode: current)
        var keys = currentKeys
        if keys[.whenPasscodeSetThisDeviceOnly] == nil {
            keys[.whenPasscodeSetThisDeviceOnly] = SymmetricKey(size: .bits256)
        }
        var updated = record
        updated.passcodeSalt = Self.randomSalt()
        updated.kdf = passcodeKDF
        updated.hasPasscode = true
        let passcodeKey = try keybag.passcodeKey(for: newPasscode, record: updated)
        updated.wrappedClassKeys = try wrap(keys, passcodeKey: passcodeKey)
        let saved = try replace(record, with: updated, deletingPasscodeOnlyItemsWith: nil) { db throws(KeychainCoreError) in
            // The passcode lock keeps its key pair (items sealed to it stay readable); only its wrapping changes.
            let locks = try LockKeyRecord.fetchAll(db, integrityKey: keybag.integrityKey)
            if let existing = locks[.passcode], let oldPasscodeKey {
                try existing.rewrapped(from: oldPasscodeKey, to: passcodeKey).save(db, integrityKey: keybag.integrityKey)
            } else {
                try LockKeyRecord.make(.passcode, wrappingKey: passcodeKey).save(db, integrityKey: keybag.integrityKey)
            }
            if locks[.biometryAny] == nil, let biometryWrappingKey = keys[Self.biometryWrappingClass] {
                try LockKeyRecord.make(.biometryAny, wrappingKey: biometryWrappingKey).save(db, integrityKey: keybag.integrityKey)
            }
        }
        try keybag.load(saved, passcodeKey: passcodeKey)
        separateLookupTiersIfNeeded()
    }

    /// The class whose key wraps the biometric locks: available after the first unlock, never
    /// without the passcode, so a copied keychain does not give them up (and, as on iOS, biometry
    /// needs the passcode once after every restart).
    static let biometryWrappingClass = ProtectionClass.afterFirstUnlockThisDeviceOnly

    /// Removes the passcode. `WhenPasscodeSetThisDeviceOnly` items are destroyed, as on iOS.
    package func removePasscode(current: String) throws(KeychainCoreError) {
        let record = try currentRecord()
        guard record.hasPasscode else {
            throw KeychainCoreError(.notAvailable, "no passcode is set")
        }
        let currentKeys = try classKeys(of: record, currentPasscode: current).keys
        var keys = currentKeys
        keys[.whenPasscodeSetThisDeviceOnly] = nil
        var updated = record
        updated.passcodeSalt = nil
        updated.hasPasscode = false
        updated.wrappedClassKeys = try wrap(keys, passcodeKey: nil)
        let saved = try replace(record, with: updated, deletingPasscodeOnlyItemsWith: currentKeys) { db throws(KeychainCoreError) in
            // Passcode and biometry constraints die with the passcode, as on iOS.
            try LockKeyRecord.delete(AccessPolicy.Lock.allCases, in: db)
        }
        try keybag.load(saved, passcodeKey: nil)
        separateLookupTiersIfNeeded()
    }

    // MARK: Private

    func currentRecord() throws(KeychainCoreError) -> KeybagRecord {
        guard let record = try store.read({ db throws(KeychainCoreError) in try KeybagRecord.fetch(db) }) else {
            throw KeychainCoreError(.decode, "the keybag is missing")
        }
        return record
    }

    /// Every class key of `record`, verifying the current passcode if one is set.
    private func classKeys(
        of record: KeybagRecord,
        currentPasscode: String?
    ) throws(KeychainCoreError) -> (passcodeKey: SymmetricKey?, keys: [ProtectionClass: SymmetricKey]) {
        var passcodeKey: SymmetricKey?
        if record.hasPasscode {
            guard let currentPasscode else {
                throw KeychainCoreError(.authenticationFailed, "the current passcode is required")
            }
            passcodeKey = try verify(currentPasscode, record: record)
        }
        return (passcodeKey, try keybag.classKeys(in: record, passcodeKey: passcodeKey))
    }

    private func wrap(
        _ keys: [ProtectionClass: SymmetricKey],
        passcodeKey: SymmetricKey?
    ) throws(KeychainCoreError) -> [ProtectionClass: Data] {
        var wrapped: [ProtectionClass: Data] = [:]
        for (protection, key) in keys {
            let wrappingKey = protection.isPasscodeProtected ? passcodeKey ?? keybag.deviceKey : keybag.deviceKey
            wrapped[protection] = try SealedBox.wrap(
                key,
                using: wrappingKey,
                binding: KeybagRecord.classKeyBinding(protection).bytes
            )
        }
        return wrapped
    }

    /// Writes `updated` if the keybag is still `original` (another process may have changed it);
    /// returns what was written. The protected look-up key is kept as stored: no passcode change
    /// touches it, and another process may have added it meanwhile. With `classKeys` (those of the
    /// current keybag), the `WhenPasscodeSetThisDeviceOnly` items are deleted, found with the tiers
    /// of the keybag as stored now.
    private func replace(
        _ original: KeybagRecord,
        with updated: KeybagRecord,
        deletingPasscodeOnlyItemsWith classKeys: [ProtectionClass: SymmetricKey]?,
        alsoWrite: (Database) throws(KeychainCoreError) -> Void
    ) throws(KeychainCoreError) -> KeybagRecord {
        try store.write { db throws(KeychainCoreError) in
            guard let stored = try KeybagRecord.fetch(db), stored.passcodeSalt == original.passcodeSalt,
                stored.hasPasscode == original.hasPasscode
            else {
                throw KeychainCoreError(.authenticationFailed, "the passcode was changed by another process; try again")
            }
            var saved = updated
            saved.sealedProtectedLookupKey = stored.sealedProtectedLookupKey
            try saved.save(db)
            try alsoWrite(db)
            if let classKeys {
                let tiers = try keybag.lookupTiers(of: stored, classKeys: classKeys)
                for itemClass in ItemClass.storedClasses {
                    try deleteRows(of: .whenPasscodeSetThisDeviceOnly, in: itemClass, tiers: tiers, db: db)
                }
            }
            return saved
        }
    }

    /// Deletes every row of `protection` in `itemClass`'s table: by tag where the tier has one tag
    /// per class, row by row where the tag covers the row.
    private func deleteRows(
        of protection: ProtectionClass,
        in itemClass: ItemClass,
        tiers: LookupTiers,
        db: Database
    ) throws(KeychainCoreError) {
        let table = itemClass.tableName
        guard let tier = tiers.tier(for: protection) else {
            throw KeychainCoreError(.interactionNotAllowed, "the \(protection.rawValue) class is locked")
        }
        do {
            if let tag = tier.sharedTag(protection, table: table) {
                try db.execute(sql: "DELETE FROM \(table) WHERE pdmn = ?", arguments: [tag])
                return
            }
            var doomed: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid, uuid, pdmn FROM \(table)")
            while let row = try rows.next() {
                guard let rowID = row[0] as Int64?, let identifier = row[1] as Data?, let tag = row[2] as Data?,
                    tier.protection(forTag: tag, table: table, identifier: identifier) == protection
                else { continue }
                doomed.append(rowID)
            }
            for rowID in doomed {
                try db.execute(sql: RowSQL.of(itemClass).deleteByRowID, arguments: [rowID])
            }
        } catch {
            throw SQLiteItemStore.translate(error, "cannot delete the \(protection.rawValue) items")
        }
    }

    /// Checks a passcode against the keybag, with Apple's back-off; returns the passcode key.
    ///
    /// With `endsBiometricLockout`, a correct passcode also ends a biometric lockout, as entering
    /// the passcode does on iOS.
    func verify(
        _ passcode: String,
        record: KeybagRecord,
        endsBiometricLockout: Bool = false
    ) throws(KeychainCoreError) -> SymmetricKey {
        let now = clock()
        let backoff = try passcodeBackoff()
        if let allowed = backoff.nextAttemptAllowed(at: now) {
            let seconds = Int(allowed.timeIntervalSince(now).rounded(.up))
            throw KeychainCoreError(
                .passcodeBackoff,
                "too many wrong passcodes (\(backoff.failures)); try again in \(seconds) s"
            )
        }
        let key = try keybag.passcodeKey(for: passcode, record: record)
        let correct = record.wrappedClassKeys[.whenUnlocked].map { wrapped in
            (try? SealedBox.unwrap(
                wrapped,
                using: key,
                binding: KeybagRecord.classKeyBinding(.whenUnlocked).bytes
            )) != nil
        } ?? false
        try store.write { db throws(KeychainCoreError) in
            do {
                if correct {
                    try db.execute(sql: "DELETE FROM passcode_attempts")
                    if endsBiometricLockout { try db.execute(sql: "DELETE FROM biometry_attempts") }
                } else {
                    try db.execute(
                        sql: """
                            INSERT INTO passcode_attempts (id, failures, last_failure) VALUES (1, 1, ?)
                            ON CONFLICT(id) DO UPDATE SET failures = failures + 1, last_failure = excluded.last_failure
                            """,
                        arguments: [now.timeIntervalSince1970]
                    )
                }
            } catch {
                throw SQLiteItemStore.translate(error, "cannot record a passcode attempt")
            }
        }
        guard correct else {
            throw KeychainCoreError(.authenticationFailed, "the passcode is not correct")
        }
        return key
    }

    private static func fetchBackoff(_ db: Database) throws(KeychainCoreError) -> PasscodeBackoff {
        do {
            guard let row = try Row.fetchOne(db, sql: "SELECT failures, last_failure FROM passcode_attempts") else {
                return PasscodeBackoff()
            }
            let last = (row["last_failure"] as Double?).map { Date(timeIntervalSince1970: $0) }
            return PasscodeBackoff(failures: row["failures"] ?? 0, lastFailure: last)
        } catch {
            throw SQLiteItemStore.translate(error, "cannot read the passcode attempts")
        }
    }

    private static func randomSalt() -> Data {
        SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
    }
}
