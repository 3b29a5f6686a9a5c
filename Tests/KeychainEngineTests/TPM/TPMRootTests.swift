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
import KeychainTPM
import KeychainTestSupport
import Testing

@testable import KeychainDevice
@testable import KeychainEngine

/// A keychain bound to a TPM (swtpm): what is on disk, what opens it, and what a failing TPM does.
@Suite(.serialized) struct TPMRootTests {
    static let passcode = "482916"

    @Test func aKeychainBoundToATPMKeepsNoSecretInItsFiles() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture()
        defer { home.remove() }
        do {
            let device = try home.open(.tcti(tpm.tcti))
            try device.setPasscode(Self.passcode)
            #expect(TPMHomeFixture.add("alice", "s3cret-token", to: device) == errSecSuccess)
            #expect(try device.secretStore().hasPrefix("TPM 2.0 (IBM"))
        }
        #expect(home.fileNames.contains(TPMHome.fileName))
        #expect(!home.fileNames.contains(FileDeviceSecretStore.fileName))
        #expect(!home.fileNames.contains(FileKeybagSecretStore.fileName))
        // A fresh process: locked until the passcode, then everything is there.
        let device = try home.open(.tcti(tpm.tcti))
        #expect(TPMHomeFixture.read("alice", from: device).0 == errSecInteractionNotAllowed)
        try device.unlock(passcode: Self.passcode)
        #expect(TPMHomeFixture.read("alice", from: device).1 == "s3cret-token")
    }

    @Test func itemOperationsSendTheTPMNothingAndAnUnlockWritesNoNVMemory() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture()
        defer { home.remove() }
        let device = try home.open(.tcti(tpm.tcti))
        try device.setPasscode(Self.passcode)
        #expect(TPMHomeFixture.add("warm-up", "x", to: device) == errSecSuccess)
        let before = TPMConnection.traffic(of: tpm.tcti)
        for index in 0..<200 {
            #expect(TPMHomeFixture.add("account-\(index)", "secret-\(index)", to: device) == errSecSuccess)
            #expect(TPMHomeFixture.read("account-\(index)", from: device).1 == "secret-\(index)")
        }
        #expect(TPMConnection.traffic(of: tpm.tcti).commands == before.commands)
        // A fresh process's unlock talks to the TPM (the device secret, the passcode's key, the
        // count) but writes none of its NV memory.
        try home.open(.tcti(tpm.tcti)).unlock(passcode: Self.passcode)
        let after = TPMConnection.traffic(of: tpm.tcti)
        #expect(after.commands > before.commands)
        #expect(after.nvWrites == before.nvWrites)
    }

    @Test func wrongPasscodesAreCountedInTheTPMAndTheRightOneClearsThem() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture()
        defer { home.remove() }
        let device = try home.open(.tcti(tpm.tcti))
        try device.setPasscode(Self.passcode)
        let counter = TPMHome(directory: home.directory, configuration: tpm.tcti)
        for guess in ["000000", "111111"] {
            let refused = #expect(throws: KeychainDeviceError.self) { try device.unlock(passcode: guess) }
            #expect(refused?.code == .wrongPasscode)
        }
        #expect(try counter.passcodeFailures() == 2)
        try device.unlock(passcode: Self.passcode)
        #expect(try counter.passcodeFailures() == 0)
        #expect(try device.passcodeAttempts().failures == 0)
    }

    @Test func aTPMThatStopsAnsweringFailsClearlyAndLosesNothing() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture.withPasscode(Self.passcode, tpm: tpm)
        defer { home.remove() }
        let device = try home.open(.tcti(tpm.tcti))
        tpm.stop()
        let failed = #expect(throws: KeychainDeviceError.self) { try device.unlock(passcode: Self.passcode) }
        #expect(failed?.code == .notAvailable)
        #expect(failed?.message.contains("TPM") == true)
        // Opening the keychain meanwhile fails the same way, and counts nothing.
        let reopened = #expect(throws: KeychainDeviceError.self) { try home.open(.tcti(tpm.tcti)) }
        #expect(reopened?.code == .notAvailable)
        try tpm.start()
        #expect(try device.passcodeAttempts().failures == 0)
        try device.unlock(passcode: Self.passcode)
        #expect(TPMHomeFixture.read("alice", from: device).1 == "s3cret-token")
    }

    @Test func anAlteredBindingIsRefusedWithoutACrash() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture()
        defer { home.remove() }
        do {
            let device = try home.open(.tcti(tpm.tcti))
            #expect(TPMHomeFixture.add("alice", "s3cret-token", to: device) == errSecSuccess)
        }
        let binding = home.directory.appendingPathComponent(TPMHome.fileName)
        let original = try Data(contentsOf: binding)
        // A byte of the device key's private area flipped, the file cut short, the file emptied.
        var flipped = original
        flipped[flipped.count - 5] ^= 0x40
        for damaged in [flipped, original.prefix(original.count / 2), Data()] {
            try damaged.write(to: binding)
            let refused = #expect(throws: KeychainDeviceError.self) { try home.open(.tcti(tpm.tcti)) }
            #expect(refused?.code == .damaged)
        }
        try original.write(to: binding)
        #expect(TPMHomeFixture.read("alice", from: try home.open(.tcti(tpm.tcti))).1 == "s3cret-token")
    }

    @Test func aCreationKilledBeforeOrAfterItsCommitNeverBricksTheHome() throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        // Killed before the commit: a staged binding (and its NV indices) and no keychain.
        let before = try TPMHomeFixture()
        defer { before.remove() }
        try FileManager.default.createDirectory(at: before.directory, withIntermediateDirectories: true)
        let leftover = try TPMHome(directory: before.directory, configuration: tpm.tcti).stage()
        let device = try before.open(.tcti(tpm.tcti))
        #expect(TPMHomeFixture.add("alice", "s3cret-token", to: device) == errSecSuccess)
        #expect(!before.fileNames.contains(URL(filePath: leftover.path).lastPathComponent))
        for index in leftover.binding.indices {
            #expect(
                try TPMConnection.using(tpm.tcti) { tpm throws(TPMError) in try tpm.isDefined(index: index) } == false
            )
        }
        // Killed after the commit, before the binding was installed: the next opening installs it.
        let after = try TPMHomeFixture.withPasscode(Self.passcode, tpm: tpm)
        defer { after.remove() }
        try FileManager.default.moveItem(
            at: after.directory.appendingPathComponent(TPMHome.fileName),
            to: after.directory.appendingPathComponent(TPMHome.fileName + "." + String(repeating: "0f", count: 16))
        )
        let reopened = try after.open(.tcti(tpm.tcti))
        try reopened.unlock(passcode: Self.passcode)
        #expect(TPMHomeFixture.read("alice", from: reopened).1 == "s3cret-token")
        #expect(after.fileNames.contains(TPMHome.fileName))
    }

    @Test func withoutATPMANewKeychainKeepsTheFilesAndSaysWhy() throws {
        let home = try TPMHomeFixture()
        defer { home.remove() }
        let missing = "swtpm:path=/tmp/kc-no-such-tpm-\(UUID().uuidString.prefix(8))"
        let device = try home.open(.tcti(missing))
        #expect(TPMHomeFixture.add("alice", "s3cret-token", to: device) == errSecSuccess)
        #expect(try device.secretStore().hasPrefix("file (no TPM: "))
        #expect(home.fileNames.contains(FileDeviceSecretStore.fileName))
        let forced = try TPMHomeFixture()
        defer { forced.remove() }
        #expect(try forced.open(.none).secretStore() == "file (no TPM: KEYCHAIN_TPM=none)")
    }
}
