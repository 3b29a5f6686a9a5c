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
import SecurityCommandLine

/// What the add, find and delete commands do, for either password class.
///
/// Matching is macOS's (`find_first_generic_password` and `find_first_internet_password` in
/// `SecurityTool/macOS/keychain_find.c`): the first item that has every attribute given, except
/// that once the whole primary key is given (account and service; for internet passwords all
/// seven of its attributes) the other attributes are not matched.
enum ItemCommands {
    /// One item class's place in the commands.
    struct Kind: @unchecked Sendable {  // immutable; CFString is not Sendable on Linux
        let itemClass: CFString
        /// The class's primary key, and how a find matches it.
        let matching: PasswordItemKind

        static let generic = Kind(itemClass: kSecClassGenericPassword, matching: .generic)
        static let internet = Kind(itemClass: kSecClassInternetPassword, matching: .internet)

        /// The query for the items `given` matches, as macOS's tool matches them.
        func query(matching given: [String: Any]) -> [String: Any] {
            var query = matching.query(matching: given)
            query[kSecClass as String] = itemClass
            return query
        }
    }

    // MARK: Add

    /// Adds an item with the `given` attributes (and the `defaults` for those not given); with
    /// `updateExisting`, first looks for an item as `find` would and, if there is one, sets those
    /// attributes (defaults included, as macOS's tool passes its default label) and the secret, if
    /// one was given, on it instead (macOS's `-U`).
    ///
    /// As on macOS, an update that fails is followed by the add, whose failure is the one reported.
    static func add(
        _ kind: Kind,
        given: [String: Any],
        defaults: [String: Any],
        secret: Data?,
        updateExisting: Bool,
        accessible: String?,
        accessControl: String?,
        failureContext: String,
        home: String?
    ) throws {
        let device = try Session.open(home: home, context: failureContext)
        var protection: [String: Any] = [:]
        var accessibility: CFString?
        if let accessible {
            guard let value = Accessibility.value(named: accessible) else {
                Terminal.printError("security: unknown accessibility \(accessible); use one of \(Accessibility.names)")
                throw ExitCode(2)
            }
            accessibility = value
        }
        if let accessControl {
            protection[kSecAttrAccessControl as String] = try AccessControlOption.make(
                accessControl,
                protection: accessibility ?? kSecAttrAccessibleWhenUnlocked
            )
        } else if let accessibility {
            protection[kSecAttrAccessible as String] = accessibility
        }
        let attributes = defaults.merging(given) { $1 }
        if updateExisting, let reference = try firstMatch(kind, attributes, device) {
            var changes = attributes.merging(protection) { $1 }
            changes[kSecValueData as String] = secret
            let query: [String: Any] = [
                kSecClass as String: kind.itemClass, kSecValuePersistentRef as String: reference,
            ]
            let status = try Session.call(device) { SecItemUpdate(query as CFDictionary, changes as CFDictionary) }
            if status == errSecSuccess { return }
        }
        var item = attributes.merging(protection) { $1 }
        item[kSecClass as String] = kind.itemClass
        item[kSecValueData as String] = secret ?? Data()
        let status = try Session.call(device) { SecItemAdd(item as CFDictionary, nil) }
        if status != errSecSuccess { throw Session.fail(status, failureContext) }
    }

    /// The persistent reference of the first item `given` matches, if any.
    private static func firstMatch(_ kind: Kind, _ given: [String: Any], _ device: Device) throws -> Data? {
        var query = kind.query(matching: given)
        query[kSecReturnPersistentRef as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
        guard status != errSecItemNotFound else { return nil }
        guard status == errSecSuccess else { throw Session.fail(status, "SecKeychainSearchCopyNext") }
        return result as? Data
    }

    // MARK: Find

    /// Prints the first item `given` matches in the named keychains (in order; the default one if
    /// none is named).
    static func find(
        _ kind: Kind,
        given: [String: Any],
        showPassword: Bool,
        passwordOnly: Bool,
        json: Bool,
        keychains: [String]
    ) throws {
        var query = kind.query(matching: given)
        query[kSecReturnAttributes as String] = true
        query[kSecReturnData as String] = showPassword || passwordOnly
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        query[kSecUseOperationPrompt as String] = PasswordLookup.operationPrompt
        guard let (device, found) = try first(query, in: keychains) else {
            throw Session.fail(errSecItemNotFound, "SecKeychainSearchCopyNext")
        }
        let password = found[kSecValueData as String] as? Data
        var shown = found
        shown[kSecValueData as String] = nil
        if json {
            ItemPrinter.printJSON(
                ItemPrinter.json(
                    itemClass: kind.itemClass as String,
                    attributes: shown,
                    password: showPassword || passwordOnly ? password : nil
                )
            )
            return
        }
        if passwordOnly {
            print(PasswordLine.render(password ?? Data()))
            return
        }
        print(
            ItemPrinter.block(
                itemClass: kind.itemClass as String,
                attributes: shown,
                keychainPath: Session.keychainPath(device)
            ),
            terminator: ""
        )
        if showPassword {
            FileHandle.standardOutput.synchronizeFile()
            Terminal.printError("password: " + ItemPrinter.render(Array(password ?? Data())))
        }
    }

    /// The first result of `query` in the named keychains, with the keychain it came from; every
    /// name is checked before anything is searched.
    private static func first(_ query: [String: Any], in keychains: [String]) throws -> (Device, [String: Any])? {
        for name in try Session.named(keychains, context: "SecKeychainSearchCopyNext") {
            guard let device = try Session.openExisting(home: name, context: "SecKeychainSearchCopyNext") else {
                continue
            }
            var result: CFTypeRef?
            let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
            if status == errSecItemNotFound { continue }
            guard status == errSecSuccess, let found = result as? [String: Any] else {
                throw Session.fail(status == errSecSuccess ? errSecItemNotFound : status, "SecKeychainSearchCopyNext")
            }
            return (device, found)
        }
        return nil
    }

    // MARK: Delete

    /// Prints and deletes the first item `given` matches in the named keychains.
    static func delete(_ kind: Kind, given: [String: Any], keychains: [String]) throws {
        guard !given.isEmpty else {
            throw ValidationError("give at least one attribute to match")
        }
        var query = kind.query(matching: given)
        query[kSecReturnAttributes as String] = true
        query[kSecReturnPersistentRef as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        guard let (device, found) = try first(query, in: keychains),
            let reference = found[kSecValuePersistentRef as String] as? Data
        else {
            throw Session.fail(errSecItemNotFound, "SecKeychainSearchCopyNext")
        }
        var shown = found
        shown[kSecValuePersistentRef as String] = nil
        print(
            ItemPrinter.block(
                itemClass: kind.itemClass as String,
                attributes: shown,
                keychainPath: Session.keychainPath(device)
            ),
            terminator: ""
        )
        let deleteStatus = try Session.call(device) {
            SecItemDelete(
                [kSecClass as String: kind.itemClass, kSecValuePersistentRef as String: reference] as CFDictionary
            )
        }
        FileHandle.standardOutput.synchronizeFile()
        if deleteStatus != errSecSuccess { throw Session.fail(deleteStatus, "SecKeychainItemDelete") }
        Terminal.printError("password has been deleted.")
    }
}
