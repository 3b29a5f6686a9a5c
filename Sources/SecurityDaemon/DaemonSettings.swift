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
import Logging

// `struct stat`'s fields need the module that declared it for Swift (see DaemonLog).
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// What `securityd` is configured with: read from its own configuration file, never from the
/// environment of whichever program started it.
///
/// A client that starts the daemon could otherwise choose the prompter that receives the user's
/// passcode, a cheaper passcode KDF, or code to load into the process that holds the class keys.
/// The file is `securityd.conf` in the keychain home (user mode) or
/// `/etc/swift-keychain/securityd.conf` (system mode), or `--config`; lines of `name = value`,
/// `#` comments:
///
/// - `pinentry = PATH` (or `none`): the prompter; by default `pinentry` in `/usr/local/bin`,
///   `/usr/bin` or `/bin`, never a folder a client put on `PATH`.
/// - `passcode-cost = standard` (or `testing`, for test keychains only).
/// - `auto-lock = SECONDS`: lock after this long without requests.
/// - `session-unlock-window = SECONDS`: how long a keychain that locked with its login session
///   (or with sleep) reopens when the session unlocks, after the passcode unlocked it once since
///   the daemon started; at most and by default 172800 (48 hours, Apple's rule for Touch ID), 0
///   for never (the passcode after every lock).
/// - `quota = BYTES` (a number, with `K`, `M` or `G`), or `none`: the most a keychain's database
///   may hold; by default none in user mode (the files count against the user's disk quota) and
///   ``systemQuota`` in system mode, whose files count against nobody's.
/// - `serve-uids-without-account = yes` (system mode): serve a uid the user database does not know
///   (a container's); by default such a uid is refused, since a user with subordinate uids
///   (`/etc/subuid`) could otherwise take a share of the daemon for each of thousands of them.
/// - `system-bus = unix:path=…`: the system bus where logind and fprintd are trusted (by default
///   the standard one; `DBUS_SYSTEM_BUS_ADDRESS` is not taken from the environment).
///
/// The file must belong to root or to the daemon's account and be writable by no one else; the
/// daemon refuses to start on a file it cannot trust or understand rather than run without it.
struct DaemonSettings: Equatable {
    /// The prompter: `nil` to search the system folders, `"none"` for none.
    var pinentry: String?
    var passcodeCost: DeviceConfiguration.PasscodeCost = .standard
    var autoLock: Duration?
    /// How long a keychain locked with its session reopens at the session's unlock.
    var sessionUnlockWindow: Duration = .seconds(LoginEvent.longestWindowSeconds)
    /// The system bus's address; `nil` for the standard socket.
    var systemBus: String?
    /// The most bytes a keychain's database may hold: `.some(nil)` for no limit, `nil` for the
    /// mode's default.
    var quota: Int??

    /// Whether a system-mode daemon serves uids without an account.
    var servesUidsWithoutAccount = false

    /// The quota of each user's keychain in system mode unless the configuration says otherwise.
    static let systemQuota = 256 << 20

    /// The folders searched for `pinentry` when the file names none.
    static let systemPath = ["/usr/local/bin", "/usr/bin", "/bin"]

    /// The configuration file of system mode.
    static let systemFile = "/etc/swift-keychain/securityd.conf"

    /// The configuration file of a user-mode daemon for `home`.
    static func file(forHome home: URL) -> String {
        home.appendingPathComponent("securityd.conf").path
    }

    /// The settings in `path`; the defaults when there is no such file.
    static func load(from path: String) throws(SettingsError) -> DaemonSettings {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return DaemonSettings() }
            throw SettingsError(path: path, problem: "cannot be opened: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw SettingsError(path: path, problem: "is not a regular file")
        }
        guard status.st_uid == 0 || status.st_uid == geteuid() else {
            throw SettingsError(path: path, problem: "belongs to another account (uid \(status.st_uid))")
        }
        guard status.st_mode & (S_IWGRP | S_IWOTH) == 0 else {
            throw SettingsError(path: path, problem: "is writable by other accounts")
        }
        guard status.st_size <= 64 * 1024 else { throw SettingsError(path: path, problem: "is over 64 KiB") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count == bytes.count else { throw SettingsError(path: path, problem: "cannot be read") }
        return try parse(String(decoding: bytes, as: UTF8.self), path: path)
    }

