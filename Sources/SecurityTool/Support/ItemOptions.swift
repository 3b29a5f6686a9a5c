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

/// The attribute options both password classes have (macOS's letters).
struct SharedAttributeOptions: ParsableArguments {
    @Option(
        name: [.customShort("a"), .customLong("account")],
        help: ArgumentHelp("Account name.", valueName: "account")
    )
    var account: String?

    @Option(name: [.customShort("l"), .customLong("label")], help: ArgumentHelp("Label.", valueName: "label"))
    var label: String?

    @Option(name: [.customShort("j"), .customLong("comment")], help: ArgumentHelp("Comment.", valueName: "comment"))
    var comment: String?

    @Option(
        name: [.customShort("D"), .customLong("kind")],
        help: ArgumentHelp("Kind (description).", valueName: "kind")
    )
    var kind: String?

    @Option(
        name: [.customShort("c"), .customLong("creator")],
        help: ArgumentHelp("Creator (a four-character code).", valueName: "creator")
    )
    var creator: String?

    @Option(
        name: [.customShort("C"), .customLong("type")],
        help: ArgumentHelp("Type (a four-character code).", valueName: "type")
    )
    var type: String?

    func attributes() throws -> [String: Any] {
        var attributes: [String: Any] = [:]
        attributes[kSecAttrAccount as String] = account
        attributes[kSecAttrLabel as String] = label
        attributes[kSecAttrComment as String] = comment
        attributes[kSecAttrDescription as String] = kind
        attributes[kSecAttrCreator as String] = try creator.map(FourCharacterCode.validate)
        attributes[kSecAttrType as String] = try type.map(FourCharacterCode.validate)
        return attributes
    }
}

/// The attribute options of the generic-password commands.
struct GenericAttributeOptions: ParsableArguments {
    @OptionGroup var shared: SharedAttributeOptions

    @Option(
        name: [.customShort("s"), .customLong("service")],
        help: ArgumentHelp("Service name.", valueName: "service")
    )
    var service: String?

    @Option(
        name: [.customShort("G"), .customLong("generic")],
        help: ArgumentHelp("Generic attribute value.", valueName: "value")
    )
    var generic: String?

    /// The attributes that were given, keyed by Apple's constants.
    func attributes() throws -> [String: Any] {
        var attributes = try shared.attributes()
        attributes[kSecAttrService as String] = service
        attributes[kSecAttrGeneric as String] = generic.map { Data($0.utf8) }
        return attributes
    }
}

/// The attribute options of the internet-password commands.
struct InternetAttributeOptions: ParsableArguments {
    @OptionGroup var shared: SharedAttributeOptions

    @Option(name: [.customShort("s"), .customLong("server")], help: ArgumentHelp("Server name.", valueName: "server"))
    var server: String?

    @Option(
        name: [.customShort("d"), .customLong("security-domain")],
        help: ArgumentHelp("Security domain.", valueName: "domain")
    )
    var securityDomain: String?

    @Option(name: [.customShort("p"), .customLong("path")], help: ArgumentHelp("Path.", valueName: "path"))
    var path: String?

    @Option(name: [.customShort("P"), .customLong("port")], help: ArgumentHelp("Port number.", valueName: "port"))
    var port: Int?

    @Option(
        name: [.customShort("r"), .customLong("protocol")],
        help: ArgumentHelp("Protocol (a four-character code such as htps).", valueName: "protocol")
    )
    var protocolCode: String?

    @Option(
        name: [.customShort("t"), .customLong("authentication-type")],
        help: ArgumentHelp("Authentication type (a four-character code such as dflt).", valueName: "type")
    )
    var authenticationType: String?

    func attributes() throws -> [String: Any] {
        var attributes = try shared.attributes()
        attributes[kSecAttrServer as String] = server
        attributes[kSecAttrSecurityDomain as String] = securityDomain
        attributes[kSecAttrPath as String] = path
        attributes[kSecAttrPort as String] = port.flatMap { $0 == 0 ? nil : $0 }  // 0: none, as macOS's tool reads it
        attributes[kSecAttrProtocol as String] = try protocolCode.map(FourCharacterCode.validate)
        attributes[kSecAttrAuthenticationType as String] = try authenticationType.map(FourCharacterCode.validate)
        return attributes
    }
}

