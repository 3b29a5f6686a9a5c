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
@_exported public import KeychainDevice
import Logging

/// A throw-away keychain in a temporary directory, for tests.
///
/// Every `SecItem*` call made inside ``run(_:)`` uses this keychain, in the calling task and its
/// child tasks, so tests that run in parallel each see only their own items. The directory is
/// removed when the value is released. Passcodes use cheap KDF parameters.
///
/// Biometry and the passcode prompt are scripted, so biometric code paths run in CI:
///
/// ```swift
/// let keychain = try TemporaryKeychain(passcode: "123456", biometry: .faceID, enrolled: ["face"])
/// try keychain.queueBiometricOutcomes([.nonMatch, .match])   // the next two Face ID attempts
/// keychain.queuePasscodeReplies([.entered("123456")])         // the next passcode prompt
/// ```
///
/// ```swift
/// @Test func storesAToken() throws {
///     let keychain = try TemporaryKeychain()
///     try keychain.run {
///         let status = SecItemAdd([kSecClass as String: kSecClassGenericPassword,
///                                  kSecAttrAccount as String: "me",
///                                  kSecValueData as String: Data("token".utf8)] as CFDictionary, nil)
///         #expect(status == errSecSuccess)
///     }
/// }
/// ```
public final class TemporaryKeychain: Sendable {
    // MARK: Properties

    /// The keychain's device: passcode, lock state.
    public let device: Device
    /// The temporary directory holding the keychain.
    public let directory: URL
    /// What the engine logged (damaged items it skipped, repairs): recorded for the test to read,
    /// printed only when `KEYCHAIN_LOG_LEVEL` asks.
    public let log = EngineLog()

    private let passcodeReplies: ReplyQueue

    // MARK: Initialization

    /// Creates an empty keychain.
    ///
    /// - Parameters:
    ///   - accessGroups: The access groups the code under test may use; the first receives new items.
    ///   - passcode: A passcode to set (the keychain is then unlocked), or `nil` for none.
    ///   - biometry: A simulated sensor to install, or `nil` for none.
    ///   - enrolled: Fingers or faces to enrol (needs `passcode` and `biometry`).
    ///   - clock: The clock for item dates and passcode back-off.
    /// - Throws: When the keychain cannot be created, the passcode cannot be set, or the sensor
    ///   cannot be installed or enrolled.
    public init(
        accessGroups: [String] = ["default"],
        passcode: String? = nil,
        biometry: BiometryKind? = nil,
        enrolled: [String] = [],
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-keychain-test-\(UUID().uuidString)", isDirectory: true)
        let replies = ReplyQueue()
        passcodeReplies = replies
        // A daemon started for it (KEYCHAIN_ENGINE=daemon) takes its settings from the home.
        try KeychainHome(url: directory).configureDaemonForTests()
        device = try Device(
            home: KeychainHome(url: directory),
            configuration: Self.configuration(
                accessGroups: accessGroups,
                replies: replies,
                clock: clock,
                logger: log.makeLogger()
            )
        )
        if let passcode { try device.setPasscode(passcode) }
        if let biometry { try device.simulatedSensor.install(biometry) }
        for name in enrolled { try device.simulatedSensor.enroll(name) }
    }

    private static func configuration(
        accessGroups: [String],
        replies: ReplyQueue,
        clock: @escaping @Sendable () -> Date,
        logger: Logger
    ) -> DeviceConfiguration {
        let prompt = PasscodePrompt { _, _ in replies.next() }
        // In this process unless the environment asks for the wire format or a daemon: a test's
        // keychain is its own, whatever `KEYCHAIN_ENGINE=auto` would do for the session's.
        var engine = DeviceConfiguration.EngineKind.fromEnvironment()
        if engine == .auto { engine = .embedded }
        var configuration = DeviceConfiguration(
            accessGroups: accessGroups,
            passcodeCost: .testing,
            passcodePrompt: prompt,
            engine: engine,
            logger: logger,
            clock: clock
        )
        // A throw-away keychain never takes room in the machine's TPM unless the environment names one.
        if ProcessInfo.processInfo.environment["KEYCHAIN_TPM"] == nil { configuration.tpm = .none }
        return configuration
    }

    deinit {
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Using

    /// Runs `body` with this keychain as the one `SecItem*` calls use.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try Device.withCurrent(device, operation: body)
    }

    /// Runs `body` with this keychain as the one `SecItem*` calls use.
    public func run<T>(
        isolation: isolated (any Actor)? = #isolation,
        _ body: () async throws -> T
    ) async rethrows -> T {
        try await Device.withCurrent(device, operation: body, isolation: isolation)
    }

    /// Opens a second, independent view of the same keychain, as another process would see it
    /// (locked again if a passcode is set).
    ///
    /// It shares the scripted passcode replies.
    public func reopened(accessGroups: [String]? = nil) throws -> Device {
        try Device(
            home: device.home,
            configuration: Self.configuration(
                accessGroups: accessGroups ?? device.configuration.accessGroups,
                replies: passcodeReplies,
                clock: device.configuration.clock,
                logger: device.configuration.logger
            )
        )
    }

    // MARK: Scripting authentication

    /// Queues what the next passcode or application-password prompts answer; with nothing
    /// queued, a prompt is not interactive (`errSecInteractionNotAllowed`, `LAError.notInteractive`).
    public func queuePasscodeReplies(_ replies: [PasscodePrompt.Reply]) {
        passcodeReplies.append(replies)
    }

    /// Queues the outcomes of the next biometric matches (on any view of this keychain).
    public func queueBiometricOutcomes(_ outcomes: [SimulatedOutcome]) throws {
        try device.simulatedSensor.queue(outcomes)
    }

    /// The simulated sensor: install, enrol, remove.
    public var sensor: SimulatedSensor { device.simulatedSensor }
}

/// Scripted prompt replies shared by every view of one temporary keychain.
private final class ReplyQueue: Sendable {
    private let replies = LockedState<[PasscodePrompt.Reply]>([])

    func append(_ more: [PasscodePrompt.Reply]) {
        replies.withLock { $0.append(contentsOf: more) }
    }

    func next() -> PasscodePrompt.Reply {
        replies.withLock { $0.isEmpty ? .unavailable : $0.removeFirst() }
    }
}
