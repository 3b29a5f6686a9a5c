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
// Pure Swift: no Foundation import needed.

/// The kind of credential an app can supply to a context.
///
/// Raw values match Apple's LocalAuthentication framework.
public enum LACredentialType: Int, Sendable {
    /// A password the app supplies for items protected with an application password.
    case applicationPassword = 0
    /// The PIN of a smart card.
    case smartCardPIN = -3
}

#endif
