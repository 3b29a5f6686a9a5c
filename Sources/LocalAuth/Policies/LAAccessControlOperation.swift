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

/// The operation an access control is evaluated for.
///
/// Raw values match Apple's LocalAuthentication framework.
public enum LAAccessControlOperation: Int, Sendable {
    /// Adding an item protected by the access control.
    case createItem = 0
    /// Reading or otherwise using a protected item.
    case useItem = 1
    /// Generating a key protected by the access control.
    case createKey = 2
    /// Signing with a protected private key.
    case useKeySign = 3
    /// Decrypting with a protected private key.
    case useKeyDecrypt = 4
    /// Key agreement with a protected private key.
    case useKeyKeyExchange = 5
}

#endif
