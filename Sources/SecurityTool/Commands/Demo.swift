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

/// `security demo`: a guided tour of the keychain in a throw-away home.
struct Demo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "A guided tour: add, find, update and delete items, set a passcode, lock and unlock, biometry."
    )

    func run() throws {
        let home = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let device = try Device(home: KeychainHome(url: home), configuration: DeviceConfiguration())
        try Device.withCurrent(device) { try tour(device, home: home) }
    }

    private func tour(_ device: Device, home: URL) throws {
        say("swift-keychain demo: Apple's SecItem API over an encrypted SQLite keychain.")
        say("A throw-away keychain home: \(home.path) (removed at the end).\n")

        let item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Example",
            kSecAttrAccount as String: "me",
        ]
        let secret = Data("secret password".utf8)

        step("1. SecItemAdd a generic password (service Example, account me)")
        show(SecItemAdd(item.merging([kSecValueData as String: secret]) { $1 } as CFDictionary, nil))

        step("2. SecItemAdd the same item again: the primary key (service, account, group, sync) collides")
        show(SecItemAdd(item.merging([kSecValueData as String: secret]) { $1 } as CFDictionary, nil))

        step("3. SecItemCopyMatching with kSecReturnData")
        var result: CFTypeRef?
        show(SecItemCopyMatching(item.merging([kSecReturnData as String: true]) { $1 } as CFDictionary, &result))
        say(
            "   returned \((result as? Data)?.count ?? 0) bytes, equal to what was stored: \((result as? Data) == secret)"
        )

        step("4. SecItemCopyMatching with kSecReturnAttributes")
        show(SecItemCopyMatching(item.merging([kSecReturnAttributes as String: true]) { $1 } as CFDictionary, &result))
        if let attributes = result as? [String: Any] {
            for key in ["svce", "acct", "agrp", "pdmn", "cdat"] {
                say("   \(key) = \(attributes[key].map { "\($0)" } ?? "-")")
            }
        }

        step("5. SecItemUpdate the secret")
        let newSecret = Data("a new secret".utf8)
        show(SecItemUpdate(item as CFDictionary, [kSecValueData as String: newSecret] as CFDictionary))
        _ = SecItemCopyMatching(item.merging([kSecReturnData as String: true]) { $1 } as CFDictionary, &result)
        say("   reads back the new secret: \((result as? Data) == newSecret)")

        let passcodeOnly: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Example",
            kSecAttrAccount as String: "passcode-only",
            kSecAttrAccessible as String: kSecAttrAccessibleWhenPasscodeSetThisDeviceOnly,
            kSecValueData as String: Data("needs a passcode".utf8),
        ]
        step("6. Add a WhenPasscodeSetThisDeviceOnly item while no passcode is set")
        show(SecItemAdd(passcodeOnly as CFDictionary, nil))

        step("7. Set the passcode 1234 (scrypt, entangled with the device secret; class keys are re-wrapped)")
        let started = Date()
        try device.setPasscode("1234")
        say("   done in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
        step("   now the WhenPasscodeSetThisDeviceOnly item can be added")
        show(SecItemAdd(passcodeOnly as CFDictionary, nil))
        let background: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "Example",
            kSecAttrAccount as String: "background",
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlock,
            kSecValueData as String: Data("for background work".utf8),
        ]
        show(SecItemAdd(background as CFDictionary, nil), label: "   add an AfterFirstUnlock item")

        step("8. Lock the device")
        try device.lock()
        show(
            SecItemCopyMatching(item.merging([kSecReturnData as String: true]) { $1 } as CFDictionary, &result),
            label: "   read the WhenUnlocked item"
        )
        let backgroundQuery: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "background",
            kSecReturnData as String: true,
        ]
        show(SecItemCopyMatching(backgroundQuery as CFDictionary, &result), label: "   read the AfterFirstUnlock item")

        step("9. Unlock with a wrong passcode, then the right one")
        do {
            try device.unlock(passcode: "0000")
            say("   unexpectedly unlocked")
        } catch {
            say("   wrong passcode refused (attempts so far: \((try? device.passcodeAttempts().failures) ?? 0))")
        }
        try device.unlock(passcode: "1234")
        show(
            SecItemCopyMatching(item.merging([kSecReturnData as String: true]) { $1 } as CFDictionary, &result),
            label: "   read the WhenUnlocked item"
        )

        step("10. Biometry: a simulated Touch ID sensor, an item protected with biometryCurrentSet")
        let sensor = device.simulatedSensor
        try sensor.install(.touchID)
        try sensor.enroll("right thumb")
        if let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .biometryCurrentSet, nil) {
            let bio: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrAccount as String: "biometry",
            ]
            show(
                SecItemAdd(
                    bio.merging([kSecValueData as String: secret, kSecAttrAccessControl as String: access]) { $1 }
                        as CFDictionary,
                    nil
                ),
                label: "   add it (adding never prompts)"
            )
            let read =
                bio.merging([kSecReturnData as String: true, kSecUseOperationPrompt as String: "demo"]) { $1 }
                as CFDictionary
            try sensor.queue([.match])
            show(SecItemCopyMatching(read, &result), label: "   read with a matching finger")
            try sensor.queue([.nonMatch])
            show(SecItemCopyMatching(read, &result), label: "   read with a non-matching finger")
            try sensor.enroll("left index")
            try sensor.queue([.match])
            show(SecItemCopyMatching(read, &result), label: "   enrol another finger, read again")
            try sensor.clearQueue()
        }

        step("11. Remove the passcode: WhenPasscodeSetThisDeviceOnly items are destroyed, as on iOS")
        try device.removePasscode(current: "1234")
        let passcodeOnlyQuery: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrAccount as String: "passcode-only",
        ]
        show(SecItemCopyMatching(passcodeOnlyQuery as CFDictionary, nil), label: "   look for it")

        step("12. SecItemDelete, then look again")
        show(SecItemDelete(item as CFDictionary))
        show(SecItemCopyMatching(item as CFDictionary, nil), label: "   look for it")

        step("13. What a thief of the database file sees")
        var leaked: [String] = []
        for name in ["keychain.db", "keychain.db-wal"] {
            guard let bytes = try? Data(contentsOf: home.appendingPathComponent(name)) else { continue }
            for needle in ["Example", "background", "for background work", "secret password"]
            where bytes.range(of: Data(needle.utf8)) != nil {
                leaked.append(needle)
            }
        }
        say(
            leaked.isEmpty
                ? "   keychain.db and its WAL contain no service, account or secret in the clear"
                : "   LEAK: \(leaked.count) plaintext values found"
        )
        say("\nDone. Try the same with the CLI: security add-generic-password -a me -s Example -w 'secret password'")
    }

    private func say(_ text: String) { print(text) }

    private func step(_ text: String) { print(text) }

    private func show(_ status: OSStatus, label: String = "  ") {
        print("\(label) → \(StatusName.describe(status))")
    }
}

/// Names of the status codes the tour shows.
enum StatusName {
    static func describe(_ status: OSStatus) -> String {
        let names: [OSStatus: String] = [
            errSecSuccess: "errSecSuccess", errSecDuplicateItem: "errSecDuplicateItem",
            errSecItemNotFound: "errSecItemNotFound", errSecInteractionNotAllowed: "errSecInteractionNotAllowed",
            errSecNotAvailable: "errSecNotAvailable", errSecAuthFailed: "errSecAuthFailed", errSecParam: "errSecParam",
        ]
        return "\(names[status] ?? "OSStatus") (\(status))"
    }
}
