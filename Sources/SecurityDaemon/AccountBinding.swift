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
import KeychainCore

// `struct stat`'s fields need the module that declared it for Swift (see DaemonLog).
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// The account a system-mode keychain belongs to: not only its number.
///
/// A uid is reused when an account is deleted and another created; a keychain keyed by the number
/// alone would pass to the new account, secrets, passcode and all (issue 34, finding 3). Each
/// keychain folder records its account's name and home (`account`, written when the keychain is
/// first opened); a keychain whose account is gone or is another is refused, and kept for an
/// administrator (`securityd --system --list-keychains`, `--adopt-keychain`, `--remove-keychain`).
///
/// An account deleted and made again with the same name, uid and home is, to the daemon, the
/// same account: nothing else in the user database tells them apart.
struct AccountBinding: Equatable, Sendable {
    /// The account's name; empty for a uid with no account (a container's arbitrary uid).
    var name: String
    /// The account's home folder; empty for a uid with no account.
    var home: String

    /// The name of the record in a keychain folder.
    static let fileName = "account"

    /// The account that has `userID` now, from the user database (NSS): "no account" when the
    /// database says there is none, `nil` when it cannot be read now (a directory service that is
    /// down, no descriptors left), which must never be taken for "no account".
    static func current(_ userID: UInt32) -> AccountBinding? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var size = 16 * 1024
        while true {
            var buffer = [CChar](repeating: 0, count: size)
            let status = getpwuid_r(userID, &entry, &buffer, buffer.count, &result)
            if status == ERANGE && size < 1 << 20 {
                size *= 4
                continue
            }
            guard status == 0 else { return nil }
            guard result != nil else { return AccountBinding(name: "", home: "") }
            return AccountBinding(
                name: entry.pw_name.map { String(cString: $0) } ?? "",
                home: entry.pw_dir.map { String(cString: $0) } ?? ""
            )
        }
    }

    /// Whether this is a uid without an account.
    var isNoAccount: Bool { name.isEmpty }

    /// How it is shown to an administrator.
    var description: String { isNoAccount ? "no account" : "\(name) (home \(home))" }

    // MARK: The record

    /// The account recorded in `folder`; `nil` when none is (a keychain from before bindings, or
    /// a new one).
    static func recorded(in folder: URL) throws(KeychainError) -> AccountBinding? {
        let path = folder.appendingPathComponent(fileName).path
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw KeychainError(.invalidKeychain, "the keychain's account record cannot be read")
        }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 8 * 1024)
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { throw KeychainError(.invalidKeychain, "the keychain's account record is empty") }
        var fields: [String: String] = [:]
        for line in String(decoding: bytes[0..<count], as: UTF8.self).split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            fields[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let name = fields["name"], let home = fields["home"] else {
            throw KeychainError(.invalidKeychain, "the keychain's account record is damaged")
        }
        return AccountBinding(name: name, home: home)
    }

    /// Records this account in `folder` (atomically, mode 0600, owned as the folder is).
    func record(in folder: URL) throws(KeychainError) {
        let target = folder.appendingPathComponent(Self.fileName)
        let staged = folder.appendingPathComponent(".\(Self.fileName).\(UUID().uuidString)")
        let text = "name=\(name)\nhome=\(home)\n"
        var status = stat()
        guard stat(folder.path, &status) == 0,
            FileManager.default.createFile(
                atPath: staged.path,
                contents: Data(text.utf8),
                attributes: [.posixPermissions: 0o600]
            ),
            chown(staged.path, status.st_uid, status.st_gid) == 0,
            rename(staged.path, target.path) == 0
        else {
            unlink(staged.path)
            throw KeychainError(.io, "cannot record the keychain's account: \(String(cString: strerror(errno)))")
        }
    }
}
