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
    private let responders = LockedState<[UInt32: EngineResponder]>([:])

    /// The folder of all users' keychains (created 0700 if missing), each opened with `configuration`.
    init(state: URL, configuration: DeviceConfiguration) throws(KeychainError) {
        try PrivateDirectory.prepare(state)
        self.state = state
        self.configuration = configuration
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
        responders.withLock { $0.values.map(\.engine) }
    }

    /// `userID`'s keychain if it is open (a lock request never opens one).
    func engine(ofUser userID: UInt32) -> (any Engine)? {
        responders.withLock { $0[userID]?.engine }
    }

    /// The responder of `userID`'s keychain, opening it on first use.
    func responder(for userID: UInt32) throws(KeychainError) -> EngineResponder {
        try responders.withLock {
            (responders: inout [UInt32: EngineResponder]) throws(KeychainError) -> EngineResponder in
            if let responder = responders[userID] { return responder }
            let home = state.appendingPathComponent(String(userID), isDirectory: true)
            let engine = try EmbeddedEngine(directory: home, configuration: configuration)
            // pinentry, run as the daemon's user, could open neither the user's terminal nor their
            // display: every question goes to the client's own prompt.
            var responder = EngineResponder(engine: engine, prompts: .relaying)
            let watch = HomeWatch(home: home)
            responder.admission = { watch.problem() }
            responder.applications = ApplicationRegistry(engine: engine)
            responders[userID] = responder
            logger.info("opened a user's keychain", metadata: ["keychain.uid": "\(userID)"])
            return responder
        }
    }
}
