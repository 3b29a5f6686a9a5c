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
import Synchronization
import Testing

/// A program started by `securityd` (a prompter) or by a client (the daemon) begins as a program
/// started afresh: no signal blocked, none ignored, whatever its parent's threads block or ignore.
struct SpawnerTests {
    /// The bit of `signal` in a `/proc/…/status` mask line such as `SigBlk:`.
    static func mask(_ field: String, of status: String, has signal: Int32) -> Bool? {
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let bits = UInt64(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
        else { return nil }
        return bits & (1 << UInt64(signal - 1)) != 0
    }

    @Test func aChildStartsWithNoSignalBlockedOrIgnored() throws {
        // As in securityd: SIGTERM blocked by the spawning thread, a signal ignored process-wide
        // (SIGUSR2 here: nothing in these tests uses it, and ignoring it harms no other test).
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        let spawned = Mutex<(child: pid_t?, parentStatus: String)>((nil, ""))
        let thread = Thread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
            let child = try? Spawner.spawn("/bin/sleep", arguments: ["sleep", "600"]).get()
            spawned.withLock { $0 = (child, status) }
        }
        thread.start()
        let deadline = Date().addingTimeInterval(60)
        while spawned.withLock({ $0.parentStatus.isEmpty }), Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let (child, parentStatus) = spawned.withLock { $0 }
        let processID = try #require(child)
        // The control: the spawning thread did block SIGTERM and ignore SIGUSR2.
        #expect(Self.mask("SigBlk", of: parentStatus, has: SIGTERM) == true)
        #expect(Self.mask("SigIgn", of: parentStatus, has: SIGUSR2) == true)

        let childStatus = (try? String(contentsOfFile: "/proc/\(processID)/status", encoding: .utf8)) ?? ""
        #expect(Self.mask("SigBlk", of: childStatus, has: SIGTERM) == false)
        #expect(Self.mask("SigIgn", of: childStatus, has: SIGUSR2) == false)
        #expect(childStatus.contains("SigBlk:\t0000000000000000"))
        // And SIGTERM ends it (SIGKILL after a minute, so that a failing run leaves nothing behind).
        kill(processID, SIGTERM)
        var status: Int32 = 0
        let ending = Date().addingTimeInterval(60)
        while waitpid(processID, &status, WNOHANG) == 0 {
            guard Date() < ending else {
                kill(processID, SIGKILL)
                Spawner.wait(for: processID)
                Issue.record("SIGTERM did not end the child")
                return
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(status & 0x7F == SIGTERM)
    }
}
