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
import KeychainTesting
import LocalAuthentication
import Security
import Testing

/// Every way Swift code on Linux reads a string out of an `NSString` reads a `kSec…` constant as
/// its value, as it reads a `CFString` on Apple platforms.
///
/// The earlier tests spelled constants `kSecX as String`, which goes through the primitive methods;
/// `String(kSecX)`, the spelling wrappers use most, reads `NSString`'s own storage and found it empty.
/// So each spelling is checked here, on constants from every table that declares them.
@Suite struct ConstantStringTests {
    /// A constant and its value.
    ///
    /// `@unchecked`: an immutable string, made once.
    struct Constant: @unchecked Sendable, CustomTestStringConvertible {
        let string: CFString
        let value: String
        var testDescription: String { value }
    }

    static let constants: [Constant] = [
        (kSecClass, "class"), (kSecClassGenericPassword, "genp"), (kSecClassInternetPassword, "inet"),
        (kSecClassCertificate, "cert"), (kSecClassKey, "keys"), (kSecClassIdentity, "idnt"),
        (kSecAttrAccount, "acct"), (kSecAttrService, "svce"), (kSecAttrAccessGroup, "agrp"),
        (kSecAttrAccessible, "pdmn"), (kSecAttrAccessibleWhenUnlocked, "ak"),
        (kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly, "cku"), (kSecAttrAccessControl, "accc"),
        (kSecAttrSynchronizable, "sync"), (kSecAttrSynchronizableAny, "syna"), (kSecAttrLabel, "labl"),
        (kSecAttrServer, "srvr"), (kSecAttrProtocol, "ptcl"), (kSecAttrProtocolHTTPS, "htps"),
        (kSecAttrAuthenticationTypeDefault, "dflt"), (kSecAttrKeyType, "type"),
        (kSecAttrKeyTypeECSECPrimeRandom, "73"), (kSecAttrTokenIDSecureEnclave, "com.apple.setoken"),
        (kSecMatchLimit, "m_Limit"), (kSecMatchLimitAll, "m_LimitAll"), (kSecMatchLimitOne, "m_LimitOne"),
        (kSecReturnData, "r_Data"), (kSecReturnAttributes, "r_Attributes"), (kSecReturnRef, "r_Ref"),
        (kSecReturnPersistentRef, "r_PersistentRef"), (kSecValueData, "v_Data"), (kSecValueRef, "v_Ref"),
        (kSecUseAuthenticationContext, "u_AuthCtx"), (kSecUseDataProtectionKeychain, "nleg"),
        (kSecImportExportPassphrase, "passphrase"), (kSecImportItemIdentity, "identity"),
        (kCFBundleIdentifierKey, "CFBundleIdentifier"),
        (SecKeyAlgorithm.ecdsaSignatureMessageX962SHA256.rawValue, "algid:sign:ECDSA:message-X962:SHA256"),
    ].map { Constant(string: $0.0, value: $0.1) }

    @Test(arguments: constants)
    func everySpellingReadsTheValue(_ entry: Constant) throws {
        let (constant, value) = (entry.string, entry.value)
        #expect(String(constant) == value)
        #expect(constant as String == value)
        #expect(String(describing: constant) == value)
        #expect("\(constant)" == value)
        #expect(constant.description == value)
        #expect(constant.length == value.utf16.count)
        #expect(constant.hasPrefix(String(value.prefix(1))))
        #expect(constant.substring(from: 1) == String(value.dropFirst()))
        #expect(constant.isEqual(to: value))
        #expect(constant == (value as NSString))
        #expect(NSString(string: constant as String) == (value as NSString))
        #expect(String(try #require(constant.copy() as? NSString)) == value)
        #expect(String(try #require(constant.mutableCopy() as? NSMutableString)) == value)
        #expect(constant.data(using: String.Encoding.utf8.rawValue) == Data(value.utf8))
        var bytes = [CChar](repeating: 0, count: 256)
        #expect(constant.getCString(&bytes, maxLength: bytes.count, encoding: String.Encoding.utf8.rawValue))
        #expect(String(decoding: bytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == value)
        let any: Any = constant
        #expect(any as? String == value)
        let object: AnyObject = constant
        #expect(object as? String == value)
        #expect(String(format: "%@", constant) == value)
    }

