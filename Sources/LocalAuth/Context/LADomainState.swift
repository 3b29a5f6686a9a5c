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

#if KEYCHAIN_IN_SWIFTPM && !KEYCHAIN_IN_SWIFTPM_FORCE_BUILD_API
@_exported import LocalAuthentication
#else
public import Foundation

// A snapshot of the authentication domains (biometry, companions) taken when a context evaluates
// a policy. Only the engine creates these objects, hence the package initializers. Every stored
// property is an immutable `let` of a Sendable type, which is what makes `@unchecked Sendable` sound;
// the conformance is unchecked only because the classes are open NSObject subclasses.

// MARK: - Domain state

/// The state of the authentication domains, as of the last policy evaluation.
open class LADomainState: NSObject, @unchecked Sendable {
    /// The state of biometric authentication.
    public let biometry: LADomainStateBiometry

    /// The state of companion authentication.
    public let companion: LADomainStateCompanion

    /// A combined hash of the state of every domain, or `nil` if no domain has state.
    ///
    /// Compare it with a value saved earlier to learn that some domain changed, without learning how.
    public let stateHash: Data?

    package init(biometry: LADomainStateBiometry, companion: LADomainStateCompanion, stateHash: Data?) {
        self.biometry = biometry
        self.companion = companion
        self.stateHash = stateHash
        super.init()
    }
}

// MARK: - Biometry

/// The state of biometric authentication.
open class LADomainStateBiometry: NSObject, @unchecked Sendable {
    /// The kind of biometry the device supports.
    public let biometryType: LABiometryType

    /// A hash of the enrolled biometric data, or `nil` if nothing is enrolled.
    ///
    /// It changes whenever a finger or face is added or removed, so a saved value shows whether the
    /// enrolment is still the one the app saw.
    public let stateHash: Data?

    package init(biometryType: LABiometryType, stateHash: Data?) {
        self.biometryType = biometryType
        self.stateHash = stateHash
        super.init()
    }
}

// MARK: - Companion

/// The state of companion authentication.
open class LADomainStateCompanion: NSObject, @unchecked Sendable {
    /// The kinds of companion device paired with this device.
    public let availableCompanionTypes: Set<LACompanionType>

    /// A combined hash of the paired companions, or `nil` if none is paired.
    ///
    /// It stays the same as long as the set of paired companions does not change.
    public let stateHash: Data?

    private let stateHashes: [LACompanionType: Data]

    package init(
        availableCompanionTypes: Set<LACompanionType>,
        stateHash: Data?,
        stateHashes: [LACompanionType: Data] = [:]
    ) {
        self.availableCompanionTypes = availableCompanionTypes
        self.stateHash = stateHash
        self.stateHashes = stateHashes
        super.init()
    }

    /// Returns the hash of the paired companions of one kind, or `nil` if none of that kind is paired.
    public func stateHash(for companionType: LACompanionType) -> Data? {
        stateHashes[companionType]
    }
}

#endif
