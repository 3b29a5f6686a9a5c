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
package import KeychainCore

/// A keychain as a device holds it: its home, its passcode and its lock state, the Linux side of "Settings".
///
/// `SecItem*` calls use the device a task selected with ``withCurrent(_:operation:)``
/// (tests do this, so parallel tests use separate keychains without races), else the process
/// default set with ``setProcessDefault(_:)``, else the keychain in `KeychainHome.resolve(environment:)`.
///
/// ```swift
/// let device = try Device(home: KeychainHome(url: directory))
/// try device.setPasscode("123456")
/// try device.lock()
/// ```
public final class Device: Sendable {
    // MARK: Properties

    /// Where this keychain lives.
    public let home: KeychainHome
    /// The engine that holds the keychain: in this process, or behind a boundary.
    package let engine: any Engine
    /// How this process asks for the passcode, and its other settings.
    public let configuration: DeviceConfiguration

    // MARK: Initialization

    /// Opens the keychain in `home`, creating it if needed.
    ///
    /// - Parameters:
    ///   - home: The keychain's directory.
    ///   - configuration: The access groups of this process and the passcode KDF cost.
    /// - Throws: ``KeychainDeviceError`` (``KeychainDeviceError/Code/invalidKeychain`` for a home
    ///   another user owns or others can write, ``KeychainDeviceError/Code/damaged`` for a database
    ///   that cannot be read).
    public init(home: KeychainHome, configuration: DeviceConfiguration = .fromEnvironment()) throws {
        self.home = home
        self.configuration = configuration
        engine = try Self.engine(for: home, configuration: configuration)
    }

    /// The engine `configuration` asks for: in this process, or `securityd` (looked for only then).
    private static func engine(for home: KeychainHome, configuration: DeviceConfiguration) throws -> any Engine {
        let environment = ProcessInfo.processInfo.environment
        let isSessionHome = home.isSessionHome(environment: environment)
        if isSessionHome, let problem = KeychainHome.misconfiguration(environment: environment) {
            throw KeychainDeviceError(.invalidKeychain, problem)
        }
        if configuration.engine == .daemon || (configuration.engine == .auto && isSessionHome) {
            // A system daemon serves the user's keychain instead of their home's files.
            let named = configuration.daemonSocket ?? DaemonEndpoint.named(environment: environment)
            // A socket named outright and absent is a mistake, never a reason to open the files (an
            // engine asked to be the daemon's reports it when it first reaches for the socket).
            if configuration.engine == .auto, let named, !FileManager.default.fileExists(atPath: named) {
                let setting = configuration.daemonSocket == nil ? "KEYCHAIN_SOCKET" : "the configured daemon socket"
                throw KeychainDeviceError(
                    .notAvailable,
                    "\(setting) names \(named), where no securityd listens; start it there, or unset it to use the keychain's own daemon"
                )
            }
            let endpoint =
                named.map { DaemonEndpoint(socketPath: $0) }
                ?? DaemonEndpoint.forHome(home.url, environment: environment)
            // A daemon is started on first use only for a home's own socket; a named socket is one
            // that whoever named it runs.
            let launcher =
                named == nil && configuration.startsDaemon
                ? DaemonLauncher(home: home.url, environment: environment) : nil
            if configuration.engine == .daemon || launcher != nil
                || FileManager.default.fileExists(atPath: endpoint.socketPath)
            {
                return WireEngine(
                    transport: DaemonTransport(endpoint: endpoint, launcher: launcher),
                    prompt: configuration.passcodePrompt,
                    accessGroups: AccessGroups(configuration.accessGroups)
                )
            }
        }
        let linked = try KeychainDeviceError.translating {
            try LinkedEngine.provider().openEngine(directory: home.url, configuration: configuration)
        }
        guard configuration.engine == .loopback else { return linked }
        return WireEngine(
            serving: linked,
            prompt: configuration.passcodePrompt,
            accessGroups: AccessGroups(configuration.accessGroups)
        )
    }

    // MARK: Passcode and lock

    /// Whether a passcode is set.
    public func hasPasscode() throws -> Bool {
        try KeychainDeviceError.translating { try engine.lockState().hasPasscode }
    }

    /// Whether the `WhenUnlocked` classes are readable by this process.
    public var isUnlocked: Bool { (try? engine.lockState().isUnlocked) ?? false }

    /// Whether this process has unlocked since it started (the `AfterFirstUnlock` classes are readable).
    public var hasBeenUnlocked: Bool { (try? engine.lockState().hasBeenUnlocked) ?? false }

