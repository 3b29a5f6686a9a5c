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
        accessControl: String?,
        duplicateContext: String,
        home: String?
    ) throws {
        let device = try Session.open(home: home)
        var item = attributes
        item[kSecClass as String] = itemClass
        item[kSecValueData as String] = secret
        var protection: CFString?
        if let accessible {
            guard let value = Accessibility.value(named: accessible) else {
                Terminal.printError("security: unknown accessibility \(accessible); use one of \(Accessibility.names)")
                throw ExitCode(2)
            }
            protection = value
        }
        if let accessControl {
            item[kSecAttrAccessControl as String] = try AccessControlOption.make(
                accessControl,
                protection: protection ?? kSecAttrAccessibleWhenUnlocked
            )
        } else if let protection {
            item[kSecAttrAccessible as String] = protection
        }
        var status = try Session.call(device) { SecItemAdd(item as CFDictionary, nil) }
        if status == errSecDuplicateItem && updateExisting {
            var query: [String: Any] = [kSecClass as String: itemClass]
            for key in primaryKey { query[key] = attributes[key] ?? "" }
            var changes = attributes
            changes[kSecValueData as String] = secret
            if let accessible = item[kSecAttrAccessible as String] { changes[kSecAttrAccessible as String] = accessible }
            if let access = item[kSecAttrAccessControl as String] { changes[kSecAttrAccessControl as String] = access }
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
        guard let device = try Session.openExisting(home: home) else {
            throw Session.fail(errSecItemNotFound, "SecKeychainSearchCopyNext")
        }
        var query = attributes
        query[kSecClass as String] = itemClass
        query[kSecReturnAttributes as String] = true
        query[kSecReturnData as String] = showPassword || passwordOnly
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query[kSecUseOperationPrompt as String] = "security wants to use an item in your keychain"
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
        guard let device = try Session.openExisting(home: home) else {
            throw Session.fail(errSecItemNotFound, "SecKeychainSearchCopyNext")
        }
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
        if deleteStatus != errSecSuccess { throw Session.fail(deleteStatus, "SecKeychainItemDelete") }
        Terminal.printError("password has been deleted.")
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

/// The `--access-control` option: `SecAccessControlCreateFlags` by name, comma-separated.
enum AccessControlOption {
    static var all: [(String, SecAccessControlCreateFlags)] { [
        ("userPresence", .userPresence),
        ("biometryAny", .biometryAny),
        ("biometryCurrentSet", .biometryCurrentSet),
        ("devicePasscode", .devicePasscode),
        ("companion", .companion),
        ("or", .or),
        ("and", .and),
        ("privateKeyUsage", .privateKeyUsage),
        ("applicationPassword", .applicationPassword),
    ] }

    /// The access control for `spec` (`biometryCurrentSet,or,devicePasscode`), validated as
    /// `SecAccessControlCreateWithFlags` validates it; a bad spec is a usage error (exit 2).
    static func make(_ spec: String, protection: CFString) throws -> SecAccessControl {
        var flags: SecAccessControlCreateFlags = []
        for name in spec.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            let short = name.hasPrefix("kSecAccessControl") ? String(name.dropFirst("kSecAccessControl".count)) : name
            guard let flag = all.first(where: { $0.0.lowercased() == short.lowercased() })?.1 else {
                Terminal.printError("security: unknown access-control flag \(name); use \(all.map(\.0).joined(separator: ", "))")
                throw ExitCode(2)
            }
            flags.insert(flag)
        }
        var error: Unmanaged<CFError>?
        guard let access = SecAccessControlCreateWithFlags(nil, protection, flags, &error) else {
            let message = error?.takeRetainedValue().localizedDescription ?? "invalid access control"
            Terminal.printError("security: \(message)")
            throw ExitCode(2)
        }
        return access
    }
}
