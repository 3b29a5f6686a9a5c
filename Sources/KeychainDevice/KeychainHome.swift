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

/// Where a keychain lives: a directory holding `keychain.db` and `device.key`.
///
/// The default is `$KEYCHAIN_HOME`, else `$XDG_DATA_HOME/swift-keychain`, else
/// `~/.local/share/swift-keychain`.
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
            return KeychainHome(url: URL(fileURLWithPath: home, isDirectory: true))
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return KeychainHome(url: URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("swift-keychain"))
        }
        let user = environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        return KeychainHome(
            url: user.appendingPathComponent(".local/share/swift-keychain", isDirectory: true)
        )
    }
}
