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
import Crypto
import Foundation
import KeychainContract
import KeychainDevice
import Synchronization

/// `security backup FILE`: every item that may leave this device, in one encrypted file (the
/// password asked twice, never on the command line), or sealed to a recipient's public key.
struct BackupKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Write an encrypted backup of the keychain, or check one (--verify).",
        discussion: """
            The backup holds every item of every class and access group except the \
            …ThisDeviceOnly items, Secure Enclave keys and items bound to the enrolled fingers. \
            The password is asked twice (without echo on a terminal, one line each from standard \
            input otherwise); with --to-key the file is sealed to a P-256 public key (PEM) instead, \
            and only its private key (`security restore --key`) opens it. When a passcode is set it \
            is asked once: it unlocks the keychain and copies the items whose access control needs \
            it. --verify checks every chunk of FILE and counts its items, writing nothing.
            """
    )

    @Option(name: .customShort("k"), help: "The keychain (default: the default keychain).") var keychain: String?
    @Option(name: .customLong("to-key"), help: "Seal the backup to this P-256 public key (PEM) instead of a password.")
    var recipient: String?
    @Flag(help: "Check FILE without restoring it.") var verify = false
    @Option(
        name: .customLong("key"),
        help: "With --verify: the P-256 private key (PEM) a --to-key backup was sealed to."
    )
    var privateKey: String?
    @Argument(help: "The backup file.") var file: String

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let device = try Session.open(home: keychain)
        if verify {
            let opening = try BackupCommands.opening(privateKeyPath: privateKey)
            let summary = try BackupCommands.perform("backup --verify") {
                try device.readBackup(from: url, opening: opening, passcode: nil, checkOnly: true, progress: nil)
            }
            let invalid = summary.refused[.invalidItem] ?? 0
            print(
                "\(file): intact, \(BackupCommands.items(summary.added))\(invalid > 0 ? "; \(invalid) records that are not items" : "")"
            )
            return
        }
        let sealing: BackupSealing
        if let recipient {
            sealing = .recipient(publicKey: try BackupCommands.publicKey(at: recipient))
        } else {
            let entered = try Terminal.refusingLongLines({ () throws(Terminal.LineTooLong) in
                try Terminal.readNewSecret(prompt: "backup password: ", retypePrompt: "retype backup password: ")
            })
            guard let password = entered, !password.isEmpty else {
                Terminal.printError("security: backup: no password given")
                throw ExitCode(1)
            }
            sealing = .password(password)
        }
        let passcode = try BackupCommands.passcodeOnce(device, command: "backup")
        let summary = try BackupCommands.perform("backup") {
            try device.writeBackup(
                to: url,
                sealing: sealing,
                passcode: passcode,
                progress: BackupCommands.progress("backup")
            )
        }
        print("backed up \(BackupCommands.items(summary.written)) to \(file)")
        let omitted = summary.omitted.sorted { $0.key < $1.key }.map {
            "\($0.value) \(BackupCommands.describe($0.key))"
        }
        if !omitted.isEmpty { print("left out: \(omitted.joined(separator: ", "))") }
    }
}

/// `security restore FILE`: the items of a backup, into this keychain.
struct RestoreKeychain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore an encrypted backup into the keychain.",
        discussion: """
            When a passcode is set it is asked once. Every chunk of FILE is checked before anything is written: a file altered, cut short \
            or sealed under another password is refused and the keychain stays as it was. An item \
            that exists keeps the newer of the two versions; nothing else is overwritten. Items are \
            written in batches, so an interrupted restore is finished by running it again.
            """
    )

    @Option(name: .customShort("k"), help: "The keychain (default: the default keychain).") var keychain: String?
    @Option(name: .customLong("key"), help: "The P-256 private key (PEM) a --to-key backup was sealed to.")
    var privateKey: String?
    @Argument(help: "The backup file.") var file: String

    func run() throws {
        let url = URL(fileURLWithPath: file)
        let device = try Session.open(home: keychain)
        let opening = try BackupCommands.opening(privateKeyPath: privateKey)
        let passcode = try BackupCommands.passcodeOnce(device, command: "restore")
        let summary = try BackupCommands.perform("restore") {
            try device.readBackup(
                from: url,
                opening: opening,
                passcode: passcode,
                checkOnly: false,
                progress: BackupCommands.progress("restore")
            )
        }
        var parts = ["\(summary.added) added"]
        parts.append("\(summary.replaced) replaced by the backup's newer version")
        parts.append("\(summary.kept) kept (this keychain's version is as new or newer)")
        for (reason, count) in summary.refused.sorted(by: { $0.key < $1.key }) {
            parts.append("\(count) not restored (\(BackupCommands.describe(reason)))")
        }
        print("restored \(file): \(parts.joined(separator: ", "))")
    }
}