    /// Sets the first passcode (at least four characters).
    ///
    /// Every passcode-protected item is sealed again under new class keys, in one transaction, so
    /// that no copy of the keychain from before the passcode opens anything stored from now on;
    /// `progress` reports the items done and the total, every thousand items.
    public func setPasscode(
        _ passcode: String,
        progress: (@Sendable (_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws {
        try translating { try engine.setPasscode(passcode, current: nil, progress: progress) }
    }

    /// Changes the passcode; as when it is set, the passcode-protected items get new class keys.
    public func changePasscode(
        from current: String,
        to new: String,
        progress: (@Sendable (_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws {
        try translating { try engine.setPasscode(new, current: current, progress: progress) }
    }

    /// Moves the keychain's secrets into the TPM the engine is configured with (`toTPM`), or back
    /// to files; the passcode, when one is set, is required and its items are sealed again
    /// (`progress` reports them).
    package func moveSecrets(
        toTPM: Bool,
        passcode: String?,
        progress: (@Sendable (_ completed: Int, _ total: Int) -> Void)? = nil
    ) throws {
        try translating { try engine.moveSecrets(toTPM: toTPM, passcode: passcode, progress: progress) }
    }

    /// Removes the passcode, destroying every `WhenPasscodeSetThisDeviceOnly` item.
    public func removePasscode(current: String) throws {
        try translating { try engine.removePasscode(current: current) }
    }

    /// How many items ``removePasscode(current:)`` would destroy: the `WhenPasscodeSetThisDeviceOnly`
    /// items and those whose access control needs the passcode or biometry.
    ///
    /// The keychain must be unlocked.
    public func itemsLostWithPasscode() throws -> Int {
        try translating { try engine.itemsLostWithPasscode() }
    }

    /// Unlocks the keychain, as entering the passcode at the Lock Screen does: this process's
    /// view becomes readable and a biometric lockout ends.
    public func unlock(passcode: String) throws {
        try translating { try engine.unlock(passcode: passcode, endsBiometricLockout: true) }
    }

    /// Unlocks only this process's view (a process starting on an unlocked device); a biometric
    /// lockout stays.
    package func unlockThisProcess(passcode: String) throws {
        try translating { try engine.unlock(passcode: passcode, endsBiometricLockout: false) }
    }

    /// Locks this process's view of the keychain (`WhenUnlocked` items become unreadable).
    public func lock() throws {
        try translating { try engine.lock() }
    }

    /// Where the keychain's device secret lives: "TPM 2.0 (maker, firmware …)", or "file" with
    /// the reason no TPM is used.
    package func secretStore() throws -> String {
        try KeychainDeviceError.translating { try engine.lockState() }.secretStore
    }

    /// Consecutive wrong passcodes, and when the next attempt is allowed (`nil`: now).
    public func passcodeAttempts() throws -> (failures: Int, nextAttempt: Date?) {
        let state = try KeychainDeviceError.translating { try engine.lockState() }
        return (state.failedAttempts, state.nextAttempt)
    }
}

extension Device {
    /// Runs an engine call, turning its errors into ``KeychainDeviceError``s; a passcode failure
    /// carries when the next attempt is allowed.
    func translating<T>(_ body: () throws -> T) throws(KeychainDeviceError) -> T {
        try KeychainDeviceError.translating(nextAttempt: { try? self.engine.lockState().nextAttempt }, body)
    }
}

// MARK: - Selecting the current keychain

extension Device {
    @TaskLocal private static var taskDevice: Device?

    private static let processDefault = LockedState<Device?>(nil)

    /// The keychain that `SecItem*` calls in this task use.
    package static func current() throws(KeychainError) -> Device {
        if let device = taskDevice { return device }
        return try processDefault.withLock { (device) throws(KeychainError) -> Device in
            if let device { return device }
            do {
                let opened = try Device(home: .resolve())
                TestRunUnlock.apply(to: opened)
                device = opened
                return opened
            } catch let error as KeychainError {
                throw error
            } catch {
                throw KeychainError(
                    .io,
                    "cannot open the default keychain",
                    cause: DescribedError(String(describing: error))
                )
            }
        }
    }

    /// Whether a `SecItem*` call has a keychain to use without creating one: a device of this
    /// task or process, a keychain at the environment's home, or a daemon named by
    /// `KEYCHAIN_SOCKET`.
    ///
    /// What consults the keychain only in passing (a trust looking for intermediates and the
    /// user's trusted certificates) asks first, so that it creates no keychain and starts no daemon.
    package static var hasKeychainWithoutCreating: Bool {
        if taskDevice != nil || processDefault.withLock({ $0 }) != nil { return true }
        if !(ProcessInfo.processInfo.environment["KEYCHAIN_SOCKET"] ?? "").isEmpty { return true }
        return !KeychainHome.resolve().keychainIsAbsent
    }

    /// Runs `operation` with `device` as the keychain of every `SecItem*` call it makes, in this task and its children.
    public static func withCurrent<T>(_ device: Device, operation: () throws -> T) rethrows -> T {
        try $taskDevice.withValue(device, operation: operation)
    }

    /// Runs `operation` with `device` as the keychain of every `SecItem*` call it makes.
    public static func withCurrent<T>(
        _ device: Device,
        operation: () async throws -> T,
        isolation: isolated (any Actor)? = #isolation
    ) async rethrows -> T {
        try await $taskDevice.withValue(device, operation: operation, isolation: isolation)
    }

    /// Sets the keychain that `SecItem*` calls use in this process when no task selected one.
    public static func setProcessDefault(_ device: Device?) {
        processDefault.withLock { $0 = device }
    }
}
