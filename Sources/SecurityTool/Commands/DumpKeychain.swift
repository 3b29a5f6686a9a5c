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
import SecurityCommandLine

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

    @Flag(
        name: .customShort("i"),
        help: "Interactive access-control editing: not available (Linux items have no per-application ACLs)."
    )
    var editAccess = false

    @Flag(name: .customLong("json"), help: "Print the items as a JSON array.")
    var json = false

    @Argument(help: ArgumentHelp("Existing keychains to dump (default: the default keychain).", valueName: "keychain"))
    var keychains: [String] = []

    func run() throws {
        if editAccess {
            Terminal.printError(
                "security: dump-keychain -i: items here have no per-application access control lists to edit"
            )
            throw ExitCode(1)
        }
        var objects: [Any] = []
        for name in try Session.named(keychains, context: "SecKeychainCopySearchList") {
            guard let device = try Session.openExisting(home: name, context: "SecKeychainCopySearchList") else {
                continue
            }
            try dump(device, into: &objects)
        }
        if json { ItemPrinter.printJSON(objects) }
    }

    private func dump(_ device: Device, into objects: inout [Any]) throws {
        for itemClass in [kSecClassGenericPassword, kSecClassInternetPassword, kSecClassCertificate, kSecClassKey] {
            for found in try items(of: itemClass, in: device) {
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

    /// The items of `itemClass` that may be listed.
    ///
    /// An item protected by biometry, the passcode or an application password needs that even for
    /// its attributes, as on Apple platforms (`SecDbKeychainItem.m` decrypts whenever the access
    /// control has constraints). Listing alone asks for nothing, as macOS's `dump-keychain` without
    /// `-d` does not: such items are left out, and a line on standard error says so. With `-d` each
    /// is asked for as a read would be; one that is cancelled or cannot be asked for (no terminal,
    /// no finger queued) leaves the protected items out the same way, and the rest is still listed.
    private func items(of itemClass: CFString, in device: Device) throws -> [[String: Any]] {
        let className = itemClass as String
        if showData {
            let (status, items) = try search(itemClass, in: device, interface: nil)
            if status == errSecSuccess || status == errSecItemNotFound { return items }
            guard Self.authenticationStatuses.contains(status) else {
                throw Session.fail(status, "SecKeychainSearchCopyNext")
            }
            let message = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
            Terminal.printError(
                "security: dump-keychain: \"\(className)\" items that need authentication were not listed (\(message))"
            )
        }
        let (status, items) = try search(itemClass, in: device, interface: kSecUseAuthenticationUISkip)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw Session.fail(status, "SecKeychainSearchCopyNext")
        }
        if !showData, probeFindsProtectedItems(itemClass) {
            Terminal.printError(
                "security: dump-keychain: \"\(className)\" items that need authentication (biometry, the passcode or an application password) to be read were not listed; dump-keychain -d asks for it"
            )
        }
        return items
    }

    /// Whether items of `itemClass` need authentication to be listed: `kSecUseAuthenticationUIFail`
    /// answers `errSecInteractionNotAllowed` for them.
    ///
    /// Called after a search of the class, so the keychain is open and a lock is not the reason; an
    /// expected answer, so no `Session.call`.
    private func probeFindsProtectedItems(_ itemClass: CFString) -> Bool {
        let query: [String: Any] = [
            kSecClass as String: itemClass,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
            kSecUseAuthenticationUI as String: kSecUseAuthenticationUIFail,
        ]
        return SecItemCopyMatching(query as CFDictionary, nil) == errSecInteractionNotAllowed
    }

    /// The statuses of an authentication that did not happen: the rest is listed without it.
    private static let authenticationStatuses: Set<OSStatus> = [
        errSecInteractionNotAllowed, errSecUserCanceled, errSecAuthFailed,
    ]

    private func search(
        _ itemClass: CFString,
        in device: Device,
        interface: CFString?
    ) throws -> (OSStatus, [[String: Any]]) {
        var query: [String: Any] = [
            kSecClass as String: itemClass,
            kSecMatchLimit as String: kSecMatchLimitAll,
            kSecReturnAttributes as String: true,
            kSecReturnData as String: showData,
            kSecAttrSynchronizable as String: kSecAttrSynchronizableAny,
        ]
        if let interface { query[kSecUseAuthenticationUI as String] = interface }
        if showData { query[kSecUseOperationPrompt as String] = PasswordLookup.operationPrompt }
        var result: CFTypeRef?
        let status = try Session.call(device) { SecItemCopyMatching(query as CFDictionary, &result) }
        return (status, (result as? [[String: Any]]) ?? [])
    }
}
