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
import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a Unix socket, as the kernel says (`SO_PEERCRED`): it cannot be
/// forged by the peer.
struct PeerCredentials: Sendable {
    var processID: Int32
    var userID: UInt32
    var groupID: UInt32

    /// The credentials of `channel`'s peer; call on its event loop.
    static func of(_ channel: any Channel) -> Result<PeerCredentials, any Error> {
        #if canImport(Glibc)
        guard let provider = channel as? any SocketOptionProvider else {
            return .failure(ChannelError.operationUnsupported)
        }
        let future: EventLoopFuture<KernelCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(SO_PEERCRED)
        )
        // On the channel's event loop the option is read at once.
        var result: Result<PeerCredentials, any Error> = .failure(ChannelError.inappropriateOperationForState)
        future.assumeIsolated().whenComplete { outcome in
            result = outcome.map { PeerCredentials(processID: $0.processID, userID: $0.userID, groupID: $0.groupID) }
        }
        return result
        #else
        return .failure(ChannelError.operationUnsupported)
        #endif
    }

    /// The peer's program, for prompts: the file name of `/proc/PID/exe`, else the process's
    /// `comm` (readable even when the peer made itself non-dumpable). Read when the connection
    /// opens, while the process is certainly the one that connected.
    var programName: String? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(processID)/exe") {
            return (path as NSString).lastPathComponent
        }
        guard let comm = try? String(contentsOfFile: "/proc/\(processID)/comm", encoding: .utf8) else { return nil }
        let name = comm.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }

    /// The kernel's `struct ucred` (`pid_t`, `uid_t`, `gid_t`), which the C library declares only
    /// under `_GNU_SOURCE`.
    private struct KernelCredentials: Sendable {
        var processID: Int32
        var userID: UInt32
        var groupID: UInt32
    }
}
