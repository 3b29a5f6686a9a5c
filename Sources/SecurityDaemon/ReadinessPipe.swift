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
import KeychainCore

// `struct stat`'s fields need the module that declared it for Swift (see DaemonLog).
#if canImport(CDispatch)
import CDispatch
#endif
#if canImport(CoreFoundation)
import CoreFoundation
#endif

/// The pipe to the client that started this daemon (`--ready-fd`): told once that the daemon
/// listens, or why it cannot serve, then closed.
final class ReadinessPipe: Sendable {
    private let descriptor: LockedState<Int32?>

    /// The pipe at `descriptor`, kept from the programs the daemon starts; `nil` gives a pipe that reports nothing.
    ///
    /// A number that names no inherited pipe (the option given without one) reports nothing: the
    /// daemon later opens files under free numbers, and would otherwise write to and close one.
    init(descriptor: Int32?) {
        var status = stat()
        guard let descriptor, fcntl(descriptor, F_SETFD, FD_CLOEXEC) == 0, fstat(descriptor, &status) == 0,
            status.st_mode & S_IFMT == S_IFIFO
        else {
            self.descriptor = LockedState(nil)
            return
        }
        self.descriptor = LockedState(descriptor)
    }

    /// Sends `readiness` if nothing was sent yet.
    func report(_ readiness: DaemonReadiness) {
        guard
            let descriptor = descriptor.withLock({ value in
                defer { value = nil }
                return value
            })
        else { return }
        readiness.send(to: descriptor)
    }

    /// Closes the pipe unsent (another daemon serves the socket).
    func withdraw() {
        guard
            let descriptor = descriptor.withLock({ value in
                defer { value = nil }
                return value
            })
        else { return }
        close(descriptor)
    }
}
