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

import ArgumentParser
import Foundation
import KeychainDevice
import KeychainServices

/// What the add, find and delete commands do, for either password class.
enum ItemCommands {
    // MARK: Add

    static func add(
        itemClass: CFString,
        attributes: [String: Any],
        primaryKey: [String],
        secret: Data,
        updateExisting: Bool,
        accessible: String?,
        duplicateContext: String,
        home: String?
    ) throws {
        let device = try Session.open(home: home)
        var item = attributes
        item[kSecClass as String] = itemClass
        item[kSecValueData as String] = secret
        if let accessible {
            guard let value = Accessibility.value(named: accessible) else {
                Terminal.printError("security: unknown accessibility \(accessible); use one of \(Accessibility.names)")
                throw ExitCode(2)
            }
            item[kSecAttrAccessible as String] = value
        }
        var status = try Session.call(device) { SecItemAdd(item as CFDictionary, nil) }
        if status == errSecDuplicateItem && updateExisting {
            var query: [String: Any] = [kSecClass as String: itemClass]
            for key in primaryKey { query[key] = attributes[key] ?? "" }
            var changes = attributes
            changes[kSecValueData as String] = secret
            if let accessible = item[kSecAttrAccessible as String] { changes[kSecAttrAccessible as String] = accessible }
            status = try Session.call(device) { SecItemUpdate(query as CFDictionary, changes as CFDictionary) }
            if status != errSecSuccess { throw Session.fail(status, "SecKeychainItemModifyContent") }
            return
        }
        if status != errSecSuccess { throw Session.fail(status, duplicateContext) }
    }

    // MARK: Find

    static func find(
        itemClass: CFString,
        attributes: [String: Any],
        showPassword: Bool,
        passwordOnly: Bool,
        json: Bool,
        home: String?
    ) throws {
        let device = try Session.open(home: home)
        var query = attributes
        query[kSecClass as String] = itemClass
        query[kSecReturnAttributes as String] = true
        query[kSecReturnData as String] = showPassword || passwordOnly
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
        guard status == errSecSuccess, let found = result as? [String: Any] else {
            throw Session.fail(status == errSecSuccess ? errSecItemNotFound : status, "SecKeychainSearchCopyNext")
        }
        let password = found[kSecValueData as String] as? Data
        var shown = found
        shown[kSecValueData as String] = nil
        if json {
            ItemPrinter.printJSON(
                ItemPrinter.json(
                    itemClass: itemClass as String,
                    attributes: shown,
                    password: showPassword || passwordOnly ? password : nil
                )
            )
            return
        }
        if passwordOnly {
            print(ItemPrinter.passwordLine(password ?? Data()))
            return
        }
        print(
            ItemPrinter.block(itemClass: itemClass as String, attributes: shown, keychainPath: Session.keychainPath(device)),
            terminator: ""
        )
        if showPassword {
            FileHandle.standardOutput.synchronizeFile()
            Terminal.printError("password: " + ItemPrinter.render(Array(password ?? Data())))
        }
    }

    // MARK: Delete

    static func delete(itemClass: CFString, attributes: [String: Any], home: String?) throws {
        guard !attributes.isEmpty else {
            throw ValidationError("give at least one attribute to match")
        }
        let device = try Session.open(home: home)
        var query = attributes
        query[kSecClass as String] = itemClass
        query[kSecReturnAttributes as String] = true
        query[kSecReturnPersistentRef as String] = true
        var result: CFTypeRef?
        let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
        guard status == errSecSuccess, let found = result as? [String: Any],
            let reference = found[kSecValuePersistentRef as String] as? Data
        else {
            throw Session.fail(status == errSecSuccess ? errSecItemNotFound : status, "SecKeychainSearchCopyNext")
        }
        var shown = found
        shown[kSecValuePersistentRef as String] = nil
        print(
            ItemPrinter.block(itemClass: itemClass as String, attributes: shown, keychainPath: Session.keychainPath(device)),
            terminator: ""
        )
        let deleteStatus = try Session.call(device) {
            SecItemDelete([kSecClass as String: itemClass, kSecValuePersistentRef as String: reference] as CFDictionary)
        }
        FileHandle.standardOutput.synchronizeFile()
        Terminal.printError("password has been deleted.")
        if deleteStatus != errSecSuccess { throw Session.fail(deleteStatus, "SecKeychainItemDelete") }
    }
}

/// Apple's accessibility names for the `--accessible` option.
enum Accessibility {
    static var all: [(String, CFString)] { [
        ("WhenUnlocked", kSecAttrAccessibleWhenUnlocked),
        ("AfterFirstUnlock", kSecAttrAccessibleAfterFirstUnlock),
        ("Always", kSecAttrAccessibleAlways),
        ("WhenPasscodeSetThisDeviceOnly", kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly),
        ("WhenUnlockedThisDeviceOnly", kSecAttrAccessibleWhenUnlockedThisDeviceOnly),
        ("AfterFirstUnlockThisDeviceOnly", kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly),
        ("AlwaysThisDeviceOnly", kSecAttrAccessibleAlwaysThisDeviceOnly),
    ] }

    static var names: String { all.map(\.0).joined(separator: ", ") }

    /// The value for `WhenUnlocked` or `kSecAttrAccessibleWhenUnlocked`.
    static func value(named name: String) -> CFString? {
        let short = name.hasPrefix("kSecAttrAccessible") ? String(name.dropFirst("kSecAttrAccessible".count)) : name
        return all.first { $0.0 == short }?.1
    }
}
