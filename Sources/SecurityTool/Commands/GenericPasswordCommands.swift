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

    @Argument(
        help: ArgumentHelp(
            "An existing keychain: its folder, or login.keychain for the default one.",
            valueName: "keychain"
        )
    )
    var keychains: [String] = []

    func validate() throws {
        guard attributes.shared.account != nil, attributes.service != nil else {
            throw ValidationError("both -a account and -s service are required")
        }
        guard keychains.count <= 1 else { throw ValidationError("give at most one keychain") }
    }

    func run() throws {
        try ItemCommands.add(
            .generic,
            given: try attributes.attributes(),
            defaults: [kSecAttrLabel as String: attributes.service ?? ""],
            secret: try password.secret(),
            updateExisting: options.update,
            accessible: options.accessible,
            accessControl: options.accessControl,
            failureContext: "SecKeychainItemCreateFromContent (\(keychains.first ?? "<default>"))",
            home: keychains.first
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

    @Argument(
        help: ArgumentHelp(
            "Existing keychains to search, in order (default: the default keychain).",
            valueName: "keychain"
        )
    )
    var keychains: [String] = []

    func run() throws {
        try ItemCommands.find(
            .generic,
            given: try attributes.attributes(),
            showPassword: options.showPassword,
            passwordOnly: options.passwordOnly,
            json: options.json,
            keychains: keychains
        )
    }
}

struct DeleteGenericPassword: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete-generic-password",
        abstract: "Delete a generic password item."
    )

    @OptionGroup var attributes: GenericAttributeOptions

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
        try ItemCommands.delete(.generic, given: try attributes.attributes(), keychains: keychains)
    }
}
