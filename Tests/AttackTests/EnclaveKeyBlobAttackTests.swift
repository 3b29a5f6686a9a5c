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
import KeychainTesting
import SoftwareEnclave
import Testing

@testable import KeychainCore
@testable import KeychainDevice

/// CryptoKit's Secure Enclave keys live in blobs the application keeps, which the engine opens with
/// keys that outlive passcode changes.
///
/// A thief with the blob and a copy of the keychain's files — today's, or one from before the passcode was
/// set or changed — must not sign with it.
@Suite struct EnclaveKeyBlobAttackTests {
    static let message = Data("transfer everything".utf8)

    /// The CryptoTokenKit code of a refusal; the keychain status under it must be `errSecParam` (not a
    /// key this keychain opens), so that a damaged copy failing for another reason does not pass.
    static func refusal(_ body: () throws -> Void) -> Int? {
        do {
            try body()
            return nil
        } catch {
            let error = error as NSError
            if error.code == -3 {
                #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == Int(errSecParam))
            }
            return error.code
        }
    }

    static func thief(_ home: URL) throws -> Device {
        try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodeCost: .testing, passcodePrompt: .none)
        )
    }

    @Test func aCopyFromBeforeThePasscodeOpensNoBlobMadeSince() throws {
        let keychain = try TemporaryKeychain()
        // A blob made while there was no passcode: its class's blob key is in the copy.
        _ = try keychain.run { try SecureEnclave.P256.Signing.PrivateKey() }
        let before = try Attacker.copy(keychain.directory, label: "blob-before-passcode")
        defer { Attacker.remove(before) }
        try keychain.device.setPasscode("482916")
        let blob = try keychain.run { try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }

        let thief = try Self.thief(before)
        Device.withCurrent(thief) {
            #expect(
                Self.refusal {
                    _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob).signature(for: Self.message)
                } == -3
            )
        }
        // The owner signs with it.
        try keychain.run {
            let key = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob)
            #expect(key.publicKey.isValidSignature(try key.signature(for: Self.message), for: Self.message))
        }
    }

    @Test func aCopyFromBeforeAPasscodeChangeOpenedWithTheOldPasscodeOpensNoBlobMadeSince() throws {
        let keychain = try TemporaryKeychain(passcode: "1111")
        let older = try keychain.run { try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }
        let before = try Attacker.copy(keychain.directory, label: "blob-before-change")
        defer { Attacker.remove(before) }
        try keychain.device.changePasscode(from: "1111", to: "2222")
        let blob = try keychain.run { try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }

        // Today's database with the old keybag, unlocked with the old (leaked) passcode.
        let mix = try Attacker.copy(keychain.directory, label: "blob-change-mix")
        defer { Attacker.remove(mix) }
        try Attacker.graftKeybag(from: before, into: mix)
        try Attacker.graftFiles(["keybag.key"], from: before, into: mix)
        for home in [before, mix] {
            let thief = try Self.thief(home)
            try thief.unlock(passcode: "1111")
            try Device.withCurrent(thief) {
                #expect(
                    Self.refusal {
                        _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob).signature(
                            for: Self.message
                        )
                    } == -3
                )
                // The limit the README states: a blob made before the change opens with the copy and the old passcode.
                let old = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: older)
                #expect(old.publicKey.isValidSignature(try old.signature(for: Self.message), for: Self.message))
            }
        }
    }

    @Test func todaysFilesWithoutThePasscodeOpenNoBlob() throws {
        let keychain = try TemporaryKeychain(passcode: "482916")
        let blob = try keychain.run { try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation }
        let stolen = try Attacker.copy(keychain.directory, label: "blob-stolen")
        defer { Attacker.remove(stolen) }
        let thief = try Self.thief(stolen)
        #expect(throws: (any Error).self) { try thief.unlock(passcode: "000000") }
        Device.withCurrent(thief) {
            // Locked: the class's blob key is not available, so neither is the key.
            #expect(Self.refusal { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: blob) } == -9)
        }
    }

    @Test func aBlobsClearPartCannotBeRedirected() throws {
        let keychain = try TemporaryKeychain()
        try keychain.run {
            _ = try SecureEnclave.P256.Signing.PrivateKey()
            try keychain.device.setPasscode("482916")
            let blob = try SecureEnclave.P256.Signing.PrivateKey().dataRepresentation
            // The class named below has blob keys too, so a refusal comes from the binding, not a missing key.
            let access = try #require(
                SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlockedThisDeviceOnly, [], nil)
            )
            _ = try SecureEnclave.P256.Signing.PrivateKey(accessControl: access)
            // Naming the first generation of the blob key, or another class, opens nothing.
            let nameLength = Int(blob[1])
            var older = blob
            older[2 + nameLength + 3] = 0
            #expect(older != blob)
            var otherClass = blob
            let name = String(decoding: blob[2..<(2 + nameLength)], as: UTF8.self)
            #expect(name == ProtectionClass.afterFirstUnlockThisDeviceOnly.rawValue)
            let replacement = Array(ProtectionClass.whenUnlockedThisDeviceOnly.rawValue.utf8)
            otherClass.replaceSubrange(1..<(2 + nameLength), with: [UInt8(replacement.count)] + replacement)
            for altered in [older, otherClass] {
                #expect(
                    Self.refusal { _ = try SecureEnclave.P256.Signing.PrivateKey(dataRepresentation: altered) } == -3
                )
            }
        }
    }
}
