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
package import Foundation
import GRDB
package import KeychainCore
package import Logging

/// An open keychain and its item operations: Apple's `SecItemServer` and `SecItemDb`.
///
/// This is the engine behind `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` and
/// `SecItemDelete`. It is safe to use from many threads at once; every operation is one
/// database transaction. The keybag and lock state are the ``keybagService``'s; the attempt
/// counters, shared with the authentication gate, are its ``KeybagService/attempts``.
///
/// ```swift
/// let keychain = try Keychain(directory: home, accessGroups: .standard)
/// var query = try QueryParser.parse(["class": "genp", "svce": "Example"], for: .copyMatching)
/// let items = try keychain.search(query)
/// ```
package final class Keychain: Sendable {
    // MARK: Properties

    /// The access groups this process may use.
    package let accessGroups: AccessGroups
    /// The clock used for item dates and passcode back-off.
    package let clock: @Sendable () -> Date
    /// The keybag and this process's lock state.
    package let keybagService: KeybagService

    // The parts, internal to the engine: tests reach them with `@testable import`, harnesses
    // through the narrow calls in Keychain+Testing.swift.
    /// Where the device secret lives, as `security status` names it: "TPM 2.0 (…)" or "file".
    package var storeDescription: String { keybagService.stores.device.storeDescription }
    /// The TPM behind the keychain, which makes and uses its Secure Enclave keys; `nil` for files.
    var hardware: (any HardwareRoot)? { keybagService.stores.device.hardwareRoot }
    /// The TPM that uses the Secure Enclave keys made in it: the keychain's, or — for a keychain
    /// moved back to files — the one the configuration names (the keys never leave it).
    var enclaveHardware: (any HardwareRoot)? { hardware ?? enclaveTPM }
    private let enclaveTPM: (any HardwareRoot)?
    let store: SQLiteItemStore
    let codec: ItemCodec
    let logger: Logger
    /// The changes of synchronizable items, for the circle the keychain is in.
    let syncJournal = SyncJournal()

    /// The access groups a request may use: the ones its caller was granted, else this process's.
    func accessGroups(of query: ItemQuery) -> AccessGroups {
        query.accessGroups ?? accessGroups
    }

    /// `query` limited to the groups its process may write (see ``AccessGroups/writable``).
    func writing(_ query: ItemQuery) -> ItemQuery {
        var limited = query
        limited.accessGroups = accessGroups(of: query).writable
        return limited
    }

    /// The keychain home: `keychain.db`, `device.key` and `keybag.key`.
    package var directory: URL { keybagService.directory }
    /// The wrong-passcode and failed-match counts.
    package var attempts: AttemptCounters { keybagService.attempts }
    /// The class keys and look-up keys this process holds.
    var keybag: Keybag { keybagService.keybag }

    // MARK: Initialization

    /// Opens the keychain in `directory`, creating it (and the directory, mode 0700) if there is none.
    ///
    /// A home or file that another user owns or can write is refused; so is a damaged database, a
    /// database whose device secret or keybag secret is missing, and one written by a newer
    /// version: the engine never replaces a keychain it cannot read with an empty one. `secrets`
    /// says where the device and keybag secrets live — by default, files in `directory` — in the
    /// order to try them (a move between stores that was interrupted leaves a home with two).
    package init(
        directory: URL,
        accessGroups: AccessGroups,
        passcodeKDF: PasscodeKDF = .standard,
        clock: @escaping @Sendable () -> Date = { Date() },
        secrets: [SecretStores]? = nil,
        storageQuota: Int? = nil,
        enclaveTPM: (any HardwareRoot)? = nil,
        logger: Logger = Logger(label: "swift-keychain")
    ) throws(KeychainError) {
        self.enclaveTPM = enclaveTPM
        // The path as checked: `..` resolved once, the same for every file opened in it.
        let directory = directory.standardizedFileURL
        self.accessGroups = accessGroups
        self.clock = clock
        self.logger = logger
        try PrivateDirectory.prepare(directory)
        for name in [FileDeviceSecretStore.fileName, FileKeybagSecretStore.fileName, TPMHome.fileName] {
            try PrivateFile.check(directory.appendingPathComponent(name).path)
        }
        let store = try SQLiteItemStore(
            url: directory.appendingPathComponent(SQLiteItemStore.fileName),
            quota: storageQuota
        )
        self.store = store
        let candidates = secrets ?? [.files(in: directory)]
        var opened: (KeybagService, Int)?
        // Stores that did not answer (a TPM away): what they hold is unknown, so never erased.
        var unreachable: Set<Int> = []
        for (index, candidate) in candidates.enumerated() where opened == nil {
            let attempt = Result { () throws(KeychainError) in
                let service = try KeybagService(
                    directory: directory,
                    store: store,
                    accessGroups: accessGroups,
                    passcodeKDF: passcodeKDF,
                    attempts: AttemptCounters(store: store, clock: clock, hardware: candidate.device.hardwareRoot),
                    secrets: candidate,
                    logger: logger
                )
                if candidate.device.hardwareRoot != nil { try service.attempts.adoptHardwareCount() }
                return service
            }
            switch attempt {
            case .success(let service):
                opened = (service, index)
            case .failure(let error)
            where [.decode, .staleSnapshot, .notAvailable].contains(error.code) && index < candidates.count - 1:
                // An interrupted move (the keybag is in the other store), or a new keychain whose TPM
                // failed: the next store is tried.
                if error.code == .notAvailable { unreachable.insert(index) }
                logger.notice(
                    "the keychain did not open with one of its stores; trying the next",
                    metadata: ["keychain.error": "\(error.message)"]
                )
            case .failure(let error):
                throw error
            }
        }
        guard let (service, used) = opened else {
            throw KeychainError(.internalInconsistency, "no store was given for the keychain's secrets")
        }
        keybagService = service
        codec = service.codec
        let others = candidates.enumerated().filter { $0.offset != used && !unreachable.contains($0.offset) }
        guard !others.isEmpty else { return }
        // What an interrupted move (or a failed creation) left in the store not in use is erased
        // under the write lock, and only while the keybag committed then still opens with the
        // store in use: a move by another process may have committed since this one opened.
        let erased = Result { () throws(KeychainError) -> Bool in
            try store.write { db throws(KeychainError) -> Bool in
                guard (try? service.vault.stored(db, isWriting: true)) != nil else { return false }
                for (_, other) in others {
                    other.keybag.erase()
                    other.device.erase()
                }
                return true
            }
        }
        if case .success(true) = erased {
            logger.notice(
                "erased what the keychain left in another store",
                metadata: ["keychain.store": "\(service.stores.device.storeDescription)"]
            )
        }
    }
}