/// macOS's check of four-character codes.
enum FourCharacterCode {
    static func validate(_ code: String) throws -> String {
        guard code.utf8.count == 4 else {
            var message = "Error: four-character types must be exactly 4 characters long."
            if code.utf8.count == 3 {
                message += " (Try \"\(code) \" instead of \"\(code)\")"
            }
            Terminal.printError(message)
            throw ExitCode(1)
        }
        return code
    }
}

/// The password options of the add commands: `-w password`, `-w` last to be prompted, or `-X hex`.
struct PasswordOptions: ParsableArguments {
    @Option(
        name: [.customShort("w"), .customLong("password")],
        help: ArgumentHelp("Password. Give -w as the last option to be prompted for it.", valueName: "password")
    )
    var password: String?

    @Option(
        name: [.customShort("X"), .customLong("hex-password")],
        help: ArgumentHelp("Password as hexadecimal bytes.", valueName: "hex")
    )
    var hexPassword: String?

    @Flag(name: .customLong("prompt-for-password"), help: .hidden)
    var promptForPassword = false

    /// The secret to store: given, decoded from hex, prompted for, or `nil` when none was given
    /// (an added item then has empty data; `-U` leaves the stored one as it is).
    func secret() throws -> Data? {
        if let hexPassword {
            guard let data = Hex.decode(hexPassword) else {
                Terminal.printError("security: Unable to convert password data (-X must specify valid hex digits)")
                throw ExitCode(2)
            }
            return data
        }
        if let password { return Data(password.utf8) }
        if promptForPassword {
            guard
                let entered = try Terminal.refusingLongLines({ () throws(Terminal.LineTooLong) in
                    try Terminal.readNewSecret(
                        prompt: "password data for new item: ",
                        retypePrompt: "retype password for new item: "
                    )
                })
            else { throw ExitCode(1) }
            return Data(entered.utf8)
        }
        return nil
    }
}

enum Hex {
    /// Hex digits to bytes; an odd count gets a leading zero, as macOS does.
    static func decode(_ text: String) -> Data? {
        var digits = Array(text.utf8)
        if digits.count % 2 == 1 { digits.insert(UInt8(ascii: "0"), at: 0) }
        var data = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            data.append(high << 4 | low)
            index += 2
        }
        return data
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// The options every add command has besides the attributes and the password.
struct AddOptions: ParsableArguments {
    @Flag(name: [.customShort("U"), .customLong("update")], help: "Update the item if it already exists.")
    var update = false

    @Flag(
        name: [.customShort("A"), .customLong("allow-any-application")],
        help: "Accepted for compatibility; Linux has no per-application ACLs."
    )
    var allowAnyApplication = false

    @Option(
        name: [.customShort("T"), .customLong("trusted-application")],
        help: ArgumentHelp("Accepted for compatibility; Linux has no per-application ACLs.", valueName: "app")
    )
    var trustedApplications: [String] = []

    @Option(
        name: .customLong("accessible"),
        help: ArgumentHelp(
            "Accessibility, by Apple's name (WhenUnlocked, AfterFirstUnlock, …).",
            valueName: "accessibility"
        )
    )
    var accessible: String?

    @Option(
        name: .customLong("access-control"),
        help: ArgumentHelp(
            "Access-control flags, comma-separated (userPresence, biometryAny, biometryCurrentSet, devicePasscode, or, and, applicationPassword).",
            valueName: "flags"
        )
    )
    var accessControl: String?
}

/// The output options of the find commands.
struct FindOptions: ParsableArguments {
    @Flag(name: [.customShort("g"), .customLong("show-password")], help: "Display the password for the item found.")
    var showPassword = false

    @Flag(name: [.customShort("w"), .customLong("password-only")], help: "Display only the password on stdout.")
    var passwordOnly = false

    @Flag(name: .customLong("json"), help: "Print the item as JSON.")
    var json = false
}
