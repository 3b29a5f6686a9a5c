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

/// One conversation with an Assuan server run as a child process (pinentry): commands go to its
/// standard input, replies come from its standard output.
///
/// A server that exits early makes writes to its pipe raise `SIGPIPE`: the process using this
/// (the daemon) ignores that signal.
final class AssuanSession {
    /// How the server answered a command.
    enum Reply {
        /// `OK`, with the data lines (`D …`) that came before it, decoded.
        case ok(Data)
        /// `ERR <code> …`.
        case error(UInt32)
        /// The server went away, sent something malformed or too long.
        case broken
    }

    private let processID: pid_t
    private var input: Int32
    private var output: Int32
    private var buffered: [UInt8] = []

    /// The most data one reply may carry.
    private static let maximumData = 16 * 1024

    /// Starts `executable` with `environment` (`KEY=value`); `nil` if it cannot be started.
    init?(executable: String, environment: [String]) {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { return nil }
        guard pipe(&fromChild) == 0 else {
            for descriptor in toChild { close(descriptor) }
            return nil
        }
        for descriptor in [toChild[1], fromChild[0]] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        let spawned = Spawner.spawn(
            executable,
            arguments: [executable],
            environment: environment,
            streams: [Spawner.Stream.descriptor(toChild[0]), .descriptor(fromChild[1]), .null]
        )
        close(toChild[0])
        close(fromChild[1])
        guard case .success(let processID) = spawned else {
            close(toChild[1])
            close(fromChild[0])
            return nil
        }
        self.processID = processID
        input = toChild[1]
        output = fromChild[0]
    }

    /// Reads the server's greeting (`OK …`).
    func greeting() -> Bool {
        if case .ok = readReply() { return true }
        return false
    }

    /// Sends one command line and reads its reply.
    func command(_ line: String) -> Reply {
        let bytes = Array(line.utf8) + [UInt8(ascii: "\n")]
        guard bytes.count <= Assuan.maximumLine, writeAll(bytes) else { return .broken }
        return readReply()
    }

    /// Closes the pipes and waits for the server; one that does not leave on its own is ended.
    func finish() {
        if input >= 0 { close(input) }
        if output >= 0 { close(output) }
        input = -1
        output = -1
        buffered.resetBytes()
        if waitpid(processID, nil, WNOHANG) == 0 {
            kill(processID, SIGTERM)
            Spawner.wait(for: processID)
        }
    }

    deinit {
        if input >= 0 || output >= 0 { finish() }
    }

    // MARK: Lines

    /// Reads lines up to the reply that ends a command: `OK` or `ERR`.
    ///
    /// Data lines are collected; status (`S`) and comment (`#`) lines are skipped; an inquiry is
    /// answered with `END` (no data).
    private func readReply() -> Reply {
        var data = Data()
        while let line = readLine() {
            if line.starts(with: Array("OK".utf8)) && (line.count == 2 || line[2] == UInt8(ascii: " ")) {
                return .ok(data)
            }
            if line.starts(with: Array("ERR ".utf8)) {
                let digits = line.dropFirst(4).prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                return .error(UInt32(String(decoding: digits, as: UTF8.self)) ?? 0)
            }
            if line.starts(with: Array("D ".utf8)) {
                guard let decoded = Assuan.unescape(line.dropFirst(2)), data.count + decoded.count <= Self.maximumData
                else {
                    return .broken
                }
                data.append(contentsOf: decoded)
                continue
            }
            if line.starts(with: Array("INQUIRE".utf8)) {
                guard writeAll(Array("END\n".utf8)) else { return .broken }
            }
        }
        return .broken
    }

    /// One line without its line feed; `nil` at the end of output or for an over-long line.
    private func readLine() -> [UInt8]? {
        while true {
            if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffered[..<end])
                buffered.removeSubrange(...end)
                return line
            }
            guard buffered.count < Assuan.maximumLine else { return nil }
            var chunk = [UInt8](repeating: 0, count: Assuan.maximumLine)
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffered += chunk[..<count]
            chunk.resetBytes()
        }
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        DescriptorWrite.all(bytes, to: input)
    }
}

extension Array where Element == UInt8 {
    /// Overwrites the bytes with zeros (they may have held a PIN) and empties the array.
    fileprivate mutating func resetBytes() {
        for index in indices { self[index] = 0 }
        removeAll()
    }
}
