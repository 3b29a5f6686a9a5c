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
import KeychainCore
import KeychainEngine
import Logging

/// The keychains of a system-mode daemon (`securityd --system`): one per user, in
/// `<state>/<uid>/`, owned by the daemon's user and closed to everyone else, opened when that
/// user's first client connects.
///
/// No process of the user can read the files (iOS's arrangement: apps never see the keychain's
/// database), so a copy of the user's home holds nothing of the keychain. Each keychain has its
/// own lock state, passcode, sensor and contexts.
final class SystemKeychains: Sendable {
    private let state: URL
    private let configuration: DeviceConfiguration
    private var logger: Logger { configuration.logger }
    /// The keychains open now, each with the account it was opened for.
    private let responders = LockedState<[UInt32: (responder: EngineResponder, account: AccountBinding)]>([:])
    /// Whether a uid the user database does not know is served (`serve-uids-without-account`).
    private let servesUidsWithoutAccount: Bool
    /// The account of a uid now (the user database).
    private let account: @Sendable (UInt32) -> AccountBinding?
    /// Accounts looked up in the last ``accountCheckInterval``, by uid: a user who opens
    /// connections by the thousand does not make the daemon read the user database as often.
    private let recentAccounts = LockedState<[UInt32: (account: AccountBinding, at: ContinuousClock.Instant)]>([:])
    /// How long an account looked up stands; a uid reused sooner is noticed at most this late.
    static let accountCheckInterval = Duration.seconds(1)

    /// The folder of all users' keychains (created 0700 if missing), each opened with `configuration`.
    init(
        state: URL,
        configuration: DeviceConfiguration,
        servesUidsWithoutAccount: Bool = false,
        account: @escaping @Sendable (UInt32) -> AccountBinding? = AccountBinding.current
    ) throws(KeychainError) {
        self.servesUidsWithoutAccount = servesUidsWithoutAccount
        try PrivateDirectory.prepare(state)
        self.state = state
        self.configuration = configuration
        self.account = account
    }

    /// The roster that gives each user their own keychain.
    var roster: EngineRoster {
        EngineRoster(
            responder: { [self] userID in Result { () throws(KeychainError) in try responder(for: userID) } },
            // Run as another account, the daemon sees into no user's process: a client with
            // no_new_privs or a seccomp filter may be a sandboxed app, and gets nothing.
            confinementBaseline: ClientIdentity.Confinement.none
        )
    }

    /// The engines open now, for the auto-lock.
    var engines: [any Engine] {
        responders.withLock { $0.values.map(\.responder.engine) }
    }

    /// `userID`'s keychain if it is open (a lock request never opens one).
    func engine(ofUser userID: UInt32) -> (any Engine)? {
        responders.withLock { $0[userID]?.responder.engine }
    }

    /// The responder of `userID`'s keychain, opening it on first use.
    ///
    /// The keychain must belong to the account that has `userID` now (``AccountBinding``): one
    /// recorded for another account, or for an account that is gone, is refused; an open one
    /// whose account changed is locked and closed first.
    func responder(for userID: UInt32) throws(KeychainError) -> EngineResponder {
        guard let account = currentAccount(userID) else {
            throw KeychainError(.notAvailable, "the user database cannot be read now; try again")
        }
        guard !account.isNoAccount || servesUidsWithoutAccount else {
            throw KeychainError(
                .notAvailable,
                "uid \(userID) has no account here, and the keychain daemon serves accounts only (serve-uids-without-account = yes in its configuration serves others)"
            )
        }
        return try responders.withLock {
            (
                responders: inout [UInt32: (responder: EngineResponder, account: AccountBinding)]
            ) throws(KeychainError)
                -> EngineResponder in
            if let open = responders[userID] {
                if open.account == account { return open.responder }
                // The uid has another account now: what the old one unlocked goes with it.
                responders[userID] = nil
                try? open.responder.engine.lock()
                logger.notice("closed a keychain whose account changed", metadata: ["keychain.uid": "\(userID)"])
            }
            let home = state.appendingPathComponent(String(userID), isDirectory: true)
            try PrivateDirectory.prepare(home)
            switch try AccountBinding.recorded(in: home) {
            case nil:
                try account.record(in: home)
            case let recorded? where recorded != account:
                logger.error(
                    "refused a keychain kept for another account",
                    metadata: ["keychain.uid": "\(userID)"]
                )
                throw KeychainError(
                    .invalidKeychain,
                    "the keychain kept for uid \(userID) belongs to \(recorded.isNoAccount ? "a uid without an account" : "the account \(recorded.name)"), not to \(account.isNoAccount ? "this uid, which has no account" : account.name); an administrator can keep it (securityd --system --adopt-keychain \(userID)) or remove it (--remove-keychain \(userID))"
                )
            default:
                break
            }
            let engine = try EmbeddedEngine(directory: home, configuration: configuration)
            // pinentry, run as the daemon's user, could open neither the user's terminal nor their
            // display: every question goes to the client's own prompt.
            var responder = EngineResponder(engine: engine, prompts: .relaying)
            let watch = HomeWatch(home: home)
            responder.admission = { watch.problem() }
            responder.applications = ApplicationRegistry(engine: engine)
            let synchronization = SyncService(keychain: engine.keychain, logger: logger)
            synchronization.start()
            responder.synchronization = synchronization
            responders[userID] = (responder, account)
            logger.info("opened a user's keychain", metadata: ["keychain.uid": "\(userID)"])
            return responder
        }
    }

    /// The account of `userID`, looked up at most once per ``accountCheckInterval``; `nil` when
    /// the user database cannot be read now (not remembered).
    private func currentAccount(_ userID: UInt32) -> AccountBinding? {
        let now = ContinuousClock.now
        if let recent = recentAccounts.withLock({ $0[userID] }), now - recent.at < Self.accountCheckInterval {
            return recent.account
        }
        guard let looked = account(userID) else { return nil }
        recentAccounts.withLock { $0[userID] = (looked, now) }
        return looked
    }
}
