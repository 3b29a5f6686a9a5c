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

/// The fingerprint reader fprintd drives, behind securityd (issue 17): libfprint's virtual reader on a
/// private system bus, `security` clients that never see the passcode reading items after a scan of
/// the enrolled finger.
@Suite(
    .serialized,
    .enabled(if: VirtualFingerprintReader.isAvailable, "needs root, fprintd, dbus-daemon and python3-dbusmock")
)
struct FingerprintReaderTests {
    static let passcode = "4826"

    /// A private daemon on the reader's system bus, with the passcode set and the session unlocked.
    static func unlockedDaemon(on reader: VirtualFingerprintReader, timeout seconds: Int = 120) throws -> PrivateDaemon
    {
        let daemon = try PrivateDaemon(
            settings: ["system-bus": reader.address],
            environment: ["KEYCHAIN_FPRINTD_TIMEOUT": "\(seconds)"]
        )
        #expect(try daemon.tool(["passcode", "set"], input: "\(passcode)\n\(passcode)\n").status == 0)
        #expect(try daemon.tool(["unlock"], input: "\(passcode)\n").status == 0)
        return daemon
    }

    /// Enrols the virtual finger `scanned` as fprintd's `finger` through `security biometry enroll`:
    /// the virtual reader's five scans.
    static func enrol(
        _ scanned: String,
        as finger: String = "right-index-finger",
        by client: Client,
        on reader: VirtualFingerprintReader
    ) throws -> SecurityToolRunner.Output {
        try running(
            { try client.tool(["biometry", "enroll", finger]) },
            while: {
                for _ in 0..<5 { try reader.scan(scanned) }
            }
        )
    }

    /// Runs `security` in the background while `scan` puts a finger on the reader; its output.
    static func withScan(
        _ reader: VirtualFingerprintReader,
        _ finger: String,
        within seconds: Double = 20,
        _ body: @escaping @Sendable () throws -> SecurityToolRunner.Output
    ) throws -> SecurityToolRunner.Output {
        try running(body) { try reader.scan(finger, within: seconds) }
    }

