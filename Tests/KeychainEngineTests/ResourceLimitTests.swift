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
import KeychainContract
import KeychainServices
import KeychainTestSupport
import KeychainTesting
import Testing

@testable import KeychainCore
@testable import KeychainDevice
@testable import KeychainEngine

/// Values at and past the size limits, and a disk that fills up during writes: a clear status,
/// no partial item, nothing already stored lost.
@Suite struct ResourceLimitTests {
    static func item(_ account: String, secret: Data, label: String? = nil) -> [String: Any] {
        var item: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: "limits",
            kSecAttrAccount as String: account,
            kSecValueData as String: secret,
        ]
        if let label { item[kSecAttrLabel as String] = label }
        return item
    }

    static func read(_ account: String) -> (OSStatus, Data?) {
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "limits",
            kSecAttrAccount as String: account, kSecReturnData as String: true,
        ]
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        return (status, result as? Data)
    }

    static func pattern(_ count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 8) })
    }

    /// A keychain with a storage quota (a system-mode daemon's users' keychains, which no disk
    /// quota counts): growth past it is refused whole with `errSecQuotaExceeded`, nothing stored is
    /// lost, and deleting makes room again.
    @Test func growthPastTheStorageQuotaIsRefusedAndDeletingMakesRoom() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("kc-quota-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: home) }
        var configuration = DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none, engine: .embedded)
        configuration.storageQuota = 1 << 20
        let device = try Device(home: KeychainHome(url: home), configuration: configuration)
        Device.withCurrent(device) {
            let secret = Self.pattern(200_000)
            var stored: [String] = []
            var status = errSecSuccess
            while status == errSecSuccess && stored.count < 10 {
                let account = "item-\(stored.count)"
                status = SecItemAdd(Self.item(account, secret: secret) as CFDictionary, nil)
                if status == errSecSuccess { stored.append(account) }
            }
            #expect(status == errSecQuotaExceeded)
            #expect((3...5).contains(stored.count), "\(stored.count) items of 200 kB fit in 1 MiB")
            #expect(Self.read("item-\(stored.count)").0 == errSecItemNotFound)
            for account in stored { #expect(Self.read(account) == (errSecSuccess, secret)) }
            // Shrinking an item is never refused; deleting one makes room for another.
            let shrink: [String: Any] = [kSecValueData as String: Data("small".utf8)]
            let first: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "limits",
                kSecAttrAccount as String: stored[0],
            ]
            #expect(SecItemUpdate(first as CFDictionary, shrink as CFDictionary) == errSecSuccess)
            #expect(SecItemDelete(first as CFDictionary) == errSecSuccess)
            #expect(SecItemAdd(Self.item("after-delete", secret: secret) as CFDictionary, nil) == errSecSuccess)
        }
    }

    @Test func valuesAtTheLimitsAreStoredAndPastThemRefusedWhole() throws {
        let keychain = try TemporaryKeychain()
        keychain.run {
            let largest = Self.pattern(QueryParser.maximumSecretSize)
            let longestLabel = String(repeating: "l", count: QueryParser.maximumAttributeSize)
            #expect(
                SecItemAdd(Self.item("at-limit", secret: largest, label: longestLabel) as CFDictionary, nil)
                    == errSecSuccess
            )
            #expect(Self.read("at-limit") == (errSecSuccess, largest))

            let tooLarge = Self.pattern(QueryParser.maximumSecretSize + 1)
            #expect(SecItemAdd(Self.item("past-limit", secret: tooLarge) as CFDictionary, nil) == errSecDataTooLarge)
            #expect(Self.read("past-limit").0 == errSecItemNotFound)
            let tooLong = String(repeating: "l", count: QueryParser.maximumAttributeSize + 1)
            #expect(
                SecItemAdd(Self.item("past-limit", secret: Data("s".utf8), label: tooLong) as CFDictionary, nil)
                    == errSecDataTooLarge
            )
            #expect(Self.read("past-limit").0 == errSecItemNotFound)

            // An update past the limit changes nothing.
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "limits",
                kSecAttrAccount as String: "at-limit",
            ]
            let update = [kSecValueData as String: tooLarge, kSecAttrLabel as String: "new label"] as [String: Any]
            #expect(SecItemUpdate(query as CFDictionary, update as CFDictionary) == errSecDataTooLarge)
            #expect(Self.read("at-limit") == (errSecSuccess, largest))
        }
    }

    /// A keychain on a 4 MiB tmpfs (needs root to mount; skipped with a note otherwise).
    @Test func aFullDiskFailsTheWriteAndLosesNothing() throws {
        let mountPoint = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kc-full-disk-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        defer {
            _ = Self.shell("/bin/umount", [mountPoint.path])
            try? FileManager.default.removeItem(at: mountPoint)
        }
        guard Self.shell("/bin/mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mountPoint.path]) == 0 else {
            print("full-disk test skipped: cannot mount a tmpfs (not root?)")
            return
        }
        let home = mountPoint.appendingPathComponent("home")
        // Ballast that "the user" deletes later to free space.
        let ballast = mountPoint.appendingPathComponent("ballast")
        try Data(count: 1 << 20).write(to: ballast)
        var stored: [String: Data] = [:]
        var failure: OSStatus?
        do {
            let device = try Device(
                home: KeychainHome(url: home),
                configuration: DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
            )
            Device.withCurrent(device) {
                for index in 0..<200 {
                    let secret = Self.pattern(60_000 + index)
                    let status = SecItemAdd(Self.item("item-\(index)", secret: secret) as CFDictionary, nil)
                    if status == errSecSuccess {
                        stored["item-\(index)"] = secret
                    } else {
                        failure = status
                        #expect(Self.read("item-\(index)").0 == errSecItemNotFound, "a failed add left an item")
                        break
                    }
                }
                #expect(
                    failure == errSecIO,
                    "a full disk must fail the write with errSecIO, got \(String(describing: failure))"
                )
                #expect(stored.count > 10)
                for (account, secret) in stored {
                    #expect(Self.read(account) == (errSecSuccess, secret), "\(account) lost")
                }
                // Updating to a larger secret fails too, and keeps the old one.
                let query: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "limits",
                    kSecAttrAccount as String: "item-0",
                ]
                let grow = [kSecValueData as String: Self.pattern(3 << 20)] as [String: Any]
                #expect(SecItemUpdate(query as CFDictionary, grow as CFDictionary) == errSecIO)
                #expect(Self.read("item-0") == (errSecSuccess, stored["item-0"]))
                // On a full disk even a delete may fail (the write-ahead log needs room): then the item stays whole.
                let first = Self.item("item-0", secret: Data()).filter { $0.key != kSecValueData as String }
                let status = SecItemDelete(first as CFDictionary)
                #expect(status == errSecSuccess || status == errSecIO)
                if status == errSecIO {
                    #expect(Self.read("item-0") == (errSecSuccess, stored["item-0"]))
                } else {
                    stored["item-0"] = nil
                }
                // Once space is freed, deletes and adds work again.
                try? FileManager.default.removeItem(at: ballast)
                for index in 0..<5 {
                    let query = Self.item("item-\(index)", secret: Data()).filter { $0.key != kSecValueData as String }
                    let deleted = SecItemDelete(query as CFDictionary)
                    #expect(deleted == errSecSuccess || (index == 0 && deleted == errSecItemNotFound))
                    stored["item-\(index)"] = nil
                }
                #expect(
                    SecItemAdd(Self.item("after-delete", secret: Data("fits".utf8)) as CFDictionary, nil)
                        == errSecSuccess
                )
                stored["after-delete"] = Data("fits".utf8)
            }
        }
        // What the next process sees.
        let reopened = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        )
        #expect(try reopened.keychain.store.integrityProblems().isEmpty)
        Device.withCurrent(reopened) {
            for (account, secret) in stored {
                #expect(Self.read(account) == (errSecSuccess, secret), "\(account) lost after reopening")
            }
        }
    }

    static func shell(_ tool: String, _ arguments: [String]) -> Int32 {
        (try? ProgramRun.run(URL(filePath: tool), arguments, input: nil))?.status ?? -1
    }
}
