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

#if canImport(CoreFoundation)
// `struct stat` reaches Swift through CoreFoundation's headers first on Linux (member import visibility).
import CoreFoundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// Where a keychain lives: a directory holding `keychain.db` and `device.key`.
///
/// The default is `$KEYCHAIN_HOME`, else `$XDG_DATA_HOME/swift-keychain`, else
/// `~/.local/share/swift-keychain`. As the XDG Base Directory specification says, a relative
/// `XDG_DATA_HOME` is ignored; so is a relative `HOME` (the home directory then comes from the
/// user database). A relative `KEYCHAIN_HOME` is a mistake, never a keychain in the working
/// directory: opening the session's keychain then fails with an error that names the setting.
///
/// The engine refuses a home (or a file in it) that belongs to another user or that others can
/// write, and creates a missing one with mode 0700.
public struct KeychainHome: Hashable, Sendable {
    /// The directory.
    public var url: URL

    /// A keychain home in `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The keychain home that the environment names.
    public static func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) -> KeychainHome {
        if let home = environment["KEYCHAIN_HOME"], !home.isEmpty {
            return KeychainHome(url: URL(fileURLWithPath: home, isDirectory: true).standardizedFileURL)
        }
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return KeychainHome(
                url: URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("swift-keychain")
            )
        }
        let user =
            environment["HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0, isDirectory: true) : nil }
            ?? userDatabaseHome()
        return KeychainHome(
            url: user.appendingPathComponent(".local/share/swift-keychain", isDirectory: true)
        )
    }

    /// Whether this is the keychain the environment names (``resolve(environment:)``): the
    /// session's keychain, which ``DeviceConfiguration/EngineKind/auto`` serves through `securityd`.
    package func isSessionHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        url.standardizedFileURL.path == Self.resolve(environment: environment).url.standardizedFileURL.path
    }

    /// What is wrong with the settings that name the session's keychain, if anything: a relative
    /// `KEYCHAIN_HOME` or `KEYCHAIN_SOCKET` would be a keychain (or a daemon) that depends on the
    /// folder a program happens to run in.
    package static func misconfiguration(environment: [String: String] = ProcessInfo.processInfo.environment) -> String?
    {
        for name in ["KEYCHAIN_HOME", "KEYCHAIN_SOCKET"] {
            if let value = environment[name], !value.isEmpty, !value.hasPrefix("/") {
                return
                    "\(name) is the relative path \"\(value)\"; name it by an absolute path (a keychain never depends on the current folder)"
            }
        }
        return nil
    }

    /// Whether nothing is at the keychain's database path: `false` when something is, and when
    /// the folder cannot be searched (opening the keychain then reports why).
    package var keychainIsAbsent: Bool {
        let status = UnsafeMutablePointer<stat>.allocate(capacity: 1)
        defer { status.deallocate() }
        return lstat(url.appendingPathComponent("keychain.db").path, status) != 0 && errno == ENOENT
    }

    /// Whether a keychain exists here (its database file, or anything by that name).
    ///
    /// Commands that only report or search (`security status`, `find-…`) check this first, so
    /// that looking never creates a keychain.
    public var containsKeychain: Bool {
        let status = UnsafeMutablePointer<stat>.allocate(capacity: 1)
        defer { status.deallocate() }
        return lstat(url.appendingPathComponent("keychain.db").path, status) == 0
    }

    /// The home directory the user database gives this user.
    private static func userDatabaseHome() -> URL {
        if let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir {
            let path = String(cString: directory)
            if path.hasPrefix("/") { return URL(fileURLWithPath: path, isDirectory: true) }
        }
        return FileManager.default.homeDirectoryForCurrentUser
    }
}
