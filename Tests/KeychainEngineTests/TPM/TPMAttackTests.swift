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
import GRDB
import KeychainContract
import KeychainServices
import KeychainTestSupport
import Testing

@testable import KeychainDevice
@testable import KeychainEngine

/// The attacks a TPM stops, each run against the file store (where it succeeds, as the README
/// says) and against a keychain bound to a TPM (swtpm), where it must fail.
@Suite(.serialized) struct TPMAttackTests {
    static let passcode = "482916"

    @Test(arguments: [false, true])
    func everyFileCopiedToAnotherMachineOpensNothing(usesTPM: Bool) throws {
        let tpm = usesTPM ? try SoftwareTPM() : nil
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture.withPasscode(Self.passcode, tpm: tpm)
        defer { home.remove() }
        let stolen = TPMHomeFixture(directory: try home.copy())
        defer { stolen.remove() }
        let otherMachine = usesTPM ? try SoftwareTPM() : nil
        defer { withExtendedLifetime(otherMachine) {} }
        let opened = Self.attempt { try stolen.open(TPMHomeFixture.choice(otherMachine)) }
        if usesTPM {
            // The device key is the first TPM's: the second refuses its blob, and nothing opens.
            guard case .failure(let error as KeychainDeviceError) = opened else {
                Issue.record("the copy opened on another TPM")
                return
            }
            #expect(error.code == .damaged)
            #expect(error.message.contains("another TPM"))
        } else {
            let device = try opened.get()
            try device.unlock(passcode: Self.passcode)
            #expect(TPMHomeFixture.read("alice", from: device).1 == "s3cret-token")
        }
    }

    @Test(arguments: [false, true])
    func aHomePutBackAfterFiveWrongGuessesKeepsTheBackoff(usesTPM: Bool) throws {
        let tpm = usesTPM ? try SoftwareTPM() : nil
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture.withPasscode(Self.passcode, tpm: tpm)
        defer { home.remove() }
        let before = try home.copy()
        defer { try? FileManager.default.removeItem(at: before) }
        do {
            let device = try home.open(TPMHomeFixture.choice(tpm))
            for guess in ["000000", "111111", "222222", "333333", "444444"] {
                let refused = #expect(throws: KeychainDeviceError.self) { try device.unlock(passcode: guess) }
                #expect(refused?.code == .wrongPasscode, "\(String(describing: refused))")
            }
            #expect(try device.passcodeAttempts().failures == 5)
        }
        try home.restore(before)
        let device = try home.open(TPMHomeFixture.choice(tpm))
        if usesTPM {
            #expect(try device.passcodeAttempts().failures == 5)
            let refused = #expect(throws: KeychainDeviceError.self) { try device.unlock(passcode: Self.passcode) }
            #expect(refused?.code == .backoff)
        } else {
            #expect(try device.passcodeAttempts().failures == 0)
            try device.unlock(passcode: Self.passcode)
        }
    }

    @Test(arguments: [false, true])
    func anOldKeybagOpensNothingAfterThePasscodeChanged(usesTPM: Bool) throws {
        let tpm = usesTPM ? try SoftwareTPM() : nil
        defer { withExtendedLifetime(tpm) {} }
        let home = try TPMHomeFixture.withPasscode(Self.passcode, tpm: tpm)
        defer { home.remove() }
        // The keybag as it was (its row, and its secret where a file holds one), before the change.
        let oldKeybag = try Self.sealedKeybag(in: home.directory)
        let keybagFile = home.directory.appendingPathComponent(FileKeybagSecretStore.fileName)
        let oldSecret = try? Data(contentsOf: keybagFile)
        do {
            let device = try home.open(TPMHomeFixture.choice(tpm))
            try device.changePasscode(from: Self.passcode, to: "735102")
            #expect(TPMHomeFixture.add("bob", "added-since", to: device) == errSecSuccess)
        }
        // Today's files with the old keybag (and its old secret file) put back.
        let attacked = TPMHomeFixture(directory: try home.copy())
        defer { attacked.remove() }
        try Self.writeSealedKeybag(oldKeybag, in: attacked.directory)
        if let oldSecret {
            try oldSecret.write(to: attacked.directory.appendingPathComponent(FileKeybagSecretStore.fileName))
        }
        #expect(usesTPM == (oldSecret == nil))
        let opened = Self.attempt { try attacked.open(TPMHomeFixture.choice(tpm)) }
        if usesTPM {
            // The old keybag's secret was overwritten inside the TPM: the old keybag does not open.
            guard case .failure(let error as KeychainDeviceError) = opened else {
                Issue.record("the old keybag opened")
                return
            }
            #expect(error.code == .damaged)
        } else {
            // The old keybag opens with its secret's copy and the old passcode.
            try opened.get().unlock(passcode: Self.passcode)
        }
    }

    // MARK: Helpers

    static func attempt<T>(_ body: () throws -> T) -> Result<T, any Error> {
        do {
            return .success(try body())
        } catch {
            return .failure(error)
        }
    }

    typealias SealedKeybag = (generation: Int64, identifier: Data, sealed: Data)

    static func sealedKeybag(in directory: URL) throws -> SealedKeybag {
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("keychain.db").path)
        return try queue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT generation, secret_id, sealed FROM sealed_keybag"))
            return (row[0], row[1], row[2])
        }
    }

    static func writeSealedKeybag(_ keybag: SealedKeybag, in directory: URL) throws {
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("keychain.db").path)
        try queue.write { db in
            try db.execute(
                sql: "UPDATE sealed_keybag SET generation = ?, secret_id = ?, sealed = ?",
                arguments: [keybag.generation, keybag.identifier, keybag.sealed]
            )
        }
    }
}
