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
import KeychainCore
import KeychainEngine
import KeychainSync
import KeychainTestSupport
import Logging
import Testing

/// A device whose keychain is bound to a TPM (swtpm) keeps its circle identity's membership and
/// agreement keys in that TPM: it joins, approves and receives the circle's keys through it, and
/// its identity item is useless on any other machine.
@Suite(.serialized) struct TPMDeviceIdentityTests {
    let server: PostgresServer

    init() throws { server = try PostgresServer() }

    private static func keychain(in tpm: SoftwareTPM) throws -> (Keychain, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kc-sync-tpm-\(UUID().uuidString.prefix(8))"
        )
        let keychain = try Keychain(
            directory: directory,
            accessGroups: .standard,
            passcodeKDF: .testing,
            secrets: SecretStores.candidates(in: directory, tpm: .tcti(tpm.tcti), logger: Logger(label: "tpm-test"))
        )
        return (keychain, directory)
    }

    @Test func aDeviceWithATPMJoinsApprovesAndExchangesThroughIt() async throws {
        let tpm = try SoftwareTPM()
        defer { withExtendedLifetime(tpm) {} }
        let laptop = try SyncedDevice("laptop", server: server.url)
        let phone = try SyncedDevice("phone", server: server.url, tpm: tpm)
        let tablet = try SyncedDevice("tablet", server: server.url)
        #expect(phone.keychain.deviceKeyStore != nil)
        #expect(phone.identity.isHardwareBound)
        #expect(!laptop.identity.isHardwareBound)

        // The phone's join request is signed in its TPM; the circle's keys reach it wrapped to its
        // TPM's agreement key, opened there.
        try await laptop.create()
        try await phone.join(approvedBy: laptop)
        try laptop.add("mail", "laptop-secret")
        try await laptop.sync()
        try await phone.sync()
        #expect(try phone.items() == ["mail": "laptop-secret"])

        // The phone approves a device: the list it signs in its TPM is taken by the others.
        try await tablet.join(approvedBy: phone)
        try phone.add("bank", "phone-secret")
        for device in [phone, laptop, tablet, laptop] { try await device.sync() }
        for device in [laptop, phone, tablet] {
            #expect(try device.items() == ["mail": "laptop-secret", "bank": "phone-secret"], "\(device.name)")
        }
        for device in [laptop, phone, tablet] {
            #expect(await (try device.exchange).status.refused.isEmpty, "\(device.name)")
        }

        // Read back from the keychain as a restarted daemon reads it: still the TPM's keys, and
        // they still sign as the device the circle knows.
        let stored = try #require(try phone.keychain.loadCircle())
        #expect(stored.state.identity.id == phone.identity.id)
        #expect(stored.state.identity.isHardwareBound)
        let message = Data("a device list".utf8)
        #expect(phone.identity.record.hasSigned(message, signature: try stored.state.identity.signature(for: message)))
    }

    @Test func membershipAndRecordSignaturesAreNotInterchangeable() throws {
        let identity = try DeviceIdentity(name: "laptop")
        let message = Data("signed bytes".utf8)
        let membership = try identity.signature(for: message)
        let record = identity.recordSignature(for: message)
        #expect(identity.record.hasSigned(message, signature: membership))
        #expect(identity.record.hasSignedRecord(message, signature: record))
        #expect(!identity.record.hasSignedRecord(message, signature: membership))
        #expect(!identity.record.hasSigned(message, signature: record))
    }

    @Test func aDamagedIdentityIsRefusedNotTrusted() throws {
        let kept = try DeviceIdentity(name: "laptop").rawRepresentation
        let magic = "SWKC-IDENTITY-2".utf8.count
        var unknownKind = kept
        unknownKind[unknownKind.startIndex + magic] = 2
        var otherPublicKey = kept
        // The first key: its kind, its 32-byte scalar and its 65-byte public key, each field after
        // a 4-byte length; the public key's last byte changed.
        let publicKeyEnd = magic + 1 + 4 + 32 + 4 + 65
        otherPublicKey[otherPublicKey.startIndex + publicKeyEnd - 1] ^= 1
        for damaged in [kept.prefix(kept.count - 3), unknownKind, otherPublicKey, kept + Data([0])] {
            let refused = #expect(throws: SyncError.self) {
                try DeviceIdentity(rawRepresentation: Data(damaged), store: nil)
            }
            #expect(refused?.reason == .malformed)
        }
    }

    @Test func anIdentityKeptInATPMIsUselessWithoutThatTPM() throws {
        let tpm = try SoftwareTPM()
        let other = try SoftwareTPM()
        defer { withExtendedLifetime((tpm, other)) {} }
        let (keychain, directory) = try Self.keychain(in: tpm)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (elsewhere, otherDirectory) = try Self.keychain(in: other)
        defer { try? FileManager.default.removeItem(at: otherDirectory) }
        let store = try #require(keychain.deviceKeyStore)
        let identity = try DeviceIdentity(name: "phone", store: store)
        let kept = identity.rawRepresentation
        let message = Data("a device list".utf8)

        // Through its own TPM, read back: it signs as the device the circle knows.
        let reloaded = try DeviceIdentity(rawRepresentation: kept, store: store)
        #expect(reloaded.id == identity.id)
        #expect(identity.record.hasSigned(message, signature: try reloaded.signature(for: message)))

        // Without a TPM, or with another machine's, the membership key does nothing.
        let noTPM = #expect(throws: SyncError.self) { try DeviceIdentity(rawRepresentation: kept, store: nil) }
        #expect(noTPM?.reason == .unavailable)
        let otherStore = try #require(elsewhere.deviceKeyStore)
        let moved = try DeviceIdentity(rawRepresentation: kept, store: otherStore)
        let refused = #expect(throws: SyncError.self) { try moved.signature(for: message) }
        #expect(refused?.reason == .unavailable)

        // A grant wrapped to the TPM's agreement key opens only through that TPM.
        let granter = try DeviceIdentity(name: "laptop")
        let circle = CircleID.make()
        let keys = CircleKeys.first()
        let list = try DeviceList.signed(
            circle: circle,
            version: 1,
            devices: [granter.record, identity.record],
            keys: keys,
            by: granter
        )
        let grant = try KeyGrant(keys, circle: circle, to: identity.record, by: granter)
        let opened = try KeyGrant.open(grant.encoded, circle: circle, for: reloaded, trusted: list)
        #expect(opened.digest == keys.digest)
        let unopened = #expect(throws: SyncError.self) {
            try KeyGrant.open(grant.encoded, circle: circle, for: moved, trusted: list)
        }
        #expect(unopened?.reason == .unavailable)
    }
}
