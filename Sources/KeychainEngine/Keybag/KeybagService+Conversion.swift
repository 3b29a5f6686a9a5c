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
import KeychainCore
import Logging

extension KeybagService {
    // MARK: One-off conversions

    /// Re-keys a keychain that needs it, once every class key is available: one converted from
    /// the unsealed keybag with a passcode (its class keys may predate the passcode), or one from
    /// before the look-up tiers (its protected rows are hashed with the device key).
    ///
    /// A failure is logged; the keychain keeps working and tries again at the next unlock.
    func rekeyIfNeeded(passcodeKey: SymmetricKey?) {
        let record = keybag.record
        guard record.needsClassKeyRotation || record.sealedProtectedLookupKey == nil else { return }
        guard !record.hasPasscode || passcodeKey != nil else { return }
        let result = Result { () throws(KeychainError) in
            try writeKeybag(loading: passcodeKey) { (db, latest) throws(KeychainError) -> (KeybagRecord, Void) in
                var updated = latest.record
                guard updated.needsClassKeyRotation || updated.sealedProtectedLookupKey == nil else {
                    return (updated, ())
                }
                let old = try keybag.classKeys(in: updated, passcodeKey: passcodeKey)
                guard updated.wrappedClassKeys.keys.allSatisfy({ old[$0] != nil }) else {
                    throw KeychainError(.interactionNotAllowed, "re-keying needs every class key")
                }
                var new = old
                if updated.needsClassKeyRotation {
                    for protection in old.keys where protection.isPasscodeProtected {
                        new[protection] = SymmetricKey(size: .bits256)
                    }
                }
                try rekey(
                    &updated,
                    from: old,
                    to: new,
                    passcodeKey: updated.hasPasscode ? passcodeKey : nil,
                    oldPasscodeKey: updated.hasPasscode ? passcodeKey : nil,
                    in: db,
                    progress: nil
                )
                return (updated, ())
            }
        }
        if case .failure(let error) = result {
            logger.error("cannot re-key the keychain", metadata: ["keychain.error": "\(error.message)"])
        }
    }
}
