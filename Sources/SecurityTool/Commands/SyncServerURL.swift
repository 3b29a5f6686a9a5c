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

/// The server URL a sync command hands the daemon, with the role's password asked for when the
/// URL has none.
///
/// A password written in the URL sits in the command line, which every user of the machine can
/// read while the command runs (`ps`, `/proc/PID/cmdline`); asked for, it goes from the terminal
/// (without echo) or standard input straight to the daemon.
enum SyncServerURL {
    /// `url` with a password: the one it has, or the one typed for the user and host it names
    /// (an empty answer, or the end of standard input, keeps it without one).
    ///
    /// A server reached through a Unix socket usually knows its users by their account, so none
    /// is asked for; a URL that does not parse goes as it is, for the daemon to say why.
    ///
    /// - Throws: `ExitCode(1)` when the typed line is longer than a password may be.
    static func completing(_ url: String) throws -> String {
        guard var components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme),
            components.password == nil, let user = components.user, let host = components.host, !host.isEmpty,
            !(components.queryItems ?? []).contains(where: { $0.name == "host" && ($0.value ?? "").hasPrefix("/") })
        else { return url }
        let prompt = "password for \(Terminal.escaped(user)) on \(Terminal.escaped(host)) (empty for none): "
        let typed = try Terminal.refusingLongLines { () throws(Terminal.LineTooLong) in
            try Terminal.readSecret(prompt: prompt)
        }
        guard let password = typed, !password.isEmpty else { return url }
        components.password = password
        return components.string ?? url
    }
}
