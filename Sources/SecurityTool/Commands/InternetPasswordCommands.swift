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

struct AddInternetPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-internet-password",
        abstract: "Add an internet password item."
    )

    @OptionGroup var attributes: InternetAttributeOptions
    @OptionGroup var password: PasswordOptions

    @OptionGroup var options: AddOptions

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func validate() throws {
        guard attributes.shared.account != nil, attributes.server != nil else {
            throw ValidationError("both -a account and -s server are required")
        }
    }

    func run() throws {
        var given = try attributes.attributes()
        if given[kSecAttrLabel as String] == nil { given[kSecAttrLabel as String] = attributes.server }
        if given[kSecAttrAuthenticationType as String] == nil {
            given[kSecAttrAuthenticationType as String] = kSecAttrAuthenticationTypeDefault
        }
        try ItemCommands.add(
            itemClass: kSecClassInternetPassword,
            attributes: given,
            primaryKey: [
                kSecAttrAccount as String, kSecAttrSecurityDomain as String, kSecAttrServer as String,
                kSecAttrProtocol as String, kSecAttrAuthenticationType as String, kSecAttrPort as String,
                kSecAttrPath as String,
            ],
            secret: try password.secret(),
            updateExisting: options.update,
            accessible: options.accessible,
            accessControl: options.accessControl,
            duplicateContext: "SecKeychainAddInternetPassword \(keychain ?? "<NULL>")",
            home: keychain
        )
    }
}

struct FindInternetPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "find-internet-password",
        abstract: "Find an internet password item."
    )

    @OptionGroup var attributes: InternetAttributeOptions

    @OptionGroup var options: FindOptions

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func run() throws {
        try ItemCommands.find(
            itemClass: kSecClassInternetPassword,
            attributes: try attributes.attributes(),
            showPassword: options.showPassword,
            passwordOnly: options.passwordOnly,
            json: options.json,
            home: keychain
        )
    }
}

struct DeleteInternetPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-internet-password",
        abstract: "Delete an internet password item."
    )

    @OptionGroup var attributes: InternetAttributeOptions

    @Flag(name: .customShort("g"), help: "Accepted for compatibility; ignored.")
    var showPassword = false

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func run() throws {
        try ItemCommands.delete(itemClass: kSecClassInternetPassword, attributes: try attributes.attributes(), home: keychain)
    }
}
