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

    /// A handle on the peer process itself (`SO_PEERPIDFD`, Linux 6.5): unlike its process ID, it
    /// cannot come to mean another process.
    ///
    /// `nil` when the kernel has none to give (an older kernel, or a peer that has already exited);
    /// the caller closes it.
    static func processHandle(of channel: any Channel) -> Int32? {
        #if canImport(Glibc)
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let future: EventLoopFuture<Int32> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET),
            name: SocketOptionName(Self.peerProcessHandleOption)
        )
        var handle: Int32?
        future.assumeIsolated().whenComplete { outcome in handle = try? outcome.get() }
        return handle.flatMap { $0 >= 0 ? $0 : nil }
        #else
        return nil
        #endif
    }

    /// `SO_PEERPIDFD`, which the C library may not declare yet.
    static let peerProcessHandleOption: Int32 = 77

    /// Whether the process of a handle from ``processHandle(of:)`` is still alive (not yet reaped):
    /// while it is, its process ID cannot have been given to another process, so what was read
    /// from `/proc/PID/` was about it.
    static func isAlive(_ handle: Int32) -> Bool {
        // Only "gone" counts: a kernel that cannot tell leaves the identity as read.
        c_keychain_pidfd_is_alive(handle) != 0
    }

    /// The peer's program, for prompts: the file name of `/proc/PID/exe`, else the process's
    /// `comm` (readable even when the peer made itself non-dumpable).
    ///
    /// Read when the connection opens, while the process is certainly the one that connected.
    var programName: String? {
        Self.programName(of: processID)
    }

    /// The name of the program process `processID` runs: its executable's, else its `comm`.
    static func programName(of processID: Int32) -> String? {
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
