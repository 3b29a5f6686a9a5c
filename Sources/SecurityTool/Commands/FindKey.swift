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

/// `find-key`: every key item that matches, as macOS's attribute blocks (27 numbered attributes each).
struct FindKey: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "find-key", abstract: "Find keys in the keychain.")

    @Option(name: .customShort("a"), help: "Match \"application label\" string.") var applicationLabel: String?
    @Option(name: .customShort("c"), help: "Match \"creator\" (four-character code).") var creator: String?
    @Flag(name: .customShort("d"), help: "Match keys that can decrypt.") var decrypt = false
    @Option(name: .customShort("D"), help: "Match \"description\" string.") var description: String?
    @Flag(name: .customShort("e"), help: "Match keys that can encrypt.") var encrypt = false
    @Option(name: .customShort("j"), help: "Match \"comment\" string.") var comment: String?
    @Option(name: .customShort("l"), help: "Match \"label\" string.") var label: String?
    @Flag(name: .customShort("r"), help: "Match keys that can derive.") var derive = false
    @Flag(name: .customShort("s"), help: "Match keys that can sign.") var sign = false
    @Option(name: .customShort("t"), help: "Type of key to find: one of \"symmetric\", \"public\", or \"private\".")
    var type: String?
    @Flag(name: .customShort("u"), help: "Match keys that can unwrap.") var unwrap = false
    @Flag(name: .customShort("v"), help: "Match keys that can verify.") var verify = false
    @Flag(name: .customShort("w"), help: "Match keys that can wrap.") var wrap = false
    @Argument(help: ArgumentHelp("Keychains to search (default: the default keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func validate() throws {
        if let type, Self.keyClasses[type] == nil {
            throw ValidationError("-t takes one of \"symmetric\", \"public\", or \"private\"")
        }
        if let creator, creator.utf8.count != 4 {
            throw ValidationError("-c takes a four-character code")
        }
    }

    /// `-t`'s names, as `kSecAttrKeyClass` values.
    static var keyClasses: [String: CFString] {
        ["public": kSecAttrKeyClassPublic, "private": kSecAttrKeyClassPrivate, "symmetric": kSecAttrKeyClassSymmetric]
    }

    func run() throws {
        var query: [String: Any] = [
            kSecClass as String: kSecClassKey, kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
        ]
        if let applicationLabel { query[kSecAttrApplicationLabel as String] = Data(applicationLabel.utf8) }
        if let creator { query[kSecAttrCreator as String] = creator.utf8.reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        if let description { query[kSecAttrDescription as String] = description }
        if let comment { query[kSecAttrComment as String] = comment }
        if let label { query[kSecAttrLabel as String] = label }
        if let type, let keyClass = Self.keyClasses[type] { query[kSecAttrKeyClass as String] = keyClass }
        let capabilities: [(Bool, CFString)] = [
            (decrypt, kSecAttrCanDecrypt), (encrypt, kSecAttrCanEncrypt), (derive, kSecAttrCanDerive),
            (sign, kSecAttrCanSign),
            (unwrap, kSecAttrCanUnwrap), (verify, kSecAttrCanVerify), (wrap, kSecAttrCanWrap),
        ]
        for (wanted, attribute) in capabilities where wanted { query[attribute as String] = true }

        var output = ""
        for name in try Session.named(keychains, context: "SecItemCopyMatching") {
            guard let device = try Session.openExisting(home: name, context: "SecItemCopyMatching") else { continue }
            var result: CFTypeRef?
            let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
            if status == errSecItemNotFound { continue }
            guard status == errSecSuccess else {
                _ = Session.fail(status, "SecItemCopyMatching")
                throw ExitCode(1)
            }
            for attributes in (result as? [[String: Any]]) ?? [] {
                output += ItemPrinter.keyBlock(attributes: attributes, keychainPath: Session.keychainPath(device))
            }
        }
        guard !output.isEmpty else {
            // macOS exits 1 here, not with the status.
            _ = Session.fail(errSecItemNotFound, "SecItemCopyMatching")
            throw ExitCode(1)
        }
        print(output, terminator: "")
    }
}
