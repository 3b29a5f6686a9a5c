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

    @Argument(
        help: ArgumentHelp(
            "An existing keychain: its folder, or login.keychain for the default one.",
            valueName: "keychain"
        )
    )
    var keychains: [String] = []

    func validate() throws {
        guard attributes.shared.account != nil, attributes.server != nil else {
            throw ValidationError("both -a account and -s server are required")
        }
        guard keychains.count <= 1 else { throw ValidationError("give at most one keychain") }
    }

    func run() throws {
        try ItemCommands.add(
            .internet,
            given: try attributes.attributes(),
            defaults: [
                kSecAttrLabel as String: attributes.server ?? "",
                kSecAttrAuthenticationType as String: kSecAttrAuthenticationTypeDefault,
            ],
            secret: try password.secret(),
            updateExisting: options.update,
            accessible: options.accessible,
            accessControl: options.accessControl,
            failureContext: "SecKeychainAddInternetPassword \(keychains.first ?? "<NULL>")",
            home: keychains.first
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

    @Argument(
        help: ArgumentHelp(
            "Existing keychains to search, in order (default: the default keychain).",
            valueName: "keychain"
        )
    )
    var keychains: [String] = []

    func run() throws {
        try ItemCommands.find(
            .internet,
            given: try attributes.attributes(),
            showPassword: options.showPassword,
            passwordOnly: options.passwordOnly,
            json: options.json,
            keychains: keychains
        )
    }
}

struct DeleteInternetPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-internet-password",
        abstract: "Delete an internet password item."
    )

    @OptionGroup var attributes: InternetAttributeOptions

    @Flag(name: [.customShort("g"), .customLong("show-password")], help: "Accepted for compatibility; ignored.")
    var showPassword = false

    @Argument(
        help: ArgumentHelp(
            "Existing keychains to search, in order (default: the default keychain).",
            valueName: "keychain"
        )
    )
    var keychains: [String] = []

    func run() throws {
        try ItemCommands.delete(.internet, given: try attributes.attributes(), keychains: keychains)
    }
}
