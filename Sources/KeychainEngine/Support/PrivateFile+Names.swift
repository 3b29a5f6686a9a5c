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

extension PrivateFile {
    // MARK: Names

    /// Gives the file `existing` the new name `path`, never replacing a file already there.
    ///
    /// - Returns: `nil` on success, else the `errno` (`EEXIST` when `path` exists).
    package static func linkFile(_ existing: String, as path: String) -> Int32? {
        retryingInterrupted { link(existing, path) } == 0 ? nil : errno
    }

    /// Renames `source` to `destination` atomically, replacing a file there.
    ///
    /// - Returns: `nil` on success, else the `errno` (`ENOENT` when `source` is gone).
    package static func renameFile(_ source: String, to destination: String) -> Int32? {
        retryingInterrupted { rename(source, destination) } == 0 ? nil : errno
    }

    /// Removes the name `path`; a missing name is not an error.
    package static func removeName(_ path: String) {
        _ = unlink(path)
    }

    // MARK: Descriptors

    /// Closes a descriptor this type opened (once: `close` is never repeated on Linux).
    package static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    /// Removes a secret file's name, then overwrites its bytes through a descriptor opened before
    /// (so that a name made meanwhile for another file is never overwritten).
    package static func removeAndErase(_ path: String) {
        let descriptor = try? openForUpdate(path)
        removeName(path)
        if let descriptor {
            eraseContents(of: descriptor)
            closeDescriptor(descriptor)
        }
    }

    /// Overwrites a file's bytes with zeros and flushes them, unless another name still links to
    /// them (a hard-link backup keeps its copy: only its name in the home is gone).
    package static func eraseContents(of descriptor: Int32) {
        guard let size = size(of: descriptor), size > 0, linkCount(of: descriptor) == 0 else { return }
        let zeros = [UInt8](repeating: 0, count: size)
        _ = zeros.withUnsafeBytes { bytes in
            retryingInterrupted { Int32(clamping: pwrite(descriptor, bytes.baseAddress, bytes.count, 0)) }
        }
        _ = retryingInterrupted { fsync(descriptor) }
    }
}
