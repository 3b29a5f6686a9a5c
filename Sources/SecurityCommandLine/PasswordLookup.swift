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
import KeychainCore

/// A `find-generic-password` or `find-internet-password` command line that asks for nothing but
/// the password of the first match in the default keychain (`-w`), the commands scripts run most:
/// the `security` launcher answers these itself.
///
/// Anything else — another command, `-g`, `--json`, `-h`, a keychain named, an option given
/// twice, a value the full tool would refuse with a message — is not a look-up, and the full tool
/// runs the command line as it always did.
package struct PasswordLookup {
    /// The item class searched.
    package let kind: PasswordItemKind
    /// The attributes given, by Apple's codes.
    package let attributes: [String: Any]

    /// The prompt of the look-up's authentication, when an item asks for one.
    package static let operationPrompt = "security wants to use an item in your keychain"

    /// The look-up `arguments` (the command's name first) ask for, if they ask for nothing more.
    package init?(_ arguments: [String]) {
        guard let command = arguments.first else { return nil }
        let names: [String: String]
        switch command {
        case "find-generic-password":
            kind = .generic
            names = Self.genericNames
        case "find-internet-password":
            kind = .internet
            names = Self.internetNames
        default:
            return nil
        }
        guard case .arguments(let rewritten)? = ItemCommandLine.read(Array(arguments.dropFirst()), for: command) else {
            return nil
        }
        var attributes: [String: Any] = [:]
        var passwordOnly = false
        for option in rewritten {
            if option == "--password-only" {
                passwordOnly = true
                continue
            }
            guard option.hasPrefix("--"), let equals = option.firstIndex(of: "=") else { return nil }
            let name = String(option[option.index(option.startIndex, offsetBy: 2)..<equals])
            let value = String(option[option.index(after: equals)...])
            guard let code = names[name], attributes[code] == nil, let converted = Self.value(value, of: code) else {
                return nil
            }
            attributes[code] = converted
        }
        guard passwordOnly else { return nil }
        // A port of 0 is no port, as the full tool and macOS's read it.
        if let port = attributes["port"] as? Int, port == 0 { attributes["port"] = nil }
        self.attributes = attributes
    }

    /// The `SecItemCopyMatching` query of the look-up, by Apple's codes.
    package var query: [String: Any] {
        var query = kind.query(matching: attributes)
        query[QueryKey.returnAttributes] = true
        query[QueryKey.returnData] = true
        query[QueryKey.matchLimit] = QueryKey.matchLimitOne
        query[QueryKey.operationPrompt] = Self.operationPrompt
        return query
    }

    // MARK: Options

    private static let sharedNames: [String: String] = [
        "account": "acct", "label": "labl", "comment": "icmt", "kind": "desc", "creator": "crtr", "type": "type",
    ]
    private static let genericNames = sharedNames.merging(["service": "svce", "generic": "gena"]) { $1 }
    private static let internetNames = sharedNames.merging([
        "server": "srvr", "security-domain": "sdmn", "path": "path", "port": "port", "protocol": "ptcl",
        "authentication-type": "atyp",
    ]) { $1 }

    /// Four-character codes: the full tool refuses others with macOS's message.
    private static let fourCharacterCodes: Set<String> = ["crtr", "type", "ptcl", "atyp"]

    /// The value of attribute `code` given as `text`; `nil` when the full tool would refuse it.
    private static func value(_ text: String, of code: String) -> Any? {
        switch code {
        case "gena": return Data(text.utf8)
        case "port": return Int(text)
        case _ where fourCharacterCodes.contains(code): return text.utf8.count == 4 ? text : nil
        default: return text
        }
    }
}
