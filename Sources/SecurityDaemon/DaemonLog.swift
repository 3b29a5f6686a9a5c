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
import KeychainEngine

// Depending on build order, `struct stat` is declared for Swift by Glibc's headers, by
// Dispatch's C module or by CoreFoundation's, and member import visibility wants that module
// imported to read its fields (as in PrivateLineFile).
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// The log file of a daemon a client started (`--log-file`): its standard error, where a person
/// finds it with `security daemon log` (the log holds no secret, name or attribute value).
enum DaemonLog {
    /// Largest size kept: a longer log is started afresh when the next daemon starts.
    static let limit = 1 << 20

    /// Points standard error at `path`, appending: a regular file of this user's own (never a
    /// link), readable by nobody else, in a folder of this user's own that others cannot enter.
    static func redirectStandardError(to path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try PrivateDirectory.prepare(URL(fileURLWithPath: folder, isDirectory: true))
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw KeychainError(.io, "cannot open the log \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid() else {
            throw KeychainError(.invalidKeychain, "the log \(path) is not a file of this user")
        }
        _ = fchmod(descriptor, 0o600)
        if status.st_size > limit { _ = ftruncate(descriptor, 0) }
        guard dup2(descriptor, STDERR_FILENO) >= 0 else {
            throw KeychainError(.io, "cannot log to \(path): \(String(cString: strerror(errno)))")
        }
    }
}
