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
package import KeychainContract
import KeychainCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Device {
    // MARK: Backup and restore

    /// Writes an encrypted backup of every item that may leave this device to `url`, under `password`.
    ///
    /// The backup holds every item of every class and access group except the `…ThisDeviceOnly`
    /// items, Secure Enclave keys and items bound to the enrolled fingers (Apple's rule), with their
    /// attributes, dates, identifiers and access control. The keychain must be unlocked; items
    /// whose access control needs the passcode are copied when `passcode` is given (it is checked
    /// once, and counts as an attempt) and left out otherwise. Through `securityd`, a keychain with
    /// a passcode is backed up only once the daemon has asked for it in its own words: `passcode`
    /// answers that question, or this device's prompt does without one. The file appears at `url`
    /// only once it is complete (mode 0600); `progress` reports the items looked at and the total.
    ///
    /// - Returns: What was written and what was left out, by reason.
    /// - Throws: ``KeychainDeviceError`` (``KeychainDeviceError/Code/locked`` while locked,
    ///   ``KeychainDeviceError/Code/wrongPasscode`` for a wrong `passcode`,
    ///   ``KeychainDeviceError/Code/io`` when the file cannot be written).
    public func backup(
        to url: URL,
        password: String,
        passcode: String? = nil,
        progress: (@Sendable (_ completed: Int, _ total: Int) -> Void)? = nil
    ) async throws -> BackupSummary {
        try await backup(to: url, sealing: .password(password), passcode: passcode, progress: progress)
    }

    /// Writes an encrypted backup that only the holder of `recipient`'s private key can read: for
    /// unattended backups, which need no password typed.
    ///
    /// `recipient` is a P-256 public key in X9.63 form (`SecKeyCopyExternalRepresentation` of an
    /// EC public key). Otherwise as ``backup(to:password:passcode:progress:)``.
    public func backup(
        to url: URL,
        recipient: Data,
        passcode: String? = nil,
        progress: (@Sendable (_ completed: Int, _ total: Int) -> Void)? = nil
    ) async throws -> BackupSummary {
        try await backup(to: url, sealing: .recipient(publicKey: recipient), passcode: passcode, progress: progress)
    }

    /// Restores the backup at `url` into this keychain.
    ///
    /// Every chunk of the file is checked before anything is written: a file altered, cut short,
    /// re-ordered or sealed under another password is refused and the keychain stays as it was.
    /// An item that exists here keeps the newer of the two versions; nothing else is overwritten.
    /// Items are written in batches, each whole or not at all, so a restore that was interrupted
    /// is finished by running it again. The keychain must be unlocked; through `securityd`, where
    /// apps' items are guarded, the daemon asks for the passcode of a keychain that has one, in its
    /// own words, since a restore may change any app's items: `passcode` answers it (or this
    /// device's prompt does without one).
    ///
    /// - Returns: What was added, replaced, kept and refused.
    /// - Throws: ``KeychainDeviceError`` (``KeychainDeviceError/Code/wrongPassword`` when the
    ///   password does not open the file, ``KeychainDeviceError/Code/damaged`` for a damaged file or
    ///   one that is no backup).
    public func restore(
        from url: URL,
        password: String,
        passcode: String? = nil,
        progress: (@Sendable (_ completed: Int, _ total: Int) -> Void)? = nil
    ) async throws -> RestoreSummary {
        try await restore(from: url, opening: .password(password), passcode: passcode, progress: progress)
    }

    /// Restores a backup written for a recipient key, with that key's private key.
    ///
    /// `privateKey` is the 32-byte P-256 scalar. Otherwise as ``restore(from:password:passcode:progress:)``.
    public func restore(
        from url: URL,
        privateKey: Data,
        passcode: String? = nil,
        progress: (@Sendable (_ completed: Int, _ total: Int) -> Void)? = nil
    ) async throws -> RestoreSummary {
        try await restore(from: url, opening: .privateKey(privateKey), passcode: passcode, progress: progress)
    }

    /// Checks every chunk of the backup at `url` without restoring it.
    ///
    /// - Returns: The items the file holds, counted as `added` (with
    ///   `invalidItem` refusals for records that are not items).
    public func checkBackup(at url: URL, password: String) async throws -> RestoreSummary {
        try await Self.offTheCooperativePool { [self] () throws -> RestoreSummary in
            try readBackup(from: url, opening: .password(password), passcode: nil, checkOnly: true, progress: nil)
        }
    }

    /// Checks every chunk of a backup written for a recipient key, without restoring it.
    public func checkBackup(at url: URL, privateKey: Data) async throws -> RestoreSummary {
        try await Self.offTheCooperativePool { [self] () throws -> RestoreSummary in
            try readBackup(from: url, opening: .privateKey(privateKey), passcode: nil, checkOnly: true, progress: nil)
        }
    }

    // MARK: Blocking forms (the security tool)

    /// ``backup(to:password:passcode:progress:)`` and its recipient form, on the caller's thread.
    package func writeBackup(
        to url: URL,
        sealing: BackupSealing,
        passcode: String?,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws(KeychainDeviceError) -> BackupSummary {
        let file = try translating { try BackupFile(creatingAt: url) }
        do {
            let summary = try translating { () throws -> BackupSummary in
                let context = try passcode.map { try authenticated(passcode: $0) }
                defer { if let context { engine.releaseContext(context) } }
                return try engine.backup(
                    sealing,
                    context: context,
                    prompt: Self.answering(passcode),
                    to: file.append,
                    progress: progress
                )
            }
            try translating { try file.complete() }
            return summary
        } catch {
            file.abandon()
            throw error
        }
    }

    /// ``restore(from:password:progress:)``, its key form and the checks, on the caller's thread.
    package func readBackup(
        from url: URL,
        opening: BackupOpening,
        passcode: String?,
        checkOnly: Bool,
        progress: (@Sendable (Int, Int) -> Void)?
    ) throws(KeychainDeviceError) -> RestoreSummary {
        let file = try translating { try BackupFile(readingAt: url) }
        defer { file.finishReading() }
        let context = try translating { try passcode.map { try authenticated(passcode: $0) } }
        defer { if let context { engine.releaseContext(context) } }
        do {
            return try translating { () throws -> RestoreSummary in
                try engine.restore(
                    opening,
                    context: context,
                    prompt: Self.answering(passcode),
                    from: file.read,
                    checkOnly: checkOnly,
                    progress: progress
                )
            }
        } catch  where error.code == .wrongPasscode {
            // The file's password, not the keychain's passcode: no attempt was counted.
            throw KeychainDeviceError(.wrongPassword, error.message)
        }
    }

    // MARK: Private

    private func backup(
        to url: URL,
        sealing: BackupSealing,
        passcode: String?,
        progress: (@Sendable (Int, Int) -> Void)?
    ) async throws -> BackupSummary {
        try await Self.offTheCooperativePool { [self] () throws -> BackupSummary in
            try writeBackup(to: url, sealing: sealing, passcode: passcode, progress: progress)
        }
    }

    private func restore(
        from url: URL,
        opening: BackupOpening,
        passcode: String?,
        progress: (@Sendable (Int, Int) -> Void)?
    ) async throws -> RestoreSummary {
        try await Self.offTheCooperativePool { [self] () throws -> RestoreSummary in
            try readBackup(from: url, opening: opening, passcode: passcode, checkOnly: false, progress: progress)
        }
    }

    /// A prompt that answers `securityd`'s question for the passcode with `passcode`; `nil` (this
    /// device's own prompt asks) without one.
    private static func answering(_ passcode: String?) -> PasscodePrompt? {
        passcode.map { passcode in PasscodePrompt { _, _ in .entered(passcode) } }
    }

    /// A context that has earned the passcode, for the items whose access control needs it.
    private func authenticated(passcode: String) throws -> ContextReference {
        let context = try engine.makeContext()
        do {
            try engine.evaluate(
                AccessControl(protection: .whenUnlocked, flags: AccessControl.devicePasscode),
                operation: .useItem,
                missing: nil,
                for: context,
                reason: "back up or restore the keychain",
                interactionAllowed: true,
                prompt: PasscodePrompt { _, _ in .entered(passcode) }
            )
        } catch {
            engine.releaseContext(context)
            throw KeychainError(
                error.code == .authenticationFailed ? .authenticationFailed : .userCanceled,
                error.message
            )
        }
        return context
    }

    /// Runs blocking work on a thread of its own: a backup may take minutes, which a task of the
    /// cooperative pool must never block for.
    private static func offTheCooperativePool<T: Sendable>(
        _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.stackSize = 1 << 20
            thread.start()
        }
    }
}
