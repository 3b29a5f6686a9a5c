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

// Depending on build order, `struct stat` is declared for Swift by Glibc's headers, by
// Dispatch's C module or by CoreFoundation's, and member import visibility wants that module
// imported to read its fields: Foundation brings the first; the others are imported here.
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// A small secret file read only if it is private to this user.
package enum PrivateLineFile {
    /// The first line of the file at `path` if it is a small regular file owned by this user and
    /// private to them (opened without following a link, without waiting on a FIFO).
    package static func firstLine(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // The opened file itself: no race with a rename of the path.
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_uid == geteuid(),
            status.st_mode & 0o077 == 0
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: 1025)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, count <= 1024 else { return nil }  // empty, unreadable, or too long for a passcode
        var line = bytes[0..<count].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }  // a file written on Windows
        return String(decoding: line, as: UTF8.self)
    }
}
