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

import Foundation
import KeychainContract
import KeychainServices
import Testing

@testable import KeychainCore
@testable import KeychainEngine

/// The engine spells Apple's strings once; each must equal the mirror's constant, which carries
/// Apple's value.
@Suite struct VocabularyTests {
    @Test func queryKeysAreTheMirrorsConstants() {
        let pairs: [(engine: String, mirror: CFString)] = [
            (QueryKey.itemClass, kSecClass),
            (QueryKey.valueData, kSecValueData),
            (QueryKey.valuePersistentReference, kSecValuePersistentRef),
            (QueryKey.valueReference, kSecValueRef),
            (QueryKey.returnData, kSecReturnData),
            (QueryKey.returnAttributes, kSecReturnAttributes),
            (QueryKey.returnReference, kSecReturnRef),
            (QueryKey.returnPersistentReference, kSecReturnPersistentRef),
            (QueryKey.matchLimit, kSecMatchLimit),
            (QueryKey.matchLimitOne, kSecMatchLimitOne),
            (QueryKey.matchLimitAll, kSecMatchLimitAll),
            (QueryKey.authenticationUI, kSecUseAuthenticationUI),
            (QueryKey.noAuthenticationUI, kSecUseNoAuthenticationUI),
            (QueryKey.operationPrompt, kSecUseOperationPrompt),
            (QueryKey.authenticationContext, kSecUseAuthenticationContext),
            (QueryKey.credentialReference, kSecUseCredentialReference),
            (QueryKey.dataProtectionKeychain, kSecUseDataProtectionKeychain),
            (QueryKey.itemList, kSecUseItemList),
            (QueryKey.accessible, kSecAttrAccessible),
            (QueryKey.accessControl, kSecAttrAccessControl),
            (QueryKey.synchronizable, kSecAttrSynchronizable),
            (QueryKey.synchronizableAny, kSecAttrSynchronizableAny),
            (QueryKey.accessGroup, kSecAttrAccessGroup),
            (QueryKey.creationDate, kSecAttrCreationDate),
            (QueryKey.modificationDate, kSecAttrModificationDate),
        ]
        for pair in pairs {
            #expect(pair.engine == pair.mirror as String)
        }
        // Every kSecMatch… key shares the prefix the parser refuses outside searches.
        for key in [kSecMatchLimit, kSecMatchCaseInsensitive, kSecMatchSubjectContains, kSecMatchValidOnDate] {
            #expect((key as String).hasPrefix(QueryKey.matchPrefix))
        }
    }

    @Test func classesProtectionsAndUIValuesAreTheMirrorsConstants() {
        let classes: [(ItemClass, CFString)] = [
            (.genericPassword, kSecClassGenericPassword), (.internetPassword, kSecClassInternetPassword),
            (.certificate, kSecClassCertificate), (.key, kSecClassKey), (.identity, kSecClassIdentity),
        ]
        #expect(classes.allSatisfy { $0.0.rawValue == $0.1 as String })
        #expect(Set(classes.map(\.0)) == Set(ItemClass.allCases))

        let protections: [(ProtectionClass, CFString)] = [
            (.whenUnlocked, kSecAttrAccessibleWhenUnlocked),
            (.afterFirstUnlock, kSecAttrAccessibleAfterFirstUnlock),
            (.always, kSecAttrAccessibleAlways),
            (.whenUnlockedThisDeviceOnly, kSecAttrAccessibleWhenUnlockedThisDeviceOnly),
            (.afterFirstUnlockThisDeviceOnly, kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly),
            (.alwaysThisDeviceOnly, kSecAttrAccessibleAlwaysThisDeviceOnly),
            (.whenPasscodeSetThisDeviceOnly, kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly),
        ]
        #expect(protections.allSatisfy { $0.0.rawValue == $0.1 as String })
        #expect(Set(protections.map(\.0)) == Set(ProtectionClass.allCases))

        let interface: [(AuthenticationUI, CFString)] = [
            (.allow, kSecUseAuthenticationUIAllow), (.fail, kSecUseAuthenticationUIFail),
            (.skip, kSecUseAuthenticationUISkip),
        ]
        #expect(interface.allSatisfy { $0.0.rawValue == $0.1 as String })
    }
}