    @Test(arguments: constants)
    func containersKeyedByTheConstantFindTheValue(_ entry: Constant) throws {
        let (constant, value) = (entry.string, entry.value)
        let strings: [String: Any] = [String(constant): 1]
        #expect(strings[value] as? Int == 1)
        let hashables: [AnyHashable: Any] = [constant: 1]
        #expect(hashables[value] as? Int == 1)
        let dictionary = NSDictionary(dictionary: [constant: 1])
        #expect(dictionary[value] as? Int == 1)
        #expect(dictionary as? [String: Int] == [value: 1])
        let keys: [AnyHashable: Any] = [constant: constant]
        #expect((keys as NSDictionary) as? [String: String] == [value: value])
        let mutable = NSMutableDictionary()
        mutable[constant] = 1
        #expect(mutable[value as NSString] as? Int == 1)
        let json = try JSONSerialization.data(withJSONObject: [constant: constant] as NSDictionary)
        #expect(try JSONSerialization.jsonObject(with: json) as? [String: String] == [value: value])
        let plist = try PropertyListSerialization.data(
            fromPropertyList: [constant: constant] as NSDictionary,
            format: .binary,
            options: 0
        )
        let decoded = try PropertyListSerialization.propertyList(from: plist, options: [], format: nil)
        #expect(decoded as? [String: String] == [value: value])
    }

    /// A wrapper's enum of item classes, matched from a result and built from the constants.
    enum ItemClass: String {
        case genericPassword = "genp"
        case internetPassword = "inet"
    }

    @Test func aWrappersDictionaryLiteralAndRawValuesWork() {
        // Both keys were "" and the literal trapped on a duplicate key.
        let attributes = [String(kSecAttrAccessGroup): "group", String(kSecAttrAccessible): "ak"]
        #expect(attributes == ["agrp": "group", "pdmn": "ak"])
        #expect(ItemClass(rawValue: String(kSecClassGenericPassword)) == .genericPassword)
        #expect(ItemClass(rawValue: String(kSecClassInternetPassword)) == .internetPassword)
        switch String(kSecAttrAccessibleWhenUnlocked) {
        case String(kSecAttrAccessibleAfterFirstUnlock): Issue.record("switch matched the wrong constant")
        case "ak": break
        default: Issue.record("switch matched no constant")
        }
    }

    /// A keychain round trip with every key spelled `String(kSec…)`, as wrappers build queries.
    @Test func queriesKeyedByStringConstantsRoundTrip() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            let add: [String: Any] = [
                String(kSecClass): String(kSecClassGenericPassword),
                String(kSecAttrService): "Spelling",
                String(kSecAttrAccount): "wrapper",
                String(kSecAttrAccessible): String(kSecAttrAccessibleAfterFirstUnlock),
                String(kSecValueData): Data("secret".utf8),
            ]
            #expect(SecItemAdd(add as CFDictionary, nil) == errSecSuccess)
            let query: [String: Any] = [
                String(kSecClass): String(kSecClassGenericPassword),
                String(kSecAttrService): "Spelling",
                String(kSecReturnAttributes): true,
                String(kSecReturnData): true,
                String(kSecMatchLimit): String(kSecMatchLimitOne),
            ]
            var result: CFTypeRef?
            #expect(SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess)
            let item = try #require(result as? [String: Any])
            #expect(item[String(kSecAttrAccount)] as? String == "wrapper")
            #expect(item[String(kSecAttrAccessible)] as? String == String(kSecAttrAccessibleAfterFirstUnlock))
            #expect(item[String(kSecValueData)] as? Data == Data("secret".utf8))
        }
    }

    /// `LAError` bridges through `NSError` and back, and reads as Apple's domain and code.
    @Test func laErrorBridgesThroughNSError() throws {
        let error = LAError(.userCancel)
        let bridged = error as NSError
        #expect(bridged.domain == LAErrorDomain && bridged.code == LAError.Code.userCancel.rawValue)
        let back = try #require((bridged as any Error) as? LAError)
        #expect(back.code == .userCancel)
        #expect(String(describing: bridged.domain) == "com.apple.LocalAuthentication")
    }
}
