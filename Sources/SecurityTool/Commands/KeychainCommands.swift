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

// macOS's keychain-file commands. A Linux user has one keychain (the default one, in
// `$KEYCHAIN_HOME`), so these report it and lock or unlock it; the ones that would change the
// search list or the default say that they cannot, and fail.

/// `security help [command…]`.
struct Help: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "help",
        abstract: "Show all commands, or the usage of the commands named."
    )
    @Argument var names: [String] = []

    func run() throws {
        let status = CommandLineSession.help(names)
        if status != 0 { throw ExitCode(status) }
    }
}

/// The options the search-list commands share: `-d domain` and `-s` (set).
struct SearchListOptions: ParsableArguments {
    @Option(
        name: .customShort("d"),
        help: ArgumentHelp("user, system, common or dynamic: accepted; there is one keychain.", valueName: "domain")
    )
    var domain: String?

    @Flag(name: .customShort("s"), help: "Set the list or the default: not possible here (fails).")
    var set = false

    @Argument(help: .hidden) var keychains: [String] = []

    /// Prints the default keychain as macOS lists keychains, or fails when asked to change it.
    func report(_ command: String) throws {
        if set || !keychains.isEmpty {
            Terminal.printError(
                "security: \(command): there is only the default keychain ($KEYCHAIN_HOME); it cannot be changed here"
            )
            throw ExitCode(1)
        }
        print("    \"\(try Session.resolve(nil).url.appendingPathComponent("keychain.db").path)\"")
    }
}

/// A command that reports the one keychain as macOS lists keychains.
protocol KeychainListingCommand: ParsableCommand {
    var options: SearchListOptions { get }
}

extension KeychainListingCommand {
    func run() throws { try options.report(Self._commandName) }
}

/// `security list-keychains`: the search list, which is the default keychain.
struct ListKeychains: KeychainListingCommand {
    static let configuration = CommandConfiguration(
        commandName: "list-keychains",
        abstract: "Display the keychain search list (the default keychain)."
    )
    @OptionGroup var options: SearchListOptions
}

/// `security default-keychain`.
struct DefaultKeychain: KeychainListingCommand {
    static let configuration = CommandConfiguration(
        commandName: "default-keychain",
        abstract: "Display the default keychain."
    )
    @OptionGroup var options: SearchListOptions
}

/// `security login-keychain`.
struct LoginKeychain: KeychainListingCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-keychain",
        abstract: "Display the login keychain (the default keychain)."
    )
    @OptionGroup var options: SearchListOptions
}

/// `security lock-keychain [-a] [keychain]`: `security lock`, silently, as on macOS.
struct LockKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lock-keychain",
        abstract: "Lock the keychain (as `lock`, printing nothing)."
    )
    @Flag(name: .customShort("a"), help: "Lock all keychains: there is one.") var all = false
    @Argument(help: ArgumentHelp("An existing keychain (default: the default one).", valueName: "keychain"))
    var keychain: String?

    func run() throws {
        guard let device = try Session.openExisting(home: keychain, context: "SecKeychainLock \(keychain ?? "<NULL>")")
        else { return }
        try device.lock()
    }
}

/// `security unlock-keychain [-u] [-p password] [keychain]`: `security unlock`, silently.
struct UnlockKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock-keychain",
        abstract: "Unlock the keychain with the passcode (as `unlock`, printing nothing).",
        discussion: "Giving the passcode with -p puts it in the process list; prefer the prompt, or `security -i`."
    )
    @Option(name: .customShort("p"), help: ArgumentHelp("The passcode.", valueName: "password")) var password: String?
    @Flag(name: .customShort("u"), help: "Ask instead of taking -p (the prompt is the only way here).") var prompt =
        false
    @Argument(help: ArgumentHelp("An existing keychain (default: the default one).", valueName: "keychain"))
    var keychain: String?

    func run() throws {
        let context = "SecKeychainUnlock \(keychain ?? "<NULL>")"
        guard let device = try Session.openExisting(home: keychain, context: context),
            (try? device.hasPasscode()) == true
        else {
            return  // no passcode: always unlocked
        }
        let given = prompt ? nil : password
        let entered =
            try given
            ?? Terminal.refusingLongLines({ () throws(Terminal.LineTooLong) in
                try Terminal.readSecret(prompt: "password to unlock \(keychain ?? "default"): ")
            })
        guard let passcode = entered else {
            throw ExitCode(1)
        }
        do {
            try device.unlock(passcode: passcode)
        } catch {
            throw Session.fail(errSecAuthFailed, context)
        }
    }
}

/// `security show-keychain-info [keychain]`: macOS's settings line, on standard error.
struct ShowKeychainInfo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show-keychain-info",
        abstract: "Show the keychain's lock settings."
    )
    @Argument(help: ArgumentHelp("An existing keychain (default: the default one).", valueName: "keychain"))
    var keychain: String?

    func run() throws {
        _ = try Session.resolve(keychain, context: "SecKeychainCopySettings \(keychain ?? "<NULL>")")
        // Nothing locks on sleep here; securityd's idle auto-lock is its own setting (off by default).
        Terminal.printError("Keychain \"\(keychain ?? "<NULL>")\" no-timeout")
    }
}
