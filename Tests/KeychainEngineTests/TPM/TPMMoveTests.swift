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

import Crypto
import Foundation
import KeychainContract
import KeychainServices
import KeychainTestSupport
import Testing

@testable import KeychainDevice
@testable import KeychainEngine
@testable import KeychainTPM

/// A keychain kept in files moving into a TPM and back: nothing lost, nothing left behind, and
/// a move cut short finishes (or is undone) at the next opening.
@Suite(.serialized) struct TPMMoveTests {
    static let passcode = "482916"

    /// A home made with the files, holding `count` items (every tenth `WhenUnlocked`).
    static func keychainInFiles(items count: Int) throws -> TPMHomeFixture {
        let home = try TPMHomeFixture()
        let device = try home.open(.none)
        try device.setPasscode(passcode)
        try Device.withCurrent(device) {
            for index in 0..<count {
                let item: [String: Any] = [
                    kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "tpm.example.invalid",
                    kSecAttrAccount as String: "account-\(index)",
                    kSecValueData as String: Data("secret-\(index)".utf8),
                    kSecAttrAccessible as String: index % 10 == 0
                        ? kSecAttrAccessibleWhenUnlocked : kSecAttrAccessibleAfterFirstUnlock,
                ]
                guard SecItemAdd(item as CFDictionary, nil) == errSecSuccess else {
                    throw SoftwareTPMError("item \(index) was not added")
                }
            }
        }
        return home
    }

