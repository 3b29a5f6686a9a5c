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
import Logging

extension KeybagService {
    // MARK: Following the stored keybag

    /// The stored keybag as `db`'s transaction sees it; this process follows it (new constraint keys, a new
    /// protected look-up key, class keys replaced by another process).
    ///
    /// - Throws: ``KeychainError/Code/staleSnapshot`` when a read transaction sees an older
    ///   keybag than this process already follows (its rows may be sealed with keys it no longer
    ///   holds); the read runs again.
    func refreshKeybag(in db: Database) throws(KeychainError) -> StoredKeybag {
        let isWriting = !db.configuration.readonly
        // The common case, one integer read: the keybag this process follows is still the stored one.
        let followed = keybag.stored
        if let generation = try KeybagVault.generation(db), generation == followed.generation {
            return followed
        }
        guard let stored = try vault.stored(db, isWriting: isWriting) else {
            throw KeychainError(.decode, "the keybag is missing")
        }
        if stored.generation < keybag.generation {
            throw KeychainError(
                isWriting ? .internalInconsistency : .staleSnapshot,
                "the transaction sees an older keybag than this process follows"
            )
        }
        try keybag.adopt(stored)
        return stored
    }

    /// The stored keybag, in a read transaction of its own.
    func currentStored() throws(KeychainError) -> StoredKeybag {
        try store.read { db throws(KeychainError) in try refreshKeybag(in: db) }
    }

    /// The stored keybag's record.
    package func currentRecord() throws(KeychainError) -> KeybagRecord {
        try currentStored().record
    }

    /// The keybag's constraint keys as `db` sees them, each checked with the key from the `cku` class key
    /// when this process holds it (see ``ConstraintKeyRecord/verified(_:)``).
    func constraints(in db: Database) throws(KeychainError) -> [AccessPolicy.Constraint: ConstraintKeyRecord] {
        verifiedConstraints(of: try refreshKeybag(in: db).record)
    }

    /// The constraint keys of `record`, checked with this process's `cku` class key if it holds it.
    func verifiedConstraints(of record: KeybagRecord) -> [AccessPolicy.Constraint: ConstraintKeyRecord] {
        let key = keybag.classKey(Self.biometryWrappingClass).map {
            ConstraintKeyRecord.authenticationKey(classKey: $0)
        }
        return record.constraints.mapValues { $0.verified(key) }
    }

    // MARK: Writing the keybag

    /// Rewrites the keybag in one write transaction.
    ///
    /// `body` gets the stored keybag (the latest: the transaction holds the write lock) and returns
    /// the new record, after any other writes it needs. The record is sealed under a new keybag
    /// secret; once committed, the write-ahead log is folded and truncated and the previous secret
    /// erased, so no copy of the previous keybag opens again. This process then follows the new
    /// keybag, unwrapping the passcode-protected class keys with `passcodeKey` if given.
    @discardableResult
    func writeKeybag<T>(
        loading passcodeKey: SymmetricKey? = nil,
        _ body: (Database, StoredKeybag) throws(KeychainError) -> (KeybagRecord, T)
    ) throws(KeychainError) -> (StoredKeybag, T) {
        var staged: KeybagSecret?
        let result = Result { () throws(KeychainError) -> (StoredKeybag, T) in
            try store.write { db throws(KeychainError) -> (StoredKeybag, T) in
                let current = try refreshKeybag(in: db)
                try vault.prepareWrite(current)
                let (record, value) = try body(db, current)
                let generation = current.generation + 1
                let secret = try vault.save(record, generation: generation, in: db)
                staged = secret
                return (
                    StoredKeybag(generation: generation, secretIdentifier: secret.identifier, record: record), value
                )
            }
        }
        switch result {
        case .failure(let error):
            // A staged secret stays: the commit may have happened after all (an I/O error while
            // committing is ambiguous); the next keybag write erases it if it did not.
            throw error
        case .success(let (stored, value)):
            if let staged { finishKeybagWrite(staged) }
            _ = try keybag.load(stored, passcodeKey: passcodeKey)
            return (stored, value)
        }
    }

    /// After a keybag write committed: folds and truncates the write-ahead log (it holds the
    /// previous keybag's pages), then makes the new secret current, erasing the previous one.
    func finishKeybagWrite(_ staged: KeybagSecret) {
        if !store.truncateLog() {
            logger.notice("the write-ahead log stays until another process's read ends; it is truncated later")
        }
        do {
            try vault.promote(staged)
        } catch {
            // The staged secret opens the keybag meanwhile; the next keybag write promotes it.
            logger.error("cannot install the new keybag secret", metadata: ["keychain.error": "\(error.message)"])
        }
    }
}