    /// Runs `body` (a `security` command) in the background while `act` plays the person at the reader; the
    /// command's output.
    static func running(
        _ body: @escaping @Sendable () throws -> SecurityToolRunner.Output,
        while act: () throws -> Void
    ) throws -> SecurityToolRunner.Output {
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.set(Result { try body() })
            done.signal()
        }
        do {
            try act()
        } catch {
            done.wait()
            // The command ended without opening the reader: what it said is the failure.
            let output = try box.get()
            Issue.record("the reader was not opened: status \(output.status), \(output.stderr)")
            return output
        }
        done.wait()
        return try box.get()
    }

    /// A `security` client of the daemon, to run from another thread.
    struct Client: Sendable {
        let home: URL
        let environment: [String: String]

        init(_ daemon: PrivateDaemon) {
            home = daemon.home
            environment = daemon.clientEnvironment()
        }

        func tool(_ arguments: [String]) throws -> SecurityToolRunner.Output {
            try SecurityToolRunner(home: home).run(arguments, input: "", environment: environment)
        }
    }

    final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<SecurityToolRunner.Output, any Error>?
        func set(_ value: Result<SecurityToolRunner.Output, any Error>) { lock.withLock { result = value } }
        func get() throws -> SecurityToolRunner.Output {
            let stored = lock.withLock { result }
            return try #require(stored).get()
        }
    }

    @Test func aScanOfTheEnrolledFingerReadsTheItemInAnyProcess() throws {
        let reader = try VirtualFingerprintReader()
        defer { reader.stop() }
        // A long time-out, so that a match the daemon failed to cancel (below) shows as one.
        let daemon = try Self.unlockedDaemon(on: reader, timeout: 300)
        defer { daemon.stop() }
        let client = Client(daemon)
        var output = try daemon.tool(["biometry", "sensor", "fprintd"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "sensor: fprintd (reader: Virtual device for debugging)\n")
        #expect(
            try daemon.tool(["biometry", "status"]).stdout.contains(
                "biometry: Touch ID\nsensor: fprintd (reader: Virtual device for debugging)\nenrolled: none\n"
            )
        )

        // Enrolling takes the virtual reader's five scans of one finger.
        output = try Self.enrol("finger-A", by: client, on: reader)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try daemon.tool(["biometry", "status"]).stdout.contains("enrolled: right-index-finger\n"))

        let current = [
            "add-generic-password", "-s", "Reader", "-a", "current", "-w", "current-set secret", "--access-control",
            "biometryCurrentSet",
        ]
        #expect(try daemon.tool(current).status == 0)
        let any = [
            "add-generic-password", "-s", "Reader", "-a", "any", "-w", "any-finger secret", "--access-control",
            "biometryAny",
        ]
        #expect(try daemon.tool(any).status == 0)
        let readCurrent = ["find-generic-password", "-s", "Reader", "-a", "current", "-w"]
        let readAny = ["find-generic-password", "-s", "Reader", "-a", "any", "-w"]

        // The enrolled finger: read by a process that never saw the passcode (no input at all).
        output = try Self.withScan(reader, "finger-A") { try client.tool(readCurrent) }
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout == "current-set secret\n")
        // The daemon tells the program's user why the reader waits, naming the program.
        #expect(
            output.stderr == "security: touch the fingerprint reader (security wants to use an item in your keychain)\n"
        )
        // Another finger: errSecAuthFailed (-25293's low byte, 51).
        output = try Self.withScan(reader, "finger-B") { try client.tool(readCurrent) }
        #expect(output.status == 51, "\(output.stderr)")
        #expect(!output.stdout.contains("secret"))

        // Five failed matches in a row (the match above reset the count): biometry is locked out; the
        // passcode at `security unlock` ends it.
        for _ in 0..<4 {
            #expect(try Self.withScan(reader, "finger-B") { try client.tool(readCurrent) }.status == 51)
        }
        #expect(try daemon.tool(["biometry", "status"]).stdout.contains("failed biometric matches: 5 (locked out"))
        output = try daemon.tool(readCurrent)
        #expect(output.status != 0 && !output.stdout.contains("secret"))
        #expect(try daemon.tool(["unlock"], input: "\(Self.passcode)\n").status == 0)
        #expect(try Self.withScan(reader, "finger-A") { try client.tool(readAny) }.stdout == "any-finger secret\n")

        // Another finger enrolled: the current-set item is gone for good; the any-finger item stays.
        output = try Self.enrol("finger-C", as: "left-thumb", by: client, on: reader)
        #expect(output.status == 0, "\(output.stderr)")
        // (It is found invalid before any finger is asked for.)
        output = try daemon.tool(readCurrent)
        #expect(output.status == 44, "\(output.stderr)")  // errSecItemNotFound
        #expect(try Self.withScan(reader, "finger-C") { try client.tool(readAny) }.stdout == "any-finger secret\n")

        // fprintd stopped: no sensor, nothing lost.
        reader.stopFprintd()
        #expect(
            try daemon.tool(["biometry", "status"]).stdout.contains(
                "biometry: none\nsensor: fprintd (no fingerprint reader)\n"
            )
        )
        output = try daemon.tool(readAny)
        #expect(output.status == 51 && !output.stdout.contains("secret"), "\(output.stderr)")
        try reader.startFprintd()
        output = try Self.withScan(reader, "finger-C") { try client.tool(readAny) }
        #expect(output.stdout == "any-finger secret\n", "\(output.status) \(output.stderr)")

        // A client that goes away while the reader waits for its finger: the daemon stops waiting and
        // frees the reader at once (else the next request would find it claimed for the whole time-out).
        let impatient = Process()
        impatient.executableURL = SecurityToolRunner.executable
        impatient.arguments = readAny
        impatient.environment = client.environment
        impatient.standardInput = FileHandle.nullDevice
        impatient.standardOutput = FileHandle.nullDevice
        impatient.standardError = FileHandle.nullDevice
        try impatient.run()
        try reader.waitUntilOpened()
        kill(impatient.processIdentifier, SIGKILL)
        impatient.waitUntilExit()
        // Well within the 300 s time-out the killed client's match would hold the reader for (the
        // margin is for a machine busy with the rest of the suite: fprintd and its mocks slow down).
        // The next scan waits for the reader to close: sent earlier, it would go to the ending match.
        try reader.waitUntilClosed(within: 45)
        output = try Self.withScan(reader, "finger-C") { try client.tool(readAny) }
        #expect(output.stdout == "any-finger secret\n", "\(output.status) \(output.stderr)")
    }

    @Test func aForgedMatchSignalDuringARealScanIsNotBelieved() throws {
        let reader = try VirtualFingerprintReader()
        defer { reader.stop() }
        let daemon = try Self.unlockedDaemon(on: reader)
        defer { daemon.stop() }
        let client = Client(daemon)
        #expect(try daemon.tool(["biometry", "sensor", "fprintd"]).status == 0)
        let enrolment = try Self.enrol("finger-A", by: client, on: reader)
        #expect(enrolment.status == 0, "\(enrolment.stderr)")
        let add = [
            "add-generic-password", "-s", "Forged", "-a", "me", "-w", "not for a forger", "--access-control",
            "biometryAny",
        ]
        #expect(try daemon.tool(add).status == 0)

        // While the daemon waits for a finger, another user's program signals a match for the reader;
        // then a wrong finger is scanned. Only fprintd's own (root) connection is listened to.
        let output = try Self.running(
            { try client.tool(["find-generic-password", "-s", "Forged", "-a", "me", "-w"]) },
            while: {
                try reader.waitUntilOpened()
                try reader.forgeMatch(asUser: 65534)
                Thread.sleep(forTimeInterval: 0.5)
                try reader.scan("finger-B")
            }
        )
        #expect(output.status == 51, "\(output.stderr)")
        #expect(!output.stdout.contains("not for a forger"))
    }

    @Test func aFakeFprintdOfAnotherUserIsNotBelieved() throws {
        let reader = try VirtualFingerprintReader(fprintd: false)
        defer { reader.stop() }
        try reader.startFakeFprintd(asUser: 65534)
        let daemon = try Self.unlockedDaemon(on: reader, timeout: 5)
        defer { daemon.stop() }
        // An item protected by any finger, enrolled on the simulated sensor; then the reader is chosen.
        #expect(try daemon.tool(["biometry", "sensor", "touchid"]).status == 0)
        #expect(try daemon.tool(["biometry", "enroll", "thumb"]).status == 0)
        let add = [
            "add-generic-password", "-s", "Fake", "-a", "me", "-w", "not for the fake", "--access-control",
            "biometryAny",
        ]
        #expect(try daemon.tool(add).status == 0)
        var output = try daemon.tool(["biometry", "sensor", "fprintd"])
        #expect(output.stdout == "sensor: fprintd (no fingerprint reader)\n", "\(output.stderr)")

        // The fake answers every verification with a match; the daemon never asks it.
        output = try daemon.tool(["find-generic-password", "-s", "Fake", "-a", "me", "-w"])
        #expect(output.status != 0)
        #expect(!output.stdout.contains("not for the fake"))
        #expect(try daemon.tool(["biometry", "status"]).stdout.hasPrefix("biometry: none\n"))
    }
}
