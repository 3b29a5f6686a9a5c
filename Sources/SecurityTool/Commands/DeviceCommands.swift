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

/// `security passcode set|change|remove`: the device passcode, as in iOS's Settings.
struct Passcode: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "passcode",
        abstract: "Set, change or remove the keychain passcode.",
        discussion: """
            Prompts read the terminal without echo, or one line of standard input per prompt when \
            standard input is not a terminal. Removing the passcode destroys every \
            WhenPasscodeSetThisDeviceOnly item.
            """,
        subcommands: [Set.self, Change.self, Remove.self]
    )

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Set a passcode where there is none."
        )
        @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

        func run() throws {
            let device = try Session.open(home: keychain)
            if (try? device.hasPasscode()) == true {
                Terminal.printError("security: a passcode is already set; use `security passcode change`")
                throw ExitCode(1)
            }
            let passcode = try Passcode.readNew()
            try Passcode.perform("passcode set") { try device.setPasscode(passcode, progress: Passcode.progress) }
            print("passcode set")
        }
    }

    struct Change: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "change", abstract: "Change the passcode.")
        @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

        func run() throws {
            guard let device = try Session.openExisting(home: keychain), (try? device.hasPasscode()) == true else {
                Terminal.printError("security: passcode change: no passcode is set")
                throw ExitCode(1)
            }
            let current = try Passcode.readCurrent()
            let new = try Passcode.readNew()
            try Passcode.perform("passcode change") {
                try device.changePasscode(from: current, to: new, progress: Passcode.progress)
            }
            print("passcode changed")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove",
            abstract:
                "Remove the passcode (destroys WhenPasscodeSetThisDeviceOnly items and those that need the passcode or biometry).",
            discussion:
                "Says how many items would be destroyed and asks first; -y removes it without asking (for scripts)."
        )
        @Flag(name: .customShort("y"), help: "Destroy the items that need the passcode without asking.") var yes = false
        @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

        func run() throws {
            guard let device = try Session.openExisting(home: keychain), (try? device.hasPasscode()) == true else {
                Terminal.printError("security: passcode remove: no passcode is set")
                throw ExitCode(1)
            }
            let current = try Passcode.readCurrent()
            // The items are counted in an unlocked keychain; a wrong passcode fails here, before any question.
            if !device.isUnlocked {
                try Passcode.perform("passcode remove") { try device.unlockThisProcess(passcode: current) }
            }
            let lost = try Passcode.perform("passcode remove") { try device.itemsLostWithPasscode() }
            if lost > 0 && !yes {
                let items = lost == 1 ? "1 item needs" : "\(lost) items need"
                Terminal.printError(
                    "security: \(items) the passcode (WhenPasscodeSetThisDeviceOnly, or protected by the passcode or biometry) and would be destroyed"
                )
                guard let answer = Terminal.ask("remove the passcode and destroy \(lost == 1 ? "it" : "them")? [y/N] ")
                else {
                    Terminal.printError("security: passcode remove: not removed; give -y to remove it without asking")
                    throw ExitCode(1)
                }
                guard ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased()) else {
                    Terminal.printError("security: passcode remove: not removed")
                    throw ExitCode(1)
                }
            }
            try Passcode.perform("passcode remove") { try device.removePasscode(current: current) }
            print(
                lost == 0 ? "passcode removed" : "passcode removed; \(lost) \(lost == 1 ? "item" : "items") destroyed"
            )
        }
    }

    /// Reports, on standard error, how far re-sealing a large keychain's items is (every tenth).
    static let progress: @Sendable (Int, Int) -> Void = { completed, total in
        guard total >= 10_000, completed % max(1, total / 10) < 1000 || completed == total else { return }
        Terminal.printError("sealing the items under new keys: \(completed) of \(total)")
    }

    static func readCurrent() throws -> String {
        let entered = try Terminal.refusingLongLines({ () throws(Terminal.LineTooLong) in
            try Terminal.readSecret(prompt: "current passcode: ")
        })
        guard let passcode = entered else { throw ExitCode(1) }
        return passcode
    }

    static func readNew() throws -> String {
        let entered = try Terminal.refusingLongLines({ () throws(Terminal.LineTooLong) in
            try Terminal.readNewSecret(prompt: "new passcode: ", retypePrompt: "retype new passcode: ")
        })
        guard let passcode = entered,
            !passcode.isEmpty
        else {
            Terminal.printError("security: no passcode given")
            throw ExitCode(1)
        }
        return passcode
    }

    static func perform<Result>(_ context: String, _ body: () throws -> Result) throws -> Result {
        do {
            return try body()
        } catch {
            Terminal.printError("security: \(context): \(Session.describe(error))")
            throw Session.StatusFailure(status: -25293)  // errSecAuthFailed
        }
    }
}

/// `security lock`: locks the keychain, as pressing the side button does.
struct Lock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock",
        abstract: "Lock the keychain.",
        discussion: """
            Without a daemon each process keeps its own lock state and starts locked when a passcode \
            is set, so this tool is locked again on its next run anyway; the command checks the \
            keychain and reports the state.
            """
    )
    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

    func run() throws {
        guard let device = try Session.openExisting(home: keychain) else {
            print("no passcode is set: the keychain cannot lock")
            return
        }
        try device.lock()
        print((try? device.hasPasscode()) == true ? "locked" : "no passcode is set: the keychain cannot lock")
    }
}

/// `security unlock`: checks the passcode and unlocks.
struct Unlock: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock",
        abstract: "Unlock the keychain with the passcode.",
        discussion: "Wrong passcodes count against Apple's back-off schedule, across processes."
    )
    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

    func run() throws {
        guard let device = try Session.openExisting(home: keychain), (try? device.hasPasscode()) == true else {
            print("no passcode is set: the keychain is always unlocked")
            return
        }
        try Session.unlock(device, asLockScreen: true)
        print("unlocked")
    }
}

/// `security status`: what iOS's Settings would show.
struct Status: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the keychain's location, passcode, lock state and biometry."
    )
    @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

    func run() throws {
        guard let device = try Session.openExisting(home: keychain) else {
            print("keychain: \(try Session.resolve(keychain).url.path)")
            print("no keychain yet: the first item stored, passcode set or sensor installed creates it")
            return
        }
        let hasPasscode = (try? device.hasPasscode()) ?? false
        print("keychain: \(device.home.url.path)")
        print("passcode: \(hasPasscode ? "set" : "not set")")
        print(
            "state: \(device.isUnlocked ? "unlocked" : device.hasBeenUnlocked ? "locked" : "locked (before first unlock)")"
        )
        if let attempts = try? device.passcodeAttempts() {
            print("failed passcode attempts: \(attempts.failures)")
            if let next = attempts.nextAttempt {
                print("next passcode attempt allowed at: \(ISO8601DateFormatter().string(from: next))")
            }
        }
        if let biometry = try? device.biometryStatus() {
            BiometryCommands.print(biometry)
        }
        if let store = try? device.secretStore() {
            print("device secret: \(store)")
        }
    }
}