    /// Every item's secret, by account.
    static func secrets(in device: Device) -> [String: String] {
        Device.withCurrent(device) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true, kSecReturnData as String: true,
            ]
            var result: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess,
                let items = result as? [[String: Any]]
            else { return [:] }
            var secrets: [String: String] = [:]
            for item in items {
                if let account = item[kSecAttrAccount as String] as? String,
                    let data = item[kSecValueData as String] as? Data
                {
                    secrets[account] = String(decoding: data, as: UTF8.self)
                }
            }
            return secrets
        }
    }

    static func isDefined(_ index: UInt32, in tpm: SoftwareTPM) throws -> Bool {
        try TPMConnection.using(tpm.tcti) { connection throws(TPMError) in try connection.isDefined(index: index) }
    }

    static func expected(_ count: Int) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (0..<count).map { ("account-\($0)", "secret-\($0)") })
    }

    @Test func tenThousandItemsMoveIntoTheTPMAndBackAndNothingIsLost() throws {
        let count = 10_000
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try Self.keychainInFiles(items: count)
        defer { home.remove() }
        let indices: [UInt32]
        do {
            let device = try home.open(.tcti(tpm.tcti))
            #expect(try device.secretStore().hasPrefix("file (no TPM: this keychain was made before"))
            let reports = ProgressLog()
            try device.moveSecrets(toTPM: true, passcode: Self.passcode) { done, total in reports.add(done, total) }
            #expect(reports.last?.total ?? 0 >= count / 10 * 9)
            #expect(try device.secretStore().hasPrefix("TPM 2.0"))
            #expect(Self.secrets(in: device) == Self.expected(count))
            let binding = try #require(
                TPMBinding(
                    serialized: Array(try Data(contentsOf: home.directory.appendingPathComponent(TPMHome.fileName)))
                )
            )
            indices = binding.indices
        }
        #expect(!home.fileNames.contains(FileDeviceSecretStore.fileName))
        #expect(!home.fileNames.contains(FileKeybagSecretStore.fileName))
        do {
            let device = try home.open(.tcti(tpm.tcti))
            try device.unlock(passcode: Self.passcode)
            #expect(Self.secrets(in: device) == Self.expected(count))
            try device.moveSecrets(toTPM: false, passcode: Self.passcode)
            #expect(try device.secretStore().hasPrefix("file"))
        }
        #expect(!home.fileNames.contains(TPMHome.fileName))
        #expect(home.fileNames.isSuperset(of: [FileDeviceSecretStore.fileName, FileKeybagSecretStore.fileName]))
        // The TPM keeps nothing of the keychain.
        for index in indices {
            #expect(try Self.isDefined(index, in: tpm) == false)
        }
        let device = try home.open(.none)
        try device.unlock(passcode: Self.passcode)
        #expect(Self.secrets(in: device) == Self.expected(count))
    }

    @Test func aKeychainInFilesMovesIntoTheTPMAtItsNextUnlock() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try Self.keychainInFiles(items: 20)
        defer { home.remove() }
        let device = try home.open(.tcti(tpm.tcti))
        try device.unlock(passcode: Self.passcode)
        #expect(try device.secretStore().hasPrefix("TPM 2.0"))
        #expect(!home.fileNames.contains(FileDeviceSecretStore.fileName))
        #expect(Self.secrets(in: device) == Self.expected(20))
        // A wrong passcode now counts in the TPM too.
        #expect(throws: KeychainDeviceError.self) { try device.unlock(passcode: "000000") }
        #expect(try TPMHome(directory: home.directory, configuration: tpm.tcti).passcodeFailures() == 1)
        // Moved out on request, it stays out: the next unlock with the TPM there does not move it back.
        try device.moveSecrets(toTPM: false, passcode: Self.passcode)
        let reopened = try home.open(.tcti(tpm.tcti))
        try reopened.unlock(passcode: Self.passcode)
        #expect(try reopened.secretStore().hasPrefix("file"))
        #expect(Self.secrets(in: reopened) == Self.expected(20))
        try reopened.moveSecrets(toTPM: true, passcode: Self.passcode)
        #expect(try reopened.secretStore().hasPrefix("TPM 2.0"))
    }

    @Test func aCopyFromBeforeTheMoveOpensNothingWrittenAfterIt() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        // No passcode: every class is wrapped by the device key, whose secret keeps its value.
        let home = try TPMHomeFixture()
        defer { home.remove() }
        #expect(TPMHomeFixture.add("before", "old", to: try home.open(.none)) == errSecSuccess)
        let before = try home.copy()
        defer { try? FileManager.default.removeItem(at: before) }
        let oldKeybag = try TPMAttackTests.sealedKeybag(in: home.directory)
        do {
            let device = try home.open(.tcti(tpm.tcti))
            try device.moveSecrets(toTPM: true, passcode: nil)
            #expect(TPMHomeFixture.add("after", "new", to: device) == errSecSuccess)
        }
        // Today's database with the old keybag, and the old device and keybag secrets.
        let attacked = TPMHomeFixture(directory: try home.copy())
        defer { attacked.remove() }
        try FileManager.default.removeItem(at: attacked.directory.appendingPathComponent(TPMHome.fileName))
        for name in [FileDeviceSecretStore.fileName, FileKeybagSecretStore.fileName] {
            try FileManager.default.copyItem(
                at: before.appendingPathComponent(name),
                to: attacked.directory.appendingPathComponent(name)
            )
        }
        try TPMAttackTests.writeSealedKeybag(oldKeybag, in: attacked.directory)
        let thief = try attacked.open(.none)
        #expect(TPMHomeFixture.read("after", from: thief).1 == nil)
    }

    @Test func aMoveCutShortBeforeItsCommitIsUndoneAtTheNextOpening() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try Self.keychainInFiles(items: 20)
        defer { home.remove() }
        // What a move killed before its transaction committed leaves: a staged binding in the TPM.
        let leftover = try TPMHome(directory: home.directory, configuration: tpm.tcti).stage(
            keeping: .init(size: .bits256)
        )
        #expect(home.fileNames.contains(URL(filePath: leftover.path).lastPathComponent))
        let device = try home.open(.tcti(tpm.tcti))
        #expect(try device.secretStore().hasPrefix("file"))
        #expect(!home.fileNames.contains { $0.hasPrefix(TPMHome.fileName) })
        for index in leftover.binding.indices {
            #expect(try Self.isDefined(index, in: tpm) == false)
        }
        // The unlock then moves it, whole.
        try device.unlock(passcode: Self.passcode)
        #expect(Self.secrets(in: device) == Self.expected(20))
        #expect(try device.secretStore().hasPrefix("TPM 2.0"))
    }

    @Test func aMoveCutShortAfterItsCommitIsFinishedAtTheNextOpening() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try Self.keychainInFiles(items: 20)
        defer { home.remove() }
        let before = try home.copy()
        defer { try? FileManager.default.removeItem(at: before) }
        do {
            let device = try home.open(.tcti(tpm.tcti))
            try device.moveSecrets(toTPM: true, passcode: Self.passcode)
        }
        // Killed after the commit, before the binding was installed and the files erased.
        let staged = home.directory.appendingPathComponent(TPMHome.fileName + "." + String(repeating: "ab", count: 16))
        try FileManager.default.moveItem(at: home.directory.appendingPathComponent(TPMHome.fileName), to: staged)
        for name in [FileDeviceSecretStore.fileName, FileKeybagSecretStore.fileName] {
            try FileManager.default.copyItem(
                at: before.appendingPathComponent(name),
                to: home.directory.appendingPathComponent(name)
            )
        }
        let device = try home.open(.tcti(tpm.tcti))
        try device.unlock(passcode: Self.passcode)
        #expect(Self.secrets(in: device) == Self.expected(20))
        #expect(try device.secretStore().hasPrefix("TPM 2.0"))
        #expect(home.fileNames.contains(TPMHome.fileName))
        #expect(!home.fileNames.contains(FileDeviceSecretStore.fileName))
        #expect(!home.fileNames.contains(FileKeybagSecretStore.fileName))
    }
}

/// Progress reports, kept for the test to read.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var reports: [(done: Int, total: Int)] = []

    func add(_ done: Int, _ total: Int) { lock.withLock { reports.append((done, total)) } }

    var last: (done: Int, total: Int)? { lock.withLock { reports.last } }
}
