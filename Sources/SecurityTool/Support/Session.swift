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

import ArgumentParser
import Foundation
import KeychainDevice
import KeychainServices
import SecurityCommandLine
import Synchronization

/// The keychain the tool works on, and the helpers every command shares.
enum Session {
    /// Opens the keychain of `KEYCHAIN_HOME`, creating it if there is none, or the existing
    /// keychain a command's argument names (never creating one: see `KeychainArgument`).
    ///
    /// The tool may see every access group (`"*"`), as macOS's tool sees every item; new items go
    /// to the first configured group. `KEYCHAIN_ACCESS_GROUPS` overrides both. `context` begins
    /// the message when the argument names no keychain.
    @discardableResult
    static func open(home: String? = nil, context: String? = nil) throws -> Device {
        try open(resolve(home, context: context))
    }

    /// Opens the keychain if one exists; `nil` (having created nothing) if there is none.
    ///
    /// For the commands that only look.
    static func openExisting(home: String? = nil, context: String? = nil) throws -> Device? {
        let keychainHome = try resolve(home, context: context)
        // A daemon named by a socket (a system daemon among them) holds files of its own.
        let namesDefault = home.map(KeychainArgument.namesDefault) ?? true
        guard
            keychainHome.hasKeychainToSearch(
                namesDefault: namesDefault,
                environment: ProcessInfo.processInfo.environment
            )
        else { return nil }
        return try open(keychainHome)
    }

    /// The keychains a command names, each checked before any is used (`nil`: the default one).
    static func named(_ keychains: [String], context: String) throws -> [String?] {
        let names: [String?] = keychains.isEmpty ? [nil] : keychains
        for name in names { _ = try resolve(name, context: context) }
        return names
    }

    /// The home a command names (an existing keychain), else the environment's.
    static func resolve(_ home: String?, context: String? = nil) throws -> KeychainHome {
        guard let home else { return .resolve() }
        // macOS's tool answers an empty keychain name with its usage.
        guard !home.isEmpty else { throw ValidationError("a keychain name cannot be empty") }
        guard let named = KeychainArgument.home(named: home) else {
            throw fail(errSecNoSuchKeychain, context ?? "SecKeychainOpen \(home)")
        }
        return named
    }

    private static func open(_ keychainHome: KeychainHome) throws -> Device {
        do {
            let environment = ProcessInfo.processInfo.environment
            var configuration = DeviceConfiguration.securityTool(environment: environment)
            if environment["KEYCHAIN_PROMPT"] == nil {
                // As for passwords: the terminal without echo, else one line of standard input per question.
                configuration.passcodePrompt = Terminal.isInteractive ? .terminal : .standardInput
            }
            // The tool's notices (a fingerprint scan awaited, and for whom) go to standard error always, as
            // its prompts do, so scripts see them too.
            configuration.passcodePrompt.notify = { line in Terminal.printError(line) }
            let device = try Device(home: keychainHome, configuration: configuration)
            // A keychain served by securityd is reached (the daemon started) here, so that a
            // home it refuses is reported as one a process refuses.
            _ = try device.hasPasscode()
            Device.setProcessDefault(device)
            return device
        } catch {
            let environment = ProcessInfo.processInfo.environment
            let setting =
                environment["KEYCHAIN_HOME"].map { !$0.isEmpty && keychainHome.isSessionHome(environment: environment) }
                    == true ? " (KEYCHAIN_HOME)" : ""
            Terminal.printError(
                "security: cannot open the keychain at \(keychainHome.url.path)\(setting): \(describe(error))"
            )
            throw ExitCode(1)
        }
    }

    /// Releases the keychain so that its database closes: the last connection folds the write-ahead
    /// log into the database and removes it, and the next process has no log to replay.
    static func close() {
        Device.setProcessDefault(nil)
    }

    /// The database path shown in listings.
    static func keychainPath(_ device: Device) -> String {
        device.home.url.appendingPathComponent("keychain.db").path
    }

    /// Runs a `SecItem*` call; if it fails because the keychain is locked, asks for the passcode,
    /// unlocks this process's view and tries once more.
    ///
    /// A call that still cannot ask anyone, with the simulated sensor installed and nothing queued
    /// on it, is reported with how to answer it (see ``fail(_:_:)``).
    static func call(_ device: Device, _ body: () -> OSStatus) throws -> OSStatus {
        var status = body()
        if status == errSecInteractionNotAllowed, !device.isUnlocked, (try? device.hasPasscode()) == true {
            try unlock(device)
            status = body()
        }
        if status == errSecInteractionNotAllowed, let biometry = try? device.biometryStatus(),
            biometry.source == .simulated, let kind = biometry.kind, !biometry.enrolled.isEmpty,
            biometry.queuedOutcomes.isEmpty
        {
            pendingHint.withLock {
                $0 =
                    "an item that needs \(kind.displayName) asks the simulated sensor, which has no outcome queued and could not ask here: queue one with `security biometry next match` (or nonmatch, cancel, fallback)"
            }
        }
        return status
    }

    /// A hint a call left for the failure it ends in.
    private static let pendingHint = Mutex<String?>(nil)

    /// Asks for the passcode and unlocks, with a clear message on failure.
    ///
    /// `asLockScreen` (`security unlock`) also ends a biometric lockout; the automatic prompt of
    /// other commands only opens this process's view.
    static func unlock(_ device: Device, asLockScreen: Bool = false) throws {
        let entered = try Terminal.refusingLongLines({ () throws(Terminal.LineTooLong) in
            try Terminal.readSecret(prompt: "passcode to unlock the keychain: ")
        })
        guard let passcode = entered else {
            Terminal.printError("security: the keychain is locked and no passcode was given")
            throw StatusFailure(status: errSecInteractionNotAllowed)
        }
        do {
            if asLockScreen {
                try device.unlock(passcode: passcode)
            } else {
                try device.unlockThisProcess(passcode: passcode)
            }
        } catch {
            Terminal.printError("security: unlock: \(describe(error))")
            throw StatusFailure(status: errSecAuthFailed)
        }
    }

    /// Prints `security: <context>: <message>`; the command then returns `status` itself, as
    /// macOS's commands do (the process exits with its low byte, `-i` reports it whole).
    static func fail(_ status: OSStatus, _ context: String) -> StatusFailure {
        let message = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
        Terminal.printError("security: \(context): \(message)")
        if let hint = hints[status] { Terminal.printError("security: \(hint)") }
        if let hint = pendingHint.withLock({ $0.take() }), status == errSecInteractionNotAllowed {
            Terminal.printError("security: \(hint)")
        }
        return StatusFailure(status: status)
    }

    /// A command that failed with an `OSStatus`, already reported.
    struct StatusFailure: Error {
        let status: OSStatus
    }

    /// What to do, where macOS's message (kept first, as scripts match it) does not say it on Linux.
    private static let hints: [OSStatus: String] = [
        errSecNotAvailable:
            "WhenPasscodeSetThisDeviceOnly items need a passcode: set one with `security passcode set`, then add the item again"
    ]

    /// The process exit status macOS's tool uses for an `OSStatus`: its low byte.
    static func exitStatus(_ status: OSStatus) -> Int32 {
        Int32(UInt32(bitPattern: status) & 0xFF)
    }

    /// An error's message without internal detail.
    static func describe(_ error: any Error) -> String {
        let text = String(describing: error)
        if let colon = text.firstIndex(of: ":"), text[..<colon].allSatisfy({ $0.isLetter }) {
            return text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return text
    }
}
