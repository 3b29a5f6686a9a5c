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
import KeychainServices

struct AddGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-generic-password",
        abstract: "Add a generic password item."
    )

    @OptionGroup var attributes: GenericAttributeOptions
    @OptionGroup var password: PasswordOptions

    @OptionGroup var options: AddOptions

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func validate() throws {
        guard attributes.shared.account != nil, attributes.service != nil else {
            throw ValidationError("both -a account and -s service are required")
        }
    }

    func run() throws {
        var given = try attributes.attributes()
        if given[kSecAttrLabel as String] == nil { given[kSecAttrLabel as String] = attributes.service }
        try ItemCommands.add(
            itemClass: kSecClassGenericPassword,
            attributes: given,
            primaryKey: [kSecAttrAccount as String, kSecAttrService as String],
            secret: try password.secret(),
            updateExisting: options.update,
            accessible: options.accessible,
            accessControl: options.accessControl,
            duplicateContext: "SecKeychainItemCreateFromContent (\(keychain ?? "<default>"))",
            home: keychain
        )
    }
}

struct FindGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-generic-password",
        abstract: "Find a generic password item."
    )

    @OptionGroup var attributes: GenericAttributeOptions

    @OptionGroup var options: FindOptions

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func run() throws {
        try ItemCommands.find(
            itemClass: kSecClassGenericPassword,
            attributes: try attributes.attributes(),
            showPassword: options.showPassword,
            passwordOnly: options.passwordOnly,
            json: options.json,
            home: keychain
        )
    }
}

struct DeleteGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-generic-password",
        abstract: "Delete a generic password item."
    )

    @OptionGroup var attributes: GenericAttributeOptions

    @Flag(name: .customShort("g"), help: "Accepted for compatibility; ignored.")
    var showPassword = false

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func run() throws {
        try ItemCommands.delete(itemClass: kSecClassGenericPassword, attributes: try attributes.attributes(), home: keychain)
    }
}
