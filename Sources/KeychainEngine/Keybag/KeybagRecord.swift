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
package import KeychainCore

/// The keybag as stored: salts, KDF parameters, the sealed look-up keys, the wrapped class keys
/// and the constraint keys.
///
/// The whole record is serialized and sealed as one AES-256-GCM box by ``KeybagVault``, under a
/// key derived from the device secret and the keybag secret; none of its fields is stored on its
/// own, so none can be altered, emptied or replaced by an older copy without the box failing.
package struct KeybagRecord: Sendable {
    package var deviceSalt: Data
    package var passcodeSalt: Data?
    /// The passcode KDF's parameters.
    package var kdf: PasscodeKDF
    package var hasPasscode: Bool
    package var sealedLookupKey: Data
    /// The protected tier's look-up key, sealed by the `cku` class key; `nil` in a keychain from
    /// before the tiers, until its first unlock (see ``LookupTier``).
    package var sealedProtectedLookupKey: Data?
    /// Class keys wrapped by the device key (`dk`, `dku`, and the others while no passcode is set)
    /// or by the passcode key.
    package var wrappedClassKeys: [ProtectionClass: Data]
    /// Random bytes that change whenever the passcode-protected class keys are replaced, so that
    /// every process drops the keys it holds from before.
    package var classKeyEpoch: Data
    /// The constraint keys (passcode, biometry), by kind.
    package var constraints: [AccessPolicy.Constraint: ConstraintKeyRecord]
    /// The keys that seal key blobs (CryptoKit's Secure Enclave keys), by class and generation (the
    /// index), each wrapped by its class key; the last one seals new blobs.
    ///
    /// The first is made when a class first seals a blob. When the class keys are replaced, every
    /// generation is re-wrapped — the blobs live outside the keychain and cannot be sealed again —
    /// and a new generation begins, so that a copy of the keybag from before opens no blob made
    /// since.
    package var wrappedBlobKeys: [ProtectionClass: [Data]] = [:]
    /// The KDF and salt of application-password wrappings made before each carried its own.
    package var legacyApplicationPassword: LegacyApplicationPassword?
    /// A keychain converted from the unsealed keybag with a passcode set: its class keys may be
    /// older than the passcode, so they are replaced at the next unlock.
    package var needsClassKeyRotation: Bool
    /// The passcode's key in the keychain's TPM (its blob), or `nil` without a TPM.
    ///
    /// A passcode is checked only with that TPM's answer, under an authorization derived from the passcode.
    package var hardwarePasscodeKey: Data?
    /// Set by `security tpm remove`: the keychain stays in files even where a TPM is (no move at unlock).
    package var staysInFiles = false

    package init(
        deviceSalt: Data,
        passcodeSalt: Data? = nil,
        kdf: PasscodeKDF,
        hasPasscode: Bool = false,
        sealedLookupKey: Data,
        sealedProtectedLookupKey: Data? = nil,
        wrappedClassKeys: [ProtectionClass: Data],
        classKeyEpoch: Data = KeybagRecord.newEpoch(),
        constraints: [AccessPolicy.Constraint: ConstraintKeyRecord] = [:],
        legacyApplicationPassword: LegacyApplicationPassword? = nil,
        needsClassKeyRotation: Bool = false
    ) {
        self.deviceSalt = deviceSalt
        self.passcodeSalt = passcodeSalt
        self.kdf = kdf
        self.hasPasscode = hasPasscode
        self.sealedLookupKey = sealedLookupKey
        self.sealedProtectedLookupKey = sealedProtectedLookupKey
        self.wrappedClassKeys = wrappedClassKeys
        self.classKeyEpoch = classKeyEpoch
        self.constraints = constraints
        self.legacyApplicationPassword = legacyApplicationPassword
        self.needsClassKeyRotation = needsClassKeyRotation
    }

    /// New random epoch bytes.
    package static func newEpoch() -> Data {
        SymmetricKey(size: .bits128).withUnsafeBytes { Data($0) }
    }

    // MARK: Associated data

    static func classKeyBinding(_ protection: ProtectionClass) -> AssociatedData {
        AssociatedData("swift-keychain/v1/class-key").appending(protection.rawValue)
    }

    static func blobKeyBinding(_ protection: ProtectionClass, generation: Int) -> AssociatedData {
        AssociatedData("swift-keychain/v1/blob-key").appending(protection.rawValue).appending(String(generation))
    }

    static let lookupKeyBinding = AssociatedData("swift-keychain/v1/lookup-key")

    static let protectedLookupKeyBinding = AssociatedData("swift-keychain/v1/protected-lookup-key")
}

/// How application-password wrappings were derived before each carried its own salt and cost:
/// one salt per keychain and the keybag's KDF parameters at the time.
package struct LegacyApplicationPassword: Hashable, Sendable {
    package var kdf: PasscodeKDF
    package var salt: Data

    package init(kdf: PasscodeKDF, salt: Data) {
        self.kdf = kdf
        self.salt = salt
    }
}
