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

import CKeychainSystem
import Foundation
import KeychainBus
import KeychainContract

#if canImport(Glibc)
import Glibc
#endif

/// Who called the provider: the bus connection's process, identified as `securityd` identifies
/// its socket clients (``ClientIdentity``), and the access group its items live in.
struct SecretCaller: Sendable {
    var peer: BusPeer
    var identity: ClientIdentity
    /// The program's name, shown in prompts and recorded as an item's creator.
    var program: String?
    /// What an item trusts when reads are confirmed: the executable's path for an unconfined
    /// program (every script of one interpreter is one program), `flatpak:ID` for an app.
    var executable: String?

    /// Where this caller's items live: the shared group for unconfined programs; for a Flatpak
    /// app, a group under its own id (`flatpak:ID/secret-service`) that neither another app nor
    /// the app's own `SecItem` calls can name, since an app's grant names whole groups.
    var group: String? {
        switch identity {
        case .unsandboxed: SecretStore.sharedGroup
        case .flatpak(let appID): ClientIdentity.flatpakGroupPrefix + appID + "/secret-service"
        case .unverifiable: nil
        }
    }

    /// Identifies the connection `sender`, which must be of `userID`.
    ///
    /// The process is pinned (a pidfd) while its files are read, and the bus is asked again
    /// afterwards: a process that ended meanwhile, whose PID another may now have, identifies as nothing.
    static func identify(
        _ sender: String,
        on bus: BusConnection,
        userID: UInt32,
        baseline: ClientIdentity.Confinement?
    ) throws(BusError) -> SecretCaller {
        let peer = try bus.credentials(of: sender)
        guard peer.userID == userID else {
            throw BusError.accessDenied("this keychain serves another user")
        }
        guard let processID = peer.processID else {
            return SecretCaller(peer: peer, identity: .unverifiable, program: nil, executable: nil)
        }
        let handle = c_keychain_pidfd_open(processID)
        defer { if handle >= 0 { close(handle) } }
        var identity = ClientIdentity.of(processID: processID, baseline: baseline)
        var program = PeerCredentials.programName(of: processID)
        // A binary replaced by an upgrade while the program runs reads "PATH (deleted)": still PATH.
        var executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(processID)/exe"))
            .map { $0.hasSuffix(" (deleted)") ? String($0.dropLast(10)) : $0 }
        let again = try? bus.credentials(of: sender)
        if again?.processID != processID || (handle >= 0 && c_keychain_pidfd_is_alive(handle) == 0) {
            identity = .unverifiable
            program = nil
            executable = nil
        }
        // A Flatpak app reaches the bus through its proxy: the app is named by its id.
        if let appID = identity.appID {
            program = appID
            executable = "flatpak:" + appID
        }
        return SecretCaller(peer: peer, identity: identity, program: program, executable: executable)
    }
}