/// What `backup` and `restore` share: keys, the passcode, progress and messages.
enum BackupCommands {
    /// What opens a backup: the password, asked once, or the private key at `privateKeyPath`.
    static func opening(privateKeyPath: String?) throws -> BackupOpening {
        if let privateKeyPath {
            guard let pem = try? String(contentsOfFile: privateKeyPath, encoding: .utf8),
                let key = try? P256.KeyAgreement.PrivateKey(pemRepresentation: pem)
            else {
                Terminal.printError("security: \(privateKeyPath) is not a P-256 private key in PEM")
                throw ExitCode(1)
            }
            return .privateKey(key.rawRepresentation)
        }
        let entered = try Terminal.refusingLongLines({ () throws(Terminal.LineTooLong) in
            try Terminal.readSecret(prompt: "backup password: ")
        })
        guard let password = entered, !password.isEmpty else {
            Terminal.printError("security: no backup password given")
            throw ExitCode(1)
        }
        return .password(password)
    }

    /// The public key (X9.63) in the PEM file at `path`.
    static func publicKey(at path: String) throws -> Data {
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8),
            let key = try? P256.KeyAgreement.PublicKey(pemRepresentation: pem)
        else {
            Terminal.printError("security: \(path) is not a P-256 public key in PEM")
            throw ExitCode(1)
        }
        return key.x963Representation
    }

    /// The passcode, asked once when one is set: it unlocks the keychain, lets a backup copy the
    /// items whose access control needs it, and shows `securityd` that the user is at the keyboard
    /// (a backup or restore reaches every app's items).
    static func passcodeOnce(_ device: Device, command: String) throws -> String? {
        guard try device.hasPasscode() else { return nil }
        let entered = try Terminal.refusingLongLines({ () throws(Terminal.LineTooLong) in
            try Terminal.readSecret(prompt: "keychain passcode: ")
        })
        guard let passcode = entered, !passcode.isEmpty else {
            Terminal.printError("security: \(command): the keychain has a passcode and none was given")
            throw ExitCode(1)
        }
        if !device.isUnlocked {
            try perform(command) { try device.unlockThisProcess(passcode: passcode) }
        }
        return passcode
    }

    /// A progress report: a bar on a terminal, a percentage per tenth in the log otherwise.
    static func progress(_ name: String) -> @Sendable (Int, Int) -> Void {
        let onTerminal = isatty(STDERR_FILENO) == 1
        let lastTenth = Mutex(-1)
        return { completed, total in
            guard total > 0 else { return }
            let percent = min(100, completed * 100 / total)
            if onTerminal {
                let filled = percent / 5
                let bar = String(repeating: "#", count: filled) + String(repeating: ".", count: 20 - filled)
                FileHandle.standardError.write(
                    Data("\r\(name): [\(bar)] \(percent)%\(percent == 100 ? "\n" : "")".utf8)
                )
                return
            }
            let tenth = percent / 10
            guard
                lastTenth.withLock({ last in
                    defer { last = max(last, tenth) }
                    return tenth > last
                })
            else { return }
            Terminal.printError("security: \(name): \(percent)% (\(completed) of \(total) items)")
        }
    }

    /// Runs a device call, reporting its failure in the tool's words.
    static func perform<T>(_ command: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as KeychainDeviceError {
            Terminal.printError("security: \(command): \(error.message)")
            throw ExitCode(1)
        }
    }

    static func items(_ count: Int) -> String {
        count == 1 ? "1 item" : "\(count) items"
    }

    static func describe(_ omission: BackupOmission) -> String {
        switch omission {
        case .thisDeviceOnly: "…ThisDeviceOnly (stay on this device)"
        case .enclaveKey: "Secure Enclave keys (never leave the engine)"
        case .biometrySetBound: "bound to the enrolled fingers"
        case .needsAuthentication:
            "need an authentication the backup did not have (biometry alone, an application password)"
        case .undecryptable: "cannot be decrypted (damaged)"
        case .tooLarge: "larger than a backup record holds"
        }
    }

    static func describe(_ refusal: RestoreRefusal) -> String {
        switch refusal {
        case .accessControlUnavailable: "their access control needs a passcode or fingers this keychain lacks"
        case .invalidItem: "records that are not items"
        }
    }
}
