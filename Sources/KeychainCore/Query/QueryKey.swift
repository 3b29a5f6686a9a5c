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

/// The keys and key values of a `SecItem*` dictionary that the parser reads, by Apple's raw strings.
///
/// The one place these strings are spelled in the engine; a test holds each equal to the mirror's
/// `kSec…` constant. Attribute codes the parser treats specially are here too; every other
/// attribute comes from ``ItemSchema``.
package enum QueryKey {
    // MARK: Class and values

    /// `kSecClass`.
    package static let itemClass = "class"
    /// `kSecValueData`.
    package static let valueData = "v_Data"
    /// `kSecValuePersistentRef`.
    package static let valuePersistentReference = "v_PersistentRef"
    /// `kSecValueRef`.
    package static let valueReference = "v_Ref"

    // MARK: Return types

    /// `kSecReturnData`.
    package static let returnData = "r_Data"
    /// `kSecReturnAttributes`.
    package static let returnAttributes = "r_Attributes"
    /// `kSecReturnRef`.
    package static let returnReference = "r_Ref"
    /// `kSecReturnPersistentRef`.
    package static let returnPersistentReference = "r_PersistentRef"

    // MARK: Search

    /// `kSecMatchLimit`.
    package static let matchLimit = "m_Limit"
    /// `kSecMatchLimitOne`, a value of `kSecMatchLimit`.
    package static let matchLimitOne = "m_LimitOne"
    /// `kSecMatchLimitAll`, a value of `kSecMatchLimit`.
    package static let matchLimitAll = "m_LimitAll"
    /// The prefix of every `kSecMatch…` key.
    package static let matchPrefix = "m_"
    /// `kSecMatchHostOrSubdomainOfHost`.
    package static let matchHostOrSubdomainOfHost = "m_HostOrSubdomainOfHost"

    // MARK: Use

    /// `kSecUseAuthenticationUI`.
    package static let authenticationUI = "u_AuthUI"
    /// `kSecUseNoAuthenticationUI` (deprecated by Apple, still honoured).
    package static let noAuthenticationUI = "u_NoAuthUI"
    /// `kSecUseOperationPrompt`.
    package static let operationPrompt = "u_OpPrompt"
    /// `kSecUseAuthenticationContext`.
    package static let authenticationContext = "u_AuthCtx"
    /// `kSecUseCredentialReference`.
    package static let credentialReference = "u_CredRef"
    /// `kSecUseDataProtectionKeychain`.
    package static let dataProtectionKeychain = "nleg"
    /// `kSecUseItemList`.
    package static let itemList = "u_ItemList"

    // MARK: Attributes read specially

    /// `kSecAttrAccessible`.
    package static let accessible = "pdmn"
    /// `kSecAttrAccessControl`.
    package static let accessControl = "accc"
    /// `kSecAttrSynchronizable`.
    package static let synchronizable = "sync"
    /// `kSecAttrSynchronizableAny`, a value of `kSecAttrSynchronizable`.
    package static let synchronizableAny = "syna"
    /// `kSecAttrAccessGroup`.
    package static let accessGroup = "agrp"
    /// `kSecAttrCreationDate`.
    package static let creationDate = "cdat"
    /// `kSecAttrModificationDate`.
    package static let modificationDate = "mdat"
    /// `kSecAttrTokenID`.
    package static let tokenID = "tkid"
}
