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
import KeychainTestSupport
import Testing

/// securityd locks the keychain when systemd-logind locks the user's session or the machine goes to
/// sleep (issue 14, scope 3), with a mock logind on a private system bus.
@Suite(.serialized, .enabled(if: PrivateSystemBus.isAvailable, "needs dbus-daemon and python3-dbusmock"))
struct LoginSessionLockTests {
    static let passcode = "4826"

    @Test func theKeychainLocksWithTheLoginSessionAndForSleep() throws {
        let bus = try PrivateSystemBus()
        defer { bus.stop() }
        let own = try bus.addSession("c1", userID: getuid())
        let other = try bus.addSession("c2", userID: getuid() &+ 4242)
        let daemon = try PrivateDaemon(settings: ["system-bus": bus.address])
        defer { daemon.stop() }
        #expect(try daemon.tool(["passcode", "set"], input: "\(Self.passcode)\n\(Self.passcode)\n").status == 0)
        #expect(try daemon.tool(["unlock"], input: "\(Self.passcode)\n").status == 0)
        #expect(try daemon.tool(["add-generic-password", "-s", "Session", "-a", "me", "-w", "in-session"]).status == 0)
        func read() throws -> Int32 {
            let found = try daemon.tool(["find-generic-password", "-s", "Session", "-w"])
            #expect(found.status != 0 || found.stdout == "in-session\n")
            return found.status
        }
        func becomesLocked() throws -> Bool {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                if try read() == 36 { return true }  // errSecInteractionNotAllowed's low byte
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }
        #expect(try read() == 0)

        // Another user's session, a Lock signal from a connection that is not logind, an unlocked
        // hint and a wake-up lock nothing.
        try bus.lockSession(other)
        try bus.setLockedHint(other, true)
        try bus.forgeLock(own)
        // Nor one addressed to the daemon's connection alone, which its match rules do not filter.
        try bus.forge(lock: own, toProcess: daemon.processID)
        try bus.forge(lock: nil, toProcess: daemon.processID)
        try bus.setLockedHint(own, false)
        try bus.prepareForSleep(false)
        Thread.sleep(forTimeInterval: 1)
        #expect(try read() == 0)

        try bus.lockSession(own)
        #expect(try becomesLocked(), "the session's lock did not lock the keychain")
        #expect(try daemon.tool(["unlock"], input: "\(Self.passcode)\n").status == 0)
        #expect(try read() == 0)

        // A screen locker that locks without logind's Lock (GNOME's) sets the session's LockedHint.
        try bus.setLockedHint(own, true)
        #expect(try becomesLocked(), "the session's locked hint did not lock the keychain")
        #expect(try daemon.tool(["unlock"], input: "\(Self.passcode)\n").status == 0)
        #expect(try read() == 0)

        try bus.prepareForSleep(true)
        #expect(try becomesLocked(), "going to sleep did not lock the keychain")
        #expect(daemon.isRunning)
    }
}
