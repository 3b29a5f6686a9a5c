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
    /// Moves the keychain's secrets to `target`: from the files into a TPM, or back.
    ///
    /// The device secret keeps its value (sealed by the TPM, or written to `device.key`), so every
    /// key derived from it — application passwords' among them — stays valid. With a passcode (which
    /// is required and checked), the passcode is bound to the target (a new passcode key in the TPM,
    /// or none). Every class key is replaced and the items sealed again (`progress` reports the
    /// rows), so that a copy of the keychain from before the move opens nothing written after it;
    /// a move to files is remembered, so that no unlock moves the keychain back into a TPM. The
    /// keybag is sealed under a keybag secret of the target in the same transaction; once it has
    /// committed, the target's device secret is installed and the previous store erased (NV indices
    /// undefined, files overwritten and removed). A crash at any point leaves a keychain that opens
    /// with one of the two (`Keychain` tries both).
    package func moveSecrets(
        to target: SecretStores,
        passcode: String?,
        progress: RekeyProgress? = nil
    ) throws(KeychainError) {
        let source = stores
        let stored = try currentStored()
        let (oldPasscodeKey, currentKeys) = try classKeys(of: stored.record, currentPasscode: passcode)
        let hardware = target.device.hardwareRoot
        // Every class key is replaced, the Always classes' too: a copy of the keychain from before
        // the move (with its device secret, which keeps its value) opens nothing written after it.
        let newKeys = currentKeys.mapValues { _ in SymmetricKey(size: .bits256) }
        var bound = stored.record
        var passcodeKey: SymmetricKey?
        if stored.record.hasPasscode, let passcode {
            bound.passcodeSalt = Self.randomSalt()
            bound.kdf = passcodeKDF
            passcodeKey = try keybag.newPasscodeKey(for: passcode, record: &bound, in: .moving(hardware))
        }
        let staged = try target.device.stage(keeping: vault.deviceSecret)
        let targetVault = KeybagVault(deviceSecret: vault.deviceSecret, secrets: target.keybag)
        var secret: KeybagSecret?
        let result = Result { () throws(KeychainError) -> StoredKeybag in
            try store.write { db throws(KeychainError) -> StoredKeybag in
                let current = try refreshKeybag(in: db)
                try Self.requireUnchanged(current, since: stored)
                try vault.prepareWrite(current)
                target.keybag.discardStaged(except: nil)
                var updated = current.record
                if passcodeKey != nil {
                    updated.passcodeSalt = bound.passcodeSalt
                    updated.kdf = bound.kdf
                    updated.hardwarePasscodeKey = bound.hardwarePasscodeKey
                }
                try rekey(
                    &updated,
                    from: currentKeys,
                    to: newKeys,
                    passcodeKey: passcodeKey,
                    oldPasscodeKey: oldPasscodeKey,
                    in: db,
                    progress: progress
                )
                // Every process drops the keys it holds: the Always classes' changed too.
                updated.classKeyEpoch = KeybagRecord.newEpoch()
                // Moved out on request: no unlock moves it back in.
                updated.staysInFiles = hardware == nil
                let generation = current.generation + 1
                let saved = try targetVault.save(updated, generation: generation, in: db)
                secret = saved
                return StoredKeybag(generation: generation, secretIdentifier: saved.identifier, record: updated)
            }
        }
        let moved: StoredKeybag
        switch result {
        case .failure(let error):
            // Nothing committed (or, if the commit happened after all, the next opening finds the
            // keybag in the target and finishes the move).
            throw error
        case .success(let committed):
            moved = committed
        }
        try target.device.install(staged)
        vault.move(to: target.keybag)
        keybag.move(to: hardware)
        storesState.withLock { $0 = target }
        if let secret { finishKeybagWrite(secret) }
        _ = try keybag.load(moved, passcodeKey: passcodeKey)
        if let passcodeKey { sessionResume.remember(passcodeKey, salt: bound.passcodeSalt, at: attempts.clock()) }
        source.keybag.erase()
        source.device.erase()
        try attempts.move(to: hardware)
        logger.notice("the keychain's secrets moved", metadata: ["keychain.store": "\(target.device.storeDescription)"])
    }
}
