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

/// The class keys this process has unlocked, and the keys derived from the device secret.
///
/// Lock states follow iOS: with no passcode every class is available. With a passcode, a new
/// process starts "before first unlock" with only `dk` and `dku`; unlocking adds the others;
/// locking forgets `ak`, `aku` and `akpu` but keeps `ck` and `cku` until the process ends.
package final class Keybag: Sendable {
    // MARK: Properties

    /// The device key: wraps `dk`, `dku`, the look-up key, and every class key while no passcode is set.
    package let deviceKey: SymmetricKey
    /// The hasher of the searchable columns of the device tier (see ``LookupTier``).
    package let lookup: LookupHasher

    private let deviceSecret: SymmetricKey
    /// The TPM that binds the passcode, if the keychain has one.
    private var hardware: (any HardwareRoot)? { hardwareState.withLock { $0 } }
    private let hardwareState: LockedState<(any HardwareRoot)?>
    private let accessGroups: [String]
    /// The device tier, and the same key as the only tier of a keychain from before the tiers.
    private let deviceTier: LookupTier
    private let sharedTier: LookupTier
    private let state: LockedState<State>

    /// What this process has unlocked.
    private struct State {
        var classKeys: [ProtectionClass: SymmetricKey] = [:]
        var tiers: LookupTiers
        /// The sealed protected look-up key that `tiers.protected` came from.
        var sealedProtectedLookupKey: Data?
        /// The stored keybag the state follows: class keys of another epoch are stale.
        var generation: Int64 = -1
        var secretIdentifier = Data()
        var epoch = Data()
        var record: KeybagRecord
    }

    // MARK: Initialization

    /// - Parameters:
    ///   - deviceSecret: The device secret, from which the device key is derived.
    ///   - stored: The keybag as stored; the class keys that open without a passcode are unwrapped.
    ///   - accessGroups: The process's access groups, whose `agrp` hashes each tier precomputes.
    ///   - hardware: The TPM that binds the passcode, if the keychain has one.
    /// - Throws: ``KeychainError/Code/decode`` when the keybag does not belong to `deviceSecret` or a
    ///   key it holds is damaged.
    package init(
        deviceSecret: SymmetricKey,
        stored: StoredKeybag,
        accessGroups: [String] = [],
        hardware: (any HardwareRoot)? = nil
    ) throws(KeychainError) {
        self.deviceSecret = deviceSecret
        hardwareState = LockedState(hardware)
        self.accessGroups = accessGroups
        let record = stored.record
        deviceKey = PasscodeKDF.deviceKey(deviceSecret: deviceSecret, salt: record.deviceSalt)
        do {
            lookup = LookupHasher(
                key: try AtRestCipher.unwrap(
                    record.sealedLookupKey,
                    using: deviceKey,
                    binding: KeybagRecord.lookupKeyBinding.bytes
                )
            )
        } catch {
            throw KeychainError(.decode, "the keybag does not belong to this device secret", cause: error)
        }
        deviceTier = LookupTier(kind: .device, hasher: lookup, accessGroups: accessGroups)
        sharedTier = deviceTier.covering(.shared)
        state = LockedState(State(tiers: LookupTiers(shared: sharedTier), record: record))
        try load(stored, passcodeKey: nil)
    }

    /// A new keybag for a new keychain: fresh class keys and look-up key, no passcode.
    package static func makeRecord(deviceSecret: SymmetricKey, kdf: PasscodeKDF) throws(KeychainError) -> KeybagRecord {
        let deviceSalt = Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        let deviceKey = PasscodeKDF.deviceKey(deviceSecret: deviceSecret, salt: deviceSalt)
        var keys: [ProtectionClass: SymmetricKey] = [:]
        var wrapped: [ProtectionClass: Data] = [:]
        for protection in ProtectionClass.allCases where protection != .whenPasscodeSetThisDeviceOnly {
            let key = SymmetricKey(size: .bits256)
            keys[protection] = key
            wrapped[protection] = try AtRestCipher.wrap(
                key,
                using: deviceKey,
                binding: KeybagRecord.classKeyBinding(protection).bytes
            )
        }
        return KeybagRecord(
            deviceSalt: deviceSalt,
            passcodeSalt: nil,
            kdf: kdf,
            hasPasscode: false,
            sealedLookupKey: try AtRestCipher.wrap(
                SymmetricKey(size: .bits256),
                using: deviceKey,
                binding: KeybagRecord.lookupKeyBinding.bytes
            ),
            sealedProtectedLookupKey: try sealProtectedLookupKey(
                SymmetricKey(size: .bits256),
                classKey: keys[protectedLookupWrappingClass]
            ),
            wrappedClassKeys: wrapped
        )
    }

    // MARK: Look-up tiers

    /// The class whose key seals the protected look-up key: available from the first unlock until
    /// the process ends, and never without the passcode.
    package static let protectedLookupWrappingClass = ProtectionClass.afterFirstUnlockThisDeviceOnly

    /// Seals a new protected look-up key with the `cku` class key.
    package static func sealProtectedLookupKey(
        _ key: SymmetricKey,
        classKey: SymmetricKey?
    ) throws(KeychainError) -> Data {
        guard let classKey else {
            throw KeychainError(.interactionNotAllowed, "the \(protectedLookupWrappingClass.rawValue) class is locked")
        }
        return try AtRestCipher.wrap(key, using: classKey, binding: KeybagRecord.protectedLookupKeyBinding.bytes)
    }

    /// The protected tier that `sealed` holds, opened with the `cku` class key.
    private func protectedTier(sealed: Data, classKey: SymmetricKey) throws(KeychainError) -> LookupTier {
        do {
            let key = try AtRestCipher.unwrap(
                sealed,
                using: classKey,
                binding: KeybagRecord.protectedLookupKeyBinding.bytes
            )
            return LookupTier(kind: .protected, hasher: LookupHasher(key: key), accessGroups: accessGroups)
        } catch {
            throw KeychainError(.decode, "the keybag's protected look-up key is damaged", cause: error)
        }
    }

    /// The tiers this process can hash with now.
    package var lookupTiers: LookupTiers {
        state.withLock { $0.tiers }
    }

    /// The tiers that `record` and `classKeys` give (for an operation that holds class keys this
    /// process has not loaded, such as removing the passcode).
    package func lookupTiers(
        of record: KeybagRecord,
        classKeys: [ProtectionClass: SymmetricKey]
    ) throws(KeychainError) -> LookupTiers {
        guard let sealed = record.sealedProtectedLookupKey else { return LookupTiers(shared: sharedTier) }
        guard let classKey = classKeys[Self.protectedLookupWrappingClass] else {
            return LookupTiers(device: deviceTier, protected: nil)
        }
        return LookupTiers(device: deviceTier, protected: try protectedTier(sealed: sealed, classKey: classKey))
    }

    // MARK: Unlocking

    /// Unwraps the class keys that `stored` allows with the given passcode key (or none).
    ///
    /// Classes wrapped by the device key are always unwrapped; passcode-wrapped classes only with
    /// `passcodeKey`, else kept from before if their epoch is unchanged. A wrong passcode key throws
    /// ``KeychainError/Code/authenticationFailed`` and changes nothing.
    /// - Returns: Whether it loaded (`false`: this process already follows a newer keybag).
    @discardableResult
    package func load(_ stored: StoredKeybag, passcodeKey: SymmetricKey?) throws(KeychainError) -> Bool {
        let record = stored.record
        let keys = try classKeys(in: record, passcodeKey: passcodeKey)
        return try state.withLock { (current: inout State) throws(KeychainError) -> Bool in
            guard stored.generation >= current.generation else { return false }
            if current.epoch != record.classKeyEpoch {
                current.classKeys = [:]
                current.tiers = LookupTiers(shared: sharedTier)
                current.sealedProtectedLookupKey = nil
            }
            current.classKeys.merge(keys) { _, new in new }
            // A class the record no longer has (akpu after the passcode was removed) is gone.
            for protection in current.classKeys.keys where record.wrappedClassKeys[protection] == nil {
                current.classKeys[protection] = nil
            }
            current.generation = stored.generation
            current.secretIdentifier = stored.secretIdentifier
            current.epoch = record.classKeyEpoch
            current.record = record
            try updateTiers(&current, from: record)
            return true
        }
    }

    /// Follows a keybag that another process (or this one) wrote: keeps what this process has
    /// unlocked unless the class keys were replaced, takes up the rest.
    ///
    /// An older keybag than the one followed is ignored.
    package func adopt(_ stored: StoredKeybag) throws(KeychainError) {
        guard stored.generation > generation else { return }
        _ = try load(stored, passcodeKey: nil)
    }

    /// The generation of the stored keybag this process follows.
    package var generation: Int64 {
        state.withLock { $0.generation }
    }

    /// The keybag record this process follows.
    package var record: KeybagRecord {
        state.withLock { $0.record }
    }

    /// The stored keybag this process follows.
    package var stored: StoredKeybag {
        state.withLock {
            StoredKeybag(generation: $0.generation, secretIdentifier: $0.secretIdentifier, record: $0.record)
        }
    }

    /// Sets the tiers that `record` and the unlocked class keys give.
    ///
    /// A keychain never goes back from separate tiers to one: a record without the protected key is
    /// then a stale read.
    private func updateTiers(_ current: inout State, from record: KeybagRecord) throws(KeychainError) {
        guard let sealed = record.sealedProtectedLookupKey else {
            if !current.tiers.areSeparate {
                current.tiers = LookupTiers(shared: sharedTier)
            }
            return
        }
        if current.tiers.areSeparate, current.tiers.protected != nil, current.sealedProtectedLookupKey == sealed {
            return
        }
        guard let classKey = current.classKeys[Self.protectedLookupWrappingClass] else {
            current.tiers = LookupTiers(device: deviceTier, protected: nil)
            current.sealedProtectedLookupKey = nil
            return
        }
        current.tiers = LookupTiers(
            device: deviceTier,
            protected: try protectedTier(sealed: sealed, classKey: classKey)
        )
        current.sealedProtectedLookupKey = sealed
    }

    /// The class keys of `record` that the given passcode key (or none) opens.
    ///
    /// Device-wrapped classes always open; passcode-wrapped ones only with `passcodeKey`.
    /// - Throws: ``KeychainError/Code/authenticationFailed`` when `passcodeKey` is wrong,
    ///   ``KeychainError/Code/decode`` when a device-wrapped key is damaged.
    package func classKeys(
        in record: KeybagRecord,
        passcodeKey: SymmetricKey?
    ) throws(KeychainError) -> [ProtectionClass: SymmetricKey] {
        var keys: [ProtectionClass: SymmetricKey] = [:]
        for (protection, wrapped) in record.wrappedClassKeys {
            let usesPasscode = record.hasPasscode && protection.isPasscodeProtected
            let wrappingKey: SymmetricKey
            if usesPasscode {
                guard let passcodeKey else { continue }
                wrappingKey = passcodeKey
            } else {
                wrappingKey = deviceKey
            }
            do {
                keys[protection] = try AtRestCipher.unwrap(
                    wrapped,
                    using: wrappingKey,
                    binding: KeybagRecord.classKeyBinding(protection).bytes
                )
            } catch {
                if usesPasscode {
                    throw KeychainError(.authenticationFailed, "the passcode is not correct")
                }
                throw KeychainError(.decode, "the keybag's \(protection.rawValue) class key is damaged", cause: error)
            }
        }
        return keys
    }

    /// Derives the passcode key of `record` for `passcode`.
    package func passcodeKey(
        for passcode: String,
        record: KeybagRecord,
        minimum: PasscodeKDF
    ) throws(KeychainError) -> SymmetricKey {
        guard let salt = record.passcodeSalt else {
            throw KeychainError(.decode, "the keybag has a passcode but no passcode salt")
        }
        try record.kdf.requireAtLeast(minimum, what: "the keybag's passcode KDF")
        let derived = try record.kdf.deriveKey(passcode: passcode, salt: salt, deviceSecret: deviceSecret)
        guard let boundKey = record.hardwarePasscodeKey else { return derived }
        guard let hardware else {
            throw KeychainError(.notAvailable, "the keychain's passcode is bound to a TPM this process does not use")
        }
        let answer = try hardware.answer(
            of: boundKey,
            authorization: Self.hardwareAuthorization(derived),
            challenge: salt
        )
        return Self.boundPasscodeKey(derived, answer: answer)
    }

    /// Binds the passcode to `hardware` from now on (the keychain moved to or from a TPM).
    func move(to hardware: (any HardwareRoot)?) {
        hardwareState.withLock { $0 = hardware }
    }

    /// The key of a new passcode, set into `record` (whose salt and KDF are the new ones): with a
    /// TPM (`target`, by default the keychain's), a new passcode key is made in it, authorized by a
    /// value derived from the passcode, and its answer enters the key, so that checking a guess
    /// needs that TPM.
    package func newPasscodeKey(
        for passcode: String,
        record: inout KeybagRecord,
        in target: HardwareTarget = .current
    ) throws(KeychainError) -> SymmetricKey {
        record.hardwarePasscodeKey = nil
        let derived = try passcodeKey(for: passcode, record: record, minimum: record.kdf)
        let hardware: (any HardwareRoot)? =
            switch target {
            case .current: hardware
            case .moving(let other): other
            }
        guard let hardware, let salt = record.passcodeSalt else { return derived }
        let authorization = Self.hardwareAuthorization(derived)
        let boundKey = try hardware.makePasscodeKey(authorization: authorization)
        record.hardwarePasscodeKey = boundKey
        let answer = try hardware.answer(of: boundKey, authorization: authorization, challenge: salt)
        return Self.boundPasscodeKey(derived, answer: answer)
    }

    /// Where a new passcode is bound.
    package enum HardwareTarget {
        /// The keychain's store.
        case current
        /// The store the keychain is moving to (`nil`: the files).
        case moving((any HardwareRoot)?)
    }

    /// The authorization of the TPM's passcode key: derived from the passcode (through scrypt)
    /// and the device secret.
    private static func hardwareAuthorization(_ derived: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: derived,
            info: Data("swift-keychain tpm passcode authorization v1".utf8),
            outputByteCount: 32
        )
    }

    /// The passcode key of a TPM-bound passcode: the derived key and the TPM's answer together.
    private static func boundPasscodeKey(_ derived: SymmetricKey, answer: SymmetricKey) -> SymmetricKey {
        var material = [UInt8]()
        derived.withUnsafeBytes { material.append(contentsOf: $0) }
        answer.withUnsafeBytes { material.append(contentsOf: $0) }
        defer { PrivateFile.zero(&material) }
        return HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: material),
            info: Data("swift-keychain tpm passcode key v1".utf8),
            outputByteCount: 32
        )
    }

    /// Derives an application password's key for one item's wrapping, with that wrapping's own
    /// salt and cost (or, for wrappings from before those, the keychain's legacy ones).
    package func applicationPasswordKey(
        for password: [UInt8],
        parameters: ApplicationPasswordParameters,
        minimum: PasscodeKDF
    ) throws(KeychainError) -> SymmetricKey {
        try parameters.kdf.requireAtLeast(minimum, what: "an item's application-password KDF")
        return try parameters.kdf.deriveKey(
            secret: password,
            salt: parameters.salt,
            deviceSecret: deviceSecret,
            purpose: "application password"
        )
    }

    /// Forgets the keys of the classes that lock with the device (`ak`, `aku`, `akpu`).
    ///
    /// The protected look-up tier stays, as the `cku` key that opens it does.
    package func lock() {
        state.withLock { current in
            for protection in ProtectionClass.allCases where protection.availability == .whenUnlocked {
                current.classKeys[protection] = nil
            }
        }
    }

    // MARK: Class keys

    /// The key of a class, or `nil` while it is locked.
    package func classKey(_ protection: ProtectionClass) -> SymmetricKey? {
        state.withLock { $0.classKeys[protection] }
    }

    /// Whether the `ak` class is unlocked.
    package var isUnlocked: Bool {
        classKey(.whenUnlocked) != nil
    }

    /// Whether the classes that stay open after the first unlock are available.
    package var hasBeenUnlocked: Bool {
        classKey(.afterFirstUnlock) != nil
    }
}
