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

import KeychainServices

/// The constants hostile queries are made of: every key and every constant value of the
/// `SecItem*` API, so that the fuzzer mixes keys of one class with values of another.
enum FuzzVocabulary {
    nonisolated(unsafe) static let keys: [CFString] = [
        kSecAttrAccessible, kSecAttrAccess, kSecAttrAccessControl, kSecAttrAccessGroup, kSecAttrSynchronizable,
        kSecAttrSynchronizableAny, kSecAttrCreationDate, kSecAttrModificationDate, kSecAttrDescription,
        kSecAttrComment, kSecAttrCreator, kSecAttrType, kSecAttrLabel, kSecAttrIsInvisible, kSecAttrIsNegative,
        kSecAttrAccount, kSecAttrService, kSecAttrGeneric, kSecAttrSecurityDomain, kSecAttrServer, kSecAttrProtocol,
        kSecAttrAuthenticationType, kSecAttrPort, kSecAttrPath, kSecAttrSubject, kSecAttrIssuer,
        kSecAttrSerialNumber, kSecAttrSubjectKeyID, kSecAttrPublicKeyHash, kSecAttrCertificateType,
        kSecAttrCertificateEncoding, kSecAttrKeyClass, kSecAttrApplicationLabel, kSecAttrIsPermanent,
        kSecAttrIsSensitive, kSecAttrIsExtractable, kSecAttrApplicationTag, kSecAttrKeyType, kSecAttrPRF,
        kSecAttrSalt, kSecAttrRounds, kSecAttrKeySizeInBits, kSecAttrEffectiveKeySize, kSecAttrCanEncrypt,
        kSecAttrCanDecrypt, kSecAttrCanDerive, kSecAttrCanSign, kSecAttrCanVerify, kSecAttrCanWrap,
        kSecAttrCanUnwrap, kSecAttrSyncViewHint, kSecAttrTokenID, kSecAttrPersistantReference,
        kSecAttrPersistentReference, kSecMatchPolicy, kSecMatchItemList, kSecMatchSearchList, kSecMatchIssuers,
        kSecMatchEmailAddressIfPresent, kSecMatchSubjectContains, kSecMatchSubjectStartsWith,
        kSecMatchSubjectEndsWith, kSecMatchSubjectWholeString, kSecMatchCaseInsensitive,
        kSecMatchDiacriticInsensitive, kSecMatchWidthInsensitive, kSecMatchTrustedOnly, kSecMatchValidOnDate,
        kSecMatchLimit, kSecMatchLimitOne, kSecMatchLimitAll, kSecReturnData, kSecReturnAttributes, kSecReturnRef,
        kSecReturnPersistentRef, kSecValueData, kSecValueRef, kSecValuePersistentRef, kSecUseItemList,
        kSecUseKeychain, kSecUseOperationPrompt, kSecUseNoAuthenticationUI, kSecUseAuthenticationUI,
        kSecUseAuthenticationContext, kSecUseDataProtectionKeychain, kSecUseAuthenticationUIAllow,
        kSecUseAuthenticationUIFail, kSecUseAuthenticationUISkip, kSecPrivateKeyAttrs, kSecPublicKeyAttrs,
    ]

    nonisolated(unsafe) static let values: [CFString] = [
        kSecAttrAccessibleWhenUnlocked, kSecAttrAccessibleAfterFirstUnlock, kSecAttrAccessibleAlways,
        kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly, kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, kSecAttrAccessibleAlwaysThisDeviceOnly,
        kSecAttrProtocolFTP, kSecAttrProtocolFTPAccount, kSecAttrProtocolHTTP, kSecAttrProtocolIRC,
        kSecAttrProtocolNNTP, kSecAttrProtocolPOP3, kSecAttrProtocolSMTP, kSecAttrProtocolSOCKS,
        kSecAttrProtocolIMAP, kSecAttrProtocolLDAP, kSecAttrProtocolAppleTalk, kSecAttrProtocolAFP,
        kSecAttrProtocolTelnet, kSecAttrProtocolSSH, kSecAttrProtocolFTPS, kSecAttrProtocolHTTPS,
        kSecAttrProtocolHTTPProxy, kSecAttrProtocolHTTPSProxy, kSecAttrProtocolFTPProxy, kSecAttrProtocolSMB,
        kSecAttrProtocolRTSP, kSecAttrProtocolRTSPProxy, kSecAttrProtocolDAAP, kSecAttrProtocolEPPC,
        kSecAttrProtocolIPP, kSecAttrProtocolNNTPS, kSecAttrProtocolLDAPS, kSecAttrProtocolTelnetS,
        kSecAttrProtocolIMAPS, kSecAttrProtocolIRCS, kSecAttrProtocolPOP3S, kSecAttrAuthenticationTypeNTLM,
        kSecAttrAuthenticationTypeMSN, kSecAttrAuthenticationTypeDPA, kSecAttrAuthenticationTypeRPA,
        kSecAttrAuthenticationTypeHTTPBasic, kSecAttrAuthenticationTypeHTTPDigest,
        kSecAttrAuthenticationTypeHTMLForm, kSecAttrAuthenticationTypeDefault, kSecAttrKeyClassPublic,
        kSecAttrKeyClassPrivate, kSecAttrKeyClassSymmetric, kSecAttrKeyTypeRSA, kSecAttrKeyTypeDSA,
        kSecAttrKeyTypeAES, kSecAttrKeyTypeDES, kSecAttrKeyType3DES, kSecAttrKeyTypeRC4, kSecAttrKeyTypeRC2,
        kSecAttrKeyTypeCAST, kSecAttrKeyTypeECDSA, kSecAttrKeyTypeEC, kSecAttrKeyTypeECSECPrimeRandom,
        kSecAttrPRFHmacAlgSHA1, kSecAttrPRFHmacAlgSHA224, kSecAttrPRFHmacAlgSHA256, kSecAttrPRFHmacAlgSHA384,
        kSecAttrPRFHmacAlgSHA512, kSecAttrTokenIDSecureEnclave, kSecAttrAccessGroupToken, kSecClass,
        kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey, kSecClassIdentity,
    ]
}
