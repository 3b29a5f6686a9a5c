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
import Testing

@testable import KeychainDevice
@testable import KeychainEngine

/// A keychain home for the TPM tests, opened as a process would open it: with a TPM (swtpm) or
/// with the files, at the tests' passcode cost.
struct TPMHomeFixture {
    let directory: URL

    init() throws {
        directory = URL(fileURLWithPath: "/tmp/kc-tpmhome-\(UUID().uuidString.prefix(8))")
    }

    init(directory: URL) {
        self.directory = directory
    }

    /// A new home, made with a TPM (or the files), with `passcode` set and one item: "alice",
    /// whose secret is "s3cret-token".
    static func withPasscode(_ passcode: String, tpm: SoftwareTPM?) throws -> TPMHomeFixture {
        let home = try TPMHomeFixture()
        let device = try home.open(choice(tpm))
        try device.setPasscode(passcode)
        #expect(add("alice", "s3cret-token", to: device) == errSecSuccess)
        return home
    }

    /// A device on the home as a fresh process opens it (nothing unlocked).
    func open(_ tpm: TPMChoice) throws -> Device {
        var configuration = DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none, engine: .embedded)
        configuration.tpm = tpm
        return try Device(home: KeychainHome(url: directory), configuration: configuration)
    }

    /// The store a choice gives: a software TPM's, or the files.
    static func choice(_ tpm: SoftwareTPM?) -> TPMChoice {
        tpm.map { .tcti($0.tcti) } ?? .none
    }

    /// The names of the home's files.
    var fileNames: Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }

    /// Every file of the home, copied to a new directory (a backup, a disk image).
    func copy() throws -> URL {
        let copy = URL(fileURLWithPath: "/tmp/kc-tpmcopy-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in fileNames {
            try FileManager.default.copyItem(
                at: directory.appendingPathComponent(name),
                to: copy.appendingPathComponent(name)
            )
        }
        return copy
    }

    /// Puts an earlier copy back in place of the home.
    func restore(_ copy: URL) throws {
        try FileManager.default.removeItem(at: directory)
        try FileManager.default.copyItem(at: copy, to: directory)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Items

    /// Adds a generic password.
    static func add(_ account: String, _ secret: String, to device: Device) -> OSStatus {
        Device.withCurrent(device) {
            let item: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "tpm.example.invalid",
                kSecAttrAccount as String: account, kSecValueData as String: Data(secret.utf8),
            ]
            return SecItemAdd(item as CFDictionary, nil)
        }
    }

    /// Reads a generic password: its status and secret.
    static func read(_ account: String, from device: Device) -> (OSStatus, String?) {
        Device.withCurrent(device) {
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "tpm.example.invalid",
                kSecAttrAccount as String: account, kSecReturnData as String: true,
            ]
            var result: CFTypeRef?
            let status = SecItemCopyMatching(query as CFDictionary, &result)
            return (status, (result as? Data).map { String(decoding: $0, as: UTF8.self) })
        }
    }
}
