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
import Synchronization

/// One user of a TPM at a time, where the TPM does not give each connection its own objects.
///
/// Through a resource manager (`/dev/tpmrm0`) connections are isolated and nothing is locked. A
/// TPM reached directly (swtpm's socket) runs every connection's commands against one set of
/// loaded objects: a connection's objects could be flushed or evicted by another's. Within a
/// process a mutex serializes the connections; between processes, an exclusive `flock` on a file
/// beside swtpm's socket (`<path>.lock`), when that folder is writable.
enum TPMAccessLock {
    private static let inProcess = Mutex(())

    /// Runs `body` holding the TPM of `configuration` alone.
    static func holding<T>(_ configuration: String, _ body: () throws(TPMError) -> T) throws(TPMError) -> T {
        let result: Result<T, TPMError> = inProcess.withLock { _ in
            let descriptor = lockFile(of: configuration).map {
                open($0, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
            }
            defer {
                if let descriptor, descriptor >= 0 { close(descriptor) }
            }
            if let descriptor, descriptor >= 0 {
                while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
            }
            do throws(TPMError) {
                return .success(try body())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The lock file of a TCTI without a resource manager: beside the socket its `path=` names.
    private static func lockFile(of configuration: String) -> String? {
        guard configuration.hasPrefix("swtpm:") || configuration.hasPrefix("mssim:") else { return nil }
        let options = configuration.dropFirst(configuration.prefix { $0 != ":" }.count + 1).split(separator: ",")
        guard let path = options.first(where: { $0.hasPrefix("path=") })?.dropFirst(5), !path.isEmpty else {
            return nil
        }
        return String(path) + ".lock"
    }
}
