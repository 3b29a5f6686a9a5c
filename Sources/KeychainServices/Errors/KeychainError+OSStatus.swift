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
@_exported import Security
#else
import KeychainCore

extension KeychainError {
    /// The `OSStatus` that Apple's Security framework returns for this error: the one mapping from
    /// engine errors to result codes.
    var osStatus: OSStatus {
        switch code.kind {
        case .invalidParameter: errSecParam
        case .noSuchClass: errSecNoSuchClass
        case .noSuchAttribute: errSecNoSuchAttr
        case .duplicateItem: errSecDuplicateItem
        case .itemNotFound: errSecItemNotFound
        case .interactionNotAllowed: errSecInteractionNotAllowed
        case .notAvailable: errSecNotAvailable
        case .authenticationFailed: errSecAuthFailed
        case .userCanceled: errSecUserCanceled
        case .passcodeBackoff: errSecAuthFailed
        case .missingEntitlement: errSecMissingEntitlement
        case .decode: errSecDecode
        case .io: errSecIO
        case .unimplemented: errSecUnimplemented
        case .dataTooLarge: errSecDataTooLarge
        case .internalInconsistency: errSecInternalComponent
        case .itemInvalidated: errSecDecode
        case .constraintDamaged: errSecDecode
        case .invalidKeychain: errSecInvalidKeychain
        case .staleSnapshot: errSecIO
        case .quotaExceeded: errSecQuotaExceeded
        case .authenticationNeeded: errSecAuthNeeded  // private; callers evaluate and retry
        }
    }
}
#endif
