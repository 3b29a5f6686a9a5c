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

    @Flag(name: .customShort("i"), help: "Interactive access-control editing: not available (Linux items have no per-application ACLs).")
    var editAccess = false

    @Flag(name: .customLong("json"), help: "Print the items as a JSON array.")
    var json = false

    @Argument(help: ArgumentHelp("Existing keychains to dump (default: the default keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func run() throws {
        if editAccess {
            Terminal.printError("security: dump-keychain -i: items here have no per-application access control lists to edit")
            throw ExitCode(1)
        }
        var objects: [Any] = []
        for name in try Session.named(keychains, context: "SecKeychainCopySearchList") {
            guard let device = try Session.openExisting(home: name, context: "SecKeychainCopySearchList") else { continue }
            try dump(device, into: &objects)
        }
        if json { ItemPrinter.printJSON(objects) }
    }

    private func dump(_ device: Device, into objects: inout [Any]) throws {
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
    }
}
