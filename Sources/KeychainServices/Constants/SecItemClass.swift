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
public import Foundation

// The item class key and its values. Raw values match Apple's Security framework, so
// dictionaries built against either implementation carry the same strings.

// MARK: - Class key

/// A key whose value is the item's class.
nonisolated(unsafe) public let kSecClass: CFString = SecConstantString("class")

// MARK: - Class values

/// The class of generic password items.
nonisolated(unsafe) public let kSecClassGenericPassword: CFString = SecConstantString("genp")

/// The class of internet password items.
nonisolated(unsafe) public let kSecClassInternetPassword: CFString = SecConstantString("inet")

/// The class of certificate items.
nonisolated(unsafe) public let kSecClassCertificate: CFString = SecConstantString("cert")

/// The class of cryptographic key items.
nonisolated(unsafe) public let kSecClassKey: CFString = SecConstantString("keys")

/// The class of identities: a certificate paired with its private key.
nonisolated(unsafe) public let kSecClassIdentity: CFString = SecConstantString("idnt")

#endif
