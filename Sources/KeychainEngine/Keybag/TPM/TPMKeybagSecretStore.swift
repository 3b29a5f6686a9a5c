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

package import Foundation
package import KeychainCore

/// The keybag secrets of a keychain bound to a TPM, in two NV indices of the TPM.
///
/// The current secret is in one, the next in the other during a keybag write. Replacing a secret
/// writes over the index inside the TPM — nothing of it is left on a disk, a journal or a backup.
package struct TPMKeybagSecretStore: KeybagSecretStore {
    package let home: TPMHome

    package init(home: TPMHome) {
        self.home = home
    }

    package var location: String { "the TPM's NV indices named by \(home.path)" }

    package func holdsCurrentSecret() -> Bool {
        PrivateFile.status(home.path, followingLinks: false) != nil
    }

    package func secret(identifiedBy identifier: Data) throws(KeychainError) -> KeybagSecret? {
        for bound in home.known() {
            let slots = try home.slots(of: bound)
            if let secret = slots.compactMap({ $0 }).first(where: { $0.identifier == identifier }) {
                return secret
            }
        }
        return nil
    }

    package func stage(_ secret: KeybagSecret) throws(KeychainError) {
        let bound = try home.active()
        let slots = try home.slots(of: bound)
        guard let empty = slots.firstIndex(where: { $0 == nil }) else {
            throw KeychainError(.internalInconsistency, "both keybag secret slots of the TPM are in use")
        }
        try home.write(secret, slot: empty, of: bound)
    }

    package func promote(_ identifier: Data) throws(KeychainError) {
        let bound = try home.active()
        let slots = try home.slots(of: bound)
        guard slots.contains(where: { $0?.identifier == identifier }) else {
            throw KeychainError(.decode, "the keybag secret is not in the TPM")
        }
        for (slot, secret) in slots.enumerated() where secret != nil && secret?.identifier != identifier {
            try home.write(nil, slot: slot, of: bound)
        }
    }

    package func discard(_ identifier: Data) {
        erase { $0 == identifier }
    }

    package func discardStaged(except identifier: Data?) {
        erase { $0 != identifier }
    }

    package func erase() {
        // The NV indices go with the binding (``TPMDeviceSecretStore/erase()``); zeroed first.
        erase { _ in true }
    }

    // MARK: Private

    /// Erases the active binding's slots whose secret's identifier `matches`.
    private func erase(where matches: (Data) -> Bool) {
        guard let bound = try? home.active(), let slots = try? home.slots(of: bound) else { return }
        for (slot, secret) in slots.enumerated() {
            if let secret, matches(secret.identifier) {
                try? home.write(nil, slot: slot, of: bound)
            }
        }
    }
}