    /// The settings `text` states (`path` names it in errors).
    static func parse(_ text: String, path: String) throws(SettingsError) -> DaemonSettings {
        var settings = DaemonSettings()
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let problem = { (text: String) in SettingsError(path: path, problem: "line \(index + 1): \(text)") }
            guard let equals = line.firstIndex(of: "=") else { throw problem("expected name = value") }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch name {
            case "pinentry":
                guard value == "none" || value.hasPrefix("/") else {
                    throw problem("pinentry must be an absolute path or none")
                }
                settings.pinentry = value
            case "passcode-cost":
                switch value {
                case "standard": settings.passcodeCost = .standard
                case "testing": settings.passcodeCost = .testing
                default: throw problem("passcode-cost must be standard or testing")
                }
            case "auto-lock":
                guard let seconds = Int(value), seconds > 0 else {
                    throw problem("auto-lock must be a positive number of seconds")
                }
                settings.autoLock = .seconds(seconds)
            case "session-unlock-window":
                guard let seconds = Int(value), (0...LoginEvent.longestWindowSeconds).contains(seconds) else {
                    throw problem(
                        "session-unlock-window must be a number of seconds from 0 to \(LoginEvent.longestWindowSeconds)"
                    )
                }
                settings.sessionUnlockWindow = .seconds(seconds)
            case "quota":
                guard let bytes = parseQuota(value) else {
                    throw problem("quota must be a number of bytes (with K, M or G) or none")
                }
                settings.quota = .some(bytes)
            case "serve-uids-without-account":
                guard value == "yes" || value == "no" else {
                    throw problem("serve-uids-without-account must be yes or no")
                }
                settings.servesUidsWithoutAccount = value == "yes"
            case "system-bus":
                guard value.hasPrefix("unix:"), !value.contains("\0") else {
                    throw problem("system-bus must be a unix: address")
                }
                settings.systemBus = value
            default:
                throw problem("unknown setting \(name)")
            }
        }
        return settings
    }

    /// `value` as a quota: `none` (`.some(nil)`), or bytes; `nil` when it is neither.
    private static func parseQuota(_ value: String) -> Int?? {
        if value == "none" { return .some(nil) }
        let units: [Character: Int] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var digits = Substring(value)
        var unit = 1
        if let last = value.last, let scale = units[last] {
            unit = scale
            digits = digits.dropLast()
        }
        guard let number = Int(digits), number > 0, number <= Int.max / unit else { return nil }
        return .some(number * unit)
    }

    /// Makes the system bus these settings name the one this process connects to (sd-bus reads
    /// `DBUS_SYSTEM_BUS_ADDRESS`): a bus named in the environment of whoever started the daemon
    /// would answer for logind and fprintd.
    func applySystemBus() {
        if let systemBus {
            setenv("DBUS_SYSTEM_BUS_ADDRESS", systemBus, 1)
        } else {
            unsetenv("DBUS_SYSTEM_BUS_ADDRESS")
        }
    }

    /// The prompter these settings name, or the one in the system folders; `nil` for none.
    func makePinentry() -> Pinentry? {
        switch pinentry {
        case "none":
            return nil
        case let path?:
            return access(path, X_OK) == 0 ? Pinentry(executable: path) : nil
        case nil:
            return Self.systemPath.map { $0 + "/pinentry" }.first { access($0, X_OK) == 0 }.map(Pinentry.init)
        }
    }

    /// A configuration file the daemon will not run with.
    struct SettingsError: Error, CustomStringConvertible {
        var path: String
        var problem: String
        var description: String { "the daemon's configuration \(path) \(problem)" }
    }
}

extension DaemonSettings {
    /// How the daemon opens a keychain: in this process, with no prompt of its own (each client's
    /// evaluation is asked where that client is), at the configured passcode cost.
    ///
    /// `systemMode` picks the default quota (``systemQuota``, or none in user mode).
    func engineConfiguration(logger: Logger, systemMode: Bool = false) -> DeviceConfiguration {
        var configuration = DeviceConfiguration(passcodeCost: passcodeCost, passcodePrompt: .none, engine: .embedded)
        configuration.logger = logger
        configuration.storageQuota = quota ?? (systemMode ? Self.systemQuota : nil)
        return configuration
    }
}
