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

extension KeychainCoreError {
    /// The `OSStatus` that Apple's Security framework returns for this error: the one mapping from
    /// engine errors to result codes.
    package var osStatus: Int32 {
        switch code.kind {
        case .invalidParameter: -50  // errSecParam
        case .noSuchClass: -25306  // errSecNoSuchClass
        case .noSuchAttribute: -25303  // errSecNoSuchAttr
        case .duplicateItem: -25299  // errSecDuplicateItem
        case .itemNotFound: -25300  // errSecItemNotFound
        case .interactionNotAllowed: -25308  // errSecInteractionNotAllowed
        case .notAvailable: -25291  // errSecNotAvailable
        case .authenticationFailed: -25293  // errSecAuthFailed
        case .userCanceled: -128  // errSecUserCanceled
        case .passcodeBackoff: -25293  // errSecAuthFailed
        case .missingEntitlement: -34018  // errSecMissingEntitlement
        case .decode: -26275  // errSecDecode
        case .io: -36  // errSecIO
        case .unimplemented: -4  // errSecUnimplemented
        case .dataTooLarge: -25302  // errSecDataTooLarge
        case .internalInconsistency: -2070  // errSecInternalComponent
        case .itemInvalidated: -26275  // errSecDecode
        case .lockDamaged: -26275  // errSecDecode
        case .invalidKeychain: -25295  // errSecInvalidKeychain
        case .staleSnapshot: -36  // errSecIO
        case .authenticationNeeded: -25330  // errSecAuthNeeded (private; callers evaluate and retry)
        }
    }
}
