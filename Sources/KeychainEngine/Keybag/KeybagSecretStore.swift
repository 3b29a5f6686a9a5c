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

/// Where keybag secrets live: the seam between the keybag and the place that can really erase.
///
/// ``FileKeybagSecretStore`` keeps them in a file of the keychain home; a TPM NV index can
/// implement the same contract later, so that erasing the previous secret is done by hardware.
///
/// A keybag write goes: ``stage(_:)`` the new secret, commit the keybag sealed under it, then
/// ``promote(_:)`` it, which erases the previous secret. A crash at any point leaves a secret that
/// opens the committed keybag: either the current one (the commit did not happen) or the staged one
/// (it did). ``discardStaged(except:)`` erases secrets of writes that never committed; it is only
/// called while the database's write lock is held, so that no other write is staging meanwhile.
package protocol KeybagSecretStore: Sendable {
    /// Where the secrets are kept, for messages.
    var location: String { get }

    /// Whether the store holds a current secret (readable or not, even a link).
    func holdsCurrentSecret() -> Bool

    /// The secret with `identifier`, current or staged; `nil` if the store does not hold it.
    func secret(identifiedBy identifier: Data) throws(KeychainError) -> KeybagSecret?

    /// Keeps `secret` beside the current one, durably, before a keybag sealed with it is committed.
    func stage(_ secret: KeybagSecret) throws(KeychainError)

    /// Makes the staged secret `identifier` the current one and erases the one it replaces.
    func promote(_ identifier: Data) throws(KeychainError)

    /// Erases the staged secret `identifier` (its keybag write did not commit).
    func discard(_ identifier: Data)

    /// Erases every staged secret but `identifier`; only while the database's write lock is held.
    func discardStaged(except identifier: Data?)

    /// Erases every secret, current and staged (after the keychain moved to another store).
    func erase()
}
