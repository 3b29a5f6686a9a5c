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
package import KeychainCore

/// What a daemon started on first use tells its starter through a pipe (`securityd --ready-fd`):
/// that it listens, or why it cannot serve the keychain — the same error the keychain would give
/// in the starter's own process (a home another user owns, a damaged database).
///
/// A daemon that finds another already serving the socket closes the pipe without a word.
package enum DaemonReadiness: Sendable {
    /// The daemon listens.
    case listening
    /// The daemon could not open the keychain or its socket, and exits.
    case failed(KeychainError)

    /// The report's bytes: `ready\n`, or `error\n` and the error as JSON.
    package var encoded: [UInt8] {
        switch self {
        case .listening:
            return Array("ready\n".utf8)
        case .failed(let error):
            let body = (try? JSONEncoder().encode(error)).map(Array.init) ?? []
            return Array("error\n".utf8) + body
        }
    }

    /// The report in `bytes`; `nil` for none (the daemon exited without one, or wrote nonsense).
    package init?(decoding bytes: [UInt8]) {
        if bytes == Array("ready\n".utf8) {
            self = .listening
            return
        }
        let prefix = Array("error\n".utf8)
        guard bytes.starts(with: prefix),
            let error = try? JSONDecoder().decode(KeychainError.self, from: Data(bytes.dropFirst(prefix.count)))
        else { return nil }
        self = .failed(error)
    }

    /// Writes `self` to `descriptor` and closes it.
    package func send(to descriptor: Int32) {
        DescriptorWrite.all(encoded, to: descriptor)
        close(descriptor)
    }

    /// Reads a report from `descriptor` until the writer closes it or `timeout` passes; closes it.
    package static func receive(from descriptor: Int32, timeout: Duration) -> DaemonReadiness? {
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let left = deadline - ContinuousClock.now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60000)
            )
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { return nil }
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return DaemonReadiness(decoding: bytes)
    }
}
