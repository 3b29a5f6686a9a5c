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

struct DumpKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump-keychain",
        abstract: "Dump the contents of the keychain."
    )

    @Flag(name: .customShort("d"), help: "Dump (decrypted) data.")
    var showData = false

    @Flag(name: .customShort("a"), help: "Accepted for compatibility; Linux items have no per-application ACLs.")
    var showAccess = false

    @Flag(name: .customShort("r"), help: "Accepted for compatibility; raw encrypted data is never printed.")
    var raw = false

    @Flag(name: .customLong("json"), help: "Print the items as a JSON array.")
    var json = false

    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).")
    var keychain: String?

    func run() throws {
        guard let device = try Session.openExisting(home: keychain) else {
            if json { ItemPrinter.printJSON([Any]()) }
            return
        }
        var objects: [Any] = []
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {
            let query: [String: Any] = [
                kSecClass as String: itemClass,
                kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true,
                kSecReturnData as String: showData,
                kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            ]
            var result: CFTypeRef?
            let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
            if status == errSecItemNotFound { continue }
            guard status == errSecSuccess, let items = result as? [[String: Any]] else {
                throw Session.fail(status, "SecKeychainSearchCopyNext")
            }
            for found in items {
                var attributes = found
                let data = attributes.removeValue(forKey: kSecValueData as String) as? Data
                if json {
                    objects.append(
                        ItemPrinter.json(itemClass: itemClass as String, attributes: attributes, password: data)
                    )
                    continue
                }
                print(
                    ItemPrinter.block(
                        itemClass: itemClass as String,
                        attributes: attributes,
                        keychainPath: Session.keychainPath(device)
                    ),
                    terminator: ""
                )
                if showData {
                    print("data:\n" + ItemPrinter.render(Array(data ?? Data())))
                }
            }
        }
        if json { ItemPrinter.printJSON(objects) }
    }
}
