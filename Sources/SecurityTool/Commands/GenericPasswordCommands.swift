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

    @Flag(name: .customShort("U"), help: "Update the item if it already exists.")
    var update = false

    @Flag(name: .customShort("A"), help: "Accepted for compatibility; Linux has no per-application ACLs.")
    var allowAnyApplication = false

    @Option(name: .customShort("T"), help: "Accepted for compatibility; Linux has no per-application ACLs.")
    var trustedApplications: [String] = []

    @Option(name: .customLong("accessible"), help: "Accessibility, by Apple's name (WhenUnlocked, AfterFirstUnlock, …).")
    var accessible: String?

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func validate() throws {
        guard attributes.account != nil, attributes.service != nil else {
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
            updateExisting: update,
            accessible: accessible,
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

    @Flag(name: .customShort("g"), help: "Display the password for the item found.")
    var showPassword = false

    @Flag(name: .customShort("w"), help: "Display only the password on stdout.")
    var passwordOnly = false

    @Flag(name: .customLong("json"), help: "Print the item as JSON.")
    var json = false

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func run() throws {
        try ItemCommands.find(
            itemClass: kSecClassGenericPassword,
            attributes: try attributes.attributes(),
            showPassword: showPassword,
            passwordOnly: passwordOnly,
            json: json,
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
