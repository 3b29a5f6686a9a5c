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

public import Foundation
import KeychainCore
public import Logging

/// How a process uses its keychain: its access groups and the cost of the passcode KDF.
public struct DeviceConfiguration: Sendable {
    /// The keychain access groups this process may use; the first receives new items, `"*"` grants all.
    public var accessGroups: [String]
    /// The scrypt cost given to a new passcode.
    public var passcodeCost: PasscodeCost
    /// The clock for item dates and passcode back-off.
    public var clock: @Sendable () -> Date
    /// How evaluations ask for the passcode or an application password.
    public var passcodePrompt: PasscodePrompt
    /// Where the engine runs; by default as `KEYCHAIN_ENGINE` says.
    public var engine: EngineKind
    /// The socket of `securityd` for ``EngineKind/daemon``: by default `KEYCHAIN_SOCKET`, else the
    /// keychain home's socket in `$XDG_RUNTIME_DIR/swift-keychain/`.
    public var daemonSocket: String?
    /// Where the engine reports what it repaired or could not do (never secrets, names or
    /// attribute values); by default the process's swift-log backend, label `swift-keychain`.
    public var logger: Logger
    /// Whether a client may start `securityd` when none listens (``EngineKind/auto`` and
    /// ``EngineKind/daemon``); `security-lookup` may not, and leaves that to the full tool.
    package var startsDaemon = true
    /// The most bytes the keychain's database may hold (items, keys and their indexes).
    ///
    /// A write that would take it past is refused (`errSecQuotaExceeded`); `nil`: no limit but
    /// the disk's. A system-mode daemon sets it, since its users' keychains are outside their disk
    /// quotas.
    package var storageQuota: Int?
    /// The TPM a new keychain is bound to; by default as `KEYCHAIN_TPM` says.
    package var tpm: TPMChoice = .fromEnvironment()

    public init(
        accessGroups: [String] = ["default"],
        passcodeCost: PasscodeCost = .standard,
        passcodePrompt: PasscodePrompt = .terminal,
        engine: EngineKind = .fromEnvironment(),
        daemonSocket: String? = nil,
        logger: Logger = Logger(label: "swift-keychain"),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.accessGroups = accessGroups
        self.passcodeCost = passcodeCost
        self.passcodePrompt = passcodePrompt
        self.engine = engine
        self.daemonSocket = daemonSocket
        self.logger = logger
        self.clock = clock
    }

    /// Access groups from `KEYCHAIN_ACCESS_GROUPS` (comma-separated), else `defaultGroups`; the
    /// prompt from `KEYCHAIN_PROMPT` (`terminal`, `stdin`, `none`), else the terminal; the
    /// passcode cost from `KEYCHAIN_PASSCODE_COST` (`testing` for test keychains only), else standard.
    public static func fromEnvironment(
        _ environment: [String: String] = ProcessInfo.processInfo.environment,
        defaultGroups: [String] = ["default"]
    ) -> DeviceConfiguration {
        DeviceConfiguration(
            accessGroups: AccessGroups.fromEnvironment(environment, fallback: AccessGroups(defaultGroups)).groups,
            passcodeCost: environment["KEYCHAIN_PASSCODE_COST"] == "testing" ? .testing : .standard,
            passcodePrompt: .fromEnvironment(environment),
            engine: .fromEnvironment(environment)
        )
    }

    /// Where the keychain's engine runs.
    public enum EngineKind: String, Sendable, Hashable {
        /// In this process.
        case embedded
        /// In this process, with every request and reply encoded to the wire format and decoded
        /// again, as a daemon's socket carries them: the test of the process boundary.
        case loopback
        /// In `securityd`, reached through its socket (started on first use when it can be
        /// found): the keys stay out of this process, and one unlock serves every process.
        case daemon
        /// The session's keychain (the home `KEYCHAIN_HOME` or the default names) in `securityd`
        /// when one listens or can be started, else in this process; a keychain opened at a
        /// folder of the program's own choosing in this process.
        case auto

        /// The kind named by `KEYCHAIN_ENGINE` (`embedded`, `loopback`, `daemon`, `auto`), else ``auto``.
        public static func fromEnvironment(
            _ environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> EngineKind {
            environment["KEYCHAIN_ENGINE"].flatMap(EngineKind.init(rawValue:)) ?? .auto
        }
    }

    /// The cost of one passcode or application-password guess.
    ///
    /// It is the cost given to new passcodes and application-password wrappings, and the least
    /// cost accepted from disk: a keychain whose stored parameters are cheaper than the standard
    /// cost is refused unless the configuration is `.testing`.
    public enum PasscodeCost: Sendable {
        /// scrypt N = 2^16, r = 8, p = 1: about 150 ms and 64 MiB a guess (release build).
        case standard
        /// Cheap parameters for tests (N = 2^10); never for a real keychain. Keychains made with
        /// them open only in processes configured with `.testing` too (`KEYCHAIN_PASSCODE_COST=testing`).
        case testing
    }
}
