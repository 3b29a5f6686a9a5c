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

// Search, return-type, value-type and use keys for SecItem queries, plus the key-pair
// attribute keys of SecKeyCreateRandomKey. Raw values match Apple's Security framework.

// MARK: - Search keys

/// A search key whose value is a policy that returned certificates must satisfy.
nonisolated(unsafe) public let kSecMatchPolicy: CFString = SecConstantString("m_Policy")

/// A search key whose value is an array of items the results must come from.
nonisolated(unsafe) public let kSecMatchItemList: CFString = SecConstantString("m_ItemList")

/// A search key whose value is an array of keychains to search.
nonisolated(unsafe) public let kSecMatchSearchList: CFString = SecConstantString("m_SearchList")

/// A search key whose value is an array of issuer names a result's chain must contain.
nonisolated(unsafe) public let kSecMatchIssuers: CFString = SecConstantString("m_Issuers")

/// A search key whose value is an email address a certificate must carry.
nonisolated(unsafe) public let kSecMatchEmailAddressIfPresent: CFString = SecConstantString("m_EmailAddressIfPresent")

/// A search key whose value is a string the subject must contain.
nonisolated(unsafe) public let kSecMatchSubjectContains: CFString = SecConstantString("m_SubjectContains")

/// A search key whose value is a string the subject must start with (macOS only).
nonisolated(unsafe) public let kSecMatchSubjectStartsWith: CFString = SecConstantString("m_SubjectStartsWith")

/// A search key whose value is a string the subject must end with (macOS only).
nonisolated(unsafe) public let kSecMatchSubjectEndsWith: CFString = SecConstantString("m_SubjectEndsWith")

/// A search key whose value is a string the subject must equal (macOS only).
nonisolated(unsafe) public let kSecMatchSubjectWholeString: CFString = SecConstantString("m_SubjectWholeString")

/// A search key whose value is a host: internet passwords whose server is that host or one of its
/// subdomains (`example.com` finds `example.com` and `www.example.com`, not `badexample.com`).
nonisolated(unsafe) public let kSecMatchHostOrSubdomainOfHost: CFString = SecConstantString("m_HostOrSubdomainOfHost")

/// A search key whose boolean value makes string matching ignore case.
nonisolated(unsafe) public let kSecMatchCaseInsensitive: CFString = SecConstantString("m_CaseInsensitive")

/// A search key whose boolean value makes string matching ignore diacritics (macOS only).
nonisolated(unsafe) public let kSecMatchDiacriticInsensitive: CFString = SecConstantString("m_DiacriticInsensitive")

/// A search key whose boolean value makes string matching ignore character width (macOS only).
nonisolated(unsafe) public let kSecMatchWidthInsensitive: CFString = SecConstantString("m_WidthInsensitive")

/// A search key whose boolean value limits results to trusted certificates.
nonisolated(unsafe) public let kSecMatchTrustedOnly: CFString = SecConstantString("m_TrustedOnly")

/// A search key whose value is a date on which results must be valid.
nonisolated(unsafe) public let kSecMatchValidOnDate: CFString = SecConstantString("m_ValidOnDate")

/// A search key whose value caps the number of results.
nonisolated(unsafe) public let kSecMatchLimit: CFString = SecConstantString("m_Limit")

// MARK: - Search limit values

/// A match limit that returns only the first result.
nonisolated(unsafe) public let kSecMatchLimitOne: CFString = SecConstantString("m_LimitOne")

/// A match limit that returns every result.
nonisolated(unsafe) public let kSecMatchLimitAll: CFString = SecConstantString("m_LimitAll")

// MARK: - Return type keys

/// A key whose boolean value asks for each result's data.
nonisolated(unsafe) public let kSecReturnData: CFString = SecConstantString("r_Data")

/// A key whose boolean value asks for each result's attributes.
nonisolated(unsafe) public let kSecReturnAttributes: CFString = SecConstantString("r_Attributes")

/// A key whose boolean value asks for a reference to each result.
nonisolated(unsafe) public let kSecReturnRef: CFString = SecConstantString("r_Ref")

/// A key whose boolean value asks for a persistent reference to each result.
nonisolated(unsafe) public let kSecReturnPersistentRef: CFString = SecConstantString("r_PersistentRef")

// MARK: - Value type keys

/// A key whose value is the item's data, such as a password.
nonisolated(unsafe) public let kSecValueData: CFString = SecConstantString("v_Data")

/// A key whose value is a reference to the item, such as a key or certificate object.
nonisolated(unsafe) public let kSecValueRef: CFString = SecConstantString("v_Ref")

/// A key whose value is a persistent reference to the item.
nonisolated(unsafe) public let kSecValuePersistentRef: CFString = SecConstantString("v_PersistentRef")

// MARK: - Use keys

/// A key whose value is an array of items to act on instead of the keychain.
nonisolated(unsafe) public let kSecUseItemList: CFString = SecConstantString("u_ItemList")

/// A key whose value is the keychain to add the item to (macOS only).
nonisolated(unsafe) public let kSecUseKeychain: CFString = SecConstantString("u_Keychain")

/// A key whose value is the text shown when asking the user to authenticate; deprecated by Apple.
nonisolated(unsafe) public let kSecUseOperationPrompt: CFString = SecConstantString("u_OpPrompt")

/// A key whose boolean value forbids authentication UI; deprecated by Apple.
nonisolated(unsafe) public let kSecUseNoAuthenticationUI: CFString = SecConstantString("u_NoAuthUI")

/// A key whose value says how to handle items that need authentication UI.
nonisolated(unsafe) public let kSecUseAuthenticationUI: CFString = SecConstantString("u_AuthUI")

/// A key whose value is the authentication context to use for the operation.
nonisolated(unsafe) public let kSecUseAuthenticationContext: CFString = SecConstantString("u_AuthCtx")

/// A key whose value is the externalized form of an authentication context (the reference the
/// keychain uses in place of the context itself).
nonisolated(unsafe) public let kSecUseCredentialReference: CFString = SecConstantString("u_CredRef")

/// A key whose boolean value selects the data protection keychain on macOS.
nonisolated(unsafe) public let kSecUseDataProtectionKeychain: CFString = SecConstantString("nleg")

// MARK: - Authentication UI values

/// Authentication UI may be shown; deprecated by Apple.
nonisolated(unsafe) public let kSecUseAuthenticationUIAllow: CFString = SecConstantString("u_AuthUIA")

/// Items that need authentication UI fail the operation instead; deprecated by Apple.
nonisolated(unsafe) public let kSecUseAuthenticationUIFail: CFString = SecConstantString("u_AuthUIF")

/// Items that need authentication UI are left out of the results.
nonisolated(unsafe) public let kSecUseAuthenticationUISkip: CFString = SecConstantString("u_AuthUIS")

// MARK: - Key generation keys

/// A key whose value holds the attributes of a generated private key.
nonisolated(unsafe) public let kSecPrivateKeyAttrs: CFString = SecConstantString("private")

/// A key whose value holds the attributes of a generated public key.
nonisolated(unsafe) public let kSecPublicKeyAttrs: CFString = SecConstantString("public")

#endif
