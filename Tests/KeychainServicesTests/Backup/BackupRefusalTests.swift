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
import KeychainServices
import KeychainTesting
import Testing

/// A damaged, cut, foreign or wrongly opened backup is refused before anything is written: the
/// keychain restored into stays exactly as it was.
@Suite struct BackupRefusalTests {
    static let password = BackupRestoreTests.password

    /// A backup of a few items, its bytes, and a target keychain with a passcode and one item of its own.
    private static func prepared(
        _ body: (_ file: URL, _ bytes: Data, _ target: TemporaryKeychain) async throws -> Void
    ) async throws {
        let source = try TemporaryKeychain()
        source.run {
            for index in 0..<40 {
                let secret = String(repeating: "s", count: 3_000) + "\(index)"
                #expect(KeychainContents.addPassword("item-\(index)", secret: secret) == errSecSuccess)
            }
        }
        let target = try TemporaryKeychain(passcode: "2468")
        target.run { #expect(KeychainContents.addPassword("mine", secret: "untouched") == errSecSuccess) }
        try await BackupRestoreTests.withBackupPath { file in
            _ = try await source.device.backup(to: file, password: password)
            try await body(file, try Data(contentsOf: file), target)
        }
    }

    private static func expectRefused(
        _ target: TemporaryKeychain,
        _ file: URL,
        password: String = password,
        code: KeychainDeviceError.Code,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let before = target.run { KeychainContents.lines() }
        await #expect(sourceLocation: sourceLocation) {
            try await target.device.restore(from: file, password: password, passcode: "2468")
        } throws: { ($0 as? KeychainDeviceError)?.code == code }
        #expect(target.run { KeychainContents.lines() } == before, sourceLocation: sourceLocation)
    }

    @Test func aFlippedByteAnywhereIsRefused() async throws {
        try await Self.prepared { file, bytes, target in
            #expect(bytes.count > 100_000)  // several chunks: a flip in the last one must stop the first
            for offset in [100, bytes.count / 2, bytes.count - 1] {
                var altered = bytes
                altered[offset] ^= 0x01
                try altered.write(to: file)
                await Self.expectRefused(target, file, code: .damaged)
            }
        }
    }

    @Test func aCutFileIsRefused() async throws {
        try await Self.prepared { file, bytes, target in
            for length in [0, 20, bytes.count / 2, bytes.count - 1] {
                try bytes.prefix(length).write(to: file)
                await Self.expectRefused(target, file, code: .damaged)
            }
            var extended = bytes
            extended.append(0)
            try extended.write(to: file)
            await Self.expectRefused(target, file, code: .damaged)
        }
    }

    /// The backup's password is not the keychain's passcode: a wrong one costs no passcode attempt.
    @Test func aWrongPasswordIsRefusedAndCountsNothing() async throws {
        try await Self.prepared { file, _, target in
            await Self.expectRefused(target, file, password: "not the password", code: .wrongPassword)
            let failures = try target.device.passcodeAttempts().failures
            #expect(failures == 0)
        }
    }

    @Test func aNewerFormatIsRefusedWithWhatToDo() async throws {
        try await Self.prepared { file, bytes, target in
            var newer = bytes
            newer[8] = 0x7f  // the version, after the eight-byte magic
            try newer.write(to: file)
            await Self.expectRefused(target, file, code: .notAvailable)
            await #expect {
                try await target.device.restore(from: file, password: Self.password, passcode: "2468")
            } throws: { ($0 as? KeychainDeviceError)?.message.contains("newer") == true }
        }
    }

    @Test func aFolderOrAMissingFileIsAClearError() async throws {
        try await Self.prepared { file, _, target in
            let folder = file.deletingLastPathComponent()
            await Self.expectRefused(target, folder, code: .io)
            await Self.expectRefused(target, folder.appendingPathComponent("missing"), code: .io)
            // Writing a backup over a folder fails the same way, leaving the folder.
            await #expect {
                try await target.device.backup(to: folder, password: Self.password, passcode: "2468")
            } throws: { ($0 as? KeychainDeviceError)?.code == .io }
        }
    }
}
