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
import KeychainTesting
import Testing

@testable import KeychainCore
@testable import KeychainEngine

/// The device secret comes from the store the engine is given (the seam a TPM store fills), never
/// from a file the keybag code chose itself.
@Suite struct SecretStoreInjectionTests {
    /// A device secret kept in memory, as a TPM would keep its key out of the home.
    final class MemoryDeviceSecretStore: DeviceSecretStore, @unchecked Sendable {
        // Guarded by `lock`.
        private var installed: SymmetricKey?
        private var pending: [StagedDeviceSecret] = []
        private let lock = NSLock()
        private(set) var stagings = 0

        var location: String { "memory" }

        func exists() -> Bool { lock.withLock { installed != nil } }

        func load() throws(KeychainError) -> SymmetricKey {
            guard let key = lock.withLock({ installed }) else {
                throw KeychainError(.decode, "no device secret in memory")
            }
            return key
        }

        func stage() throws(KeychainError) -> StagedDeviceSecret {
            try stage(keeping: SymmetricKey(size: .bits256))
        }

        func stage(keeping secret: SymmetricKey) throws(KeychainError) -> StagedDeviceSecret {
            let staged = StagedDeviceSecret(key: secret, reference: UUID().uuidString)
            lock.withLock {
                pending.append(staged)
                stagings += 1
            }
            return staged
        }

        func install(_ staged: StagedDeviceSecret) throws(KeychainError) {
            lock.withLock {
                if installed == nil { installed = staged.key }
                pending.removeAll { $0.reference == staged.reference }
            }
        }

        func staged() -> [StagedDeviceSecret] { lock.withLock { pending } }

        func discardStaged() { lock.withLock { pending.removeAll() } }

        func erase() {
            lock.withLock {
                installed = nil
                pending.removeAll()
            }
        }
    }

    static func open(_ directory: URL, device: (any DeviceSecretStore)?) throws(KeychainError) -> Keychain {
        let secrets = device.map { SecretStores(device: $0, keybag: FileKeybagSecretStore(directory: directory)) }
        return try Keychain(
            directory: directory,
            accessGroups: .standard,
            passcodeKDF: .testing,
            secrets: secrets.map { [$0] },
            logger: EngineLog().makeLogger()
        )
    }

    static func query(_ values: [String: Any], _ kind: KeychainOperation) throws(KeychainError) -> ItemQuery {
        try QueryParser.parse(values, for: kind)
    }

    @Test func aKeychainMadeWithAnotherStoreHasNoDeviceKeyFileAndOpensOnlyWithThatStore() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-stores-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = MemoryDeviceSecretStore()
        let keychain = try Self.open(directory, device: store)
        _ = try keychain.add(
            try Self.query(["class": "genp", "svce": "Injected", "acct": "me", "v_Data": Data("kept".utf8)], .add)
        )
        #expect(store.stagings == 1)
        #expect(store.exists() && store.staged().isEmpty)
        #expect(
            !FileManager.default.fileExists(
                atPath: directory.appendingPathComponent(FileDeviceSecretStore.fileName).path
            )
        )

        // The same store opens it again, and the item reads back.
        let reopened = try Self.open(directory, device: store)
        let found = try reopened.search(
            try Self.query(["class": "genp", "svce": "Injected", "r_Data": true], .copyMatching)
        )
        #expect(found.first?.data == Data("kept".utf8))
        #expect(store.stagings == 1)

        // The files alone cannot: the keybag was sealed under the store's secret, and no new one is made.
        let error = #expect(throws: KeychainError.self) { try Self.open(directory, device: nil) }
        #expect(error?.code == .decode)
        #expect(
            !FileManager.default.fileExists(
                atPath: directory.appendingPathComponent(FileDeviceSecretStore.fileName).path
            )
        )
    }

    @Test func theFileStoreInstallsOnlyASecretItStagedInItsHome() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("kc-staged-\(UUID().uuidString)")
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent(
            "kc-elsewhere-\(UUID().uuidString)"
        )
        for folder in [home, elsewhere] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        defer { for folder in [home, elsewhere] { try? FileManager.default.removeItem(at: folder) } }
        let store = FileDeviceSecretStore(directory: home)
        let stray = elsewhere.appendingPathComponent("device.key." + String(repeating: "a", count: 32))
        try Data(repeating: 7, count: 32).write(to: stray)
        let foreign = StagedDeviceSecret(key: SymmetricKey(size: .bits256), reference: stray.path)
        let error = #expect(throws: KeychainError.self) { try store.install(foreign) }
        #expect(error?.code == .internalInconsistency)
        #expect(FileManager.default.fileExists(atPath: stray.path))
        #expect(!store.exists())

        // Its own staged secret installs, and the staged name goes.
        let staged = try store.stage()
        try store.install(staged)
        #expect(store.exists() && store.staged().isEmpty)
        #expect(try store.load() == staged.key)
    }
}
