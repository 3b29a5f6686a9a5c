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

import ArgumentParser
import Foundation
import KeychainDevice

/// `security biometry …`: the sensor — fprintd's fingerprint reader, or the simulated sensor, like
/// Xcode Simulator's Touch ID / Face ID menu.
struct BiometryCommands: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "biometry",
        abstract:
            "Choose the biometric sensor (fprintd's reader or the simulated one); enrol; script the simulated one.",
        discussion: """
            `security biometry sensor fprintd` uses the fingerprint reader fprintd drives (`auto`: when
            fprintd has one); `touchid`, `faceid`, `opticid` install the simulated sensor, whose state
            lives in the keychain, so one process can queue outcomes that the next
            `find-generic-password` consumes. Enrolling needs a passcode, as on iOS; enrolling or
            removing a finger or face makes every biometryCurrentSet item unreadable for good.
            """,
        subcommands: [Show.self, Sensor.self, Enroll.self, Remove.self, Next.self, Clear.self]
    )

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "status",
            abstract: "Show the sensor, enrolment and lockout."
        )
        @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

        func run() throws {
            guard let device = try Session.openExisting(home: keychain) else {
                Swift.print("biometry: none")
                return
            }
            BiometryCommands.print(try BiometryCommands.perform("biometry status") { try device.biometryStatus() })
        }
    }

    struct Sensor: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Choose the sensor: fprintd (the fingerprint reader), auto (fprintd's when it has one), or a simulated touchid, faceid, opticid, or none."
        )
        @Argument(help: ArgumentHelp("The sensor.", valueName: "fprintd|auto|touchid|faceid|opticid|none")) var kind:
            String
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let name = kind.lowercased()
            if let source = BiometricSensorSource(rawValue: name), source != .simulated {
                let device = try Session.open(home: keychain)
                try BiometryCommands.perform("biometry sensor") { try device.selectBiometricSensor(source) }
                let status = try BiometryCommands.perform("biometry sensor") { try device.biometryStatus() }
                Swift.print(
                    "sensor: \(name) (\(status.readerName.map { "reader: \(Terminal.escaped($0))" } ?? "no fingerprint reader"))"
                )
                return
            }
            let chosen: BiometryKind?
            if name == "none" {
                chosen = nil
            } else if let known = BiometryKind(rawValue: name) {
                chosen = known
            } else {
                throw ValidationError("unknown sensor \(kind); use fprintd, auto, touchid, faceid, opticid or none")
            }
            let device = try Session.open(home: keychain)
            try BiometryCommands.perform("biometry sensor") {
                try device.selectBiometricSensor(.simulated)
                try device.simulatedSensor.install(chosen)
            }
            Swift.print("sensor: \(chosen?.displayName ?? "none")")
        }
    }

    struct Enroll: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Enrol a finger on the fingerprint reader (fprintd's names: right-index-finger, …), or a simulated finger, face or eye by name."
        )
        @Argument(help: "A name for it (\"right thumb\"; on fprintd's reader: right-index-finger, left-thumb, …).")
        var name: String
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let device = try Session.open(home: keychain)
            if (try? device.hasPasscode()) == true, !device.hasBeenUnlocked {
                try Session.unlock(device)
            }
            let status = try BiometryCommands.perform("biometry enroll") { try device.biometryStatus() }
            if status.source == .simulated {
                try BiometryCommands.perform("biometry enroll") { try device.simulatedSensor.enroll(name) }
            } else {
                Terminal.printError(
                    "Touch the fingerprint reader until it has the whole finger (\(Terminal.escaped(name)))."
                )
                try BiometryCommands.perform("biometry enroll") { try device.enrollOnReader(finger: name) }
            }
            Swift.print("enrolled \(Terminal.escaped(name))")
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an enrolled finger, face or eye.")
        @Argument(help: "Its name.") var name: String
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let device = try Session.open(home: keychain)
            if (try? device.hasPasscode()) == true, !device.hasBeenUnlocked {
                try Session.unlock(device)
            }
            try BiometryCommands.perform("biometry remove") { try device.simulatedSensor.remove(name) }
            Swift.print("removed \(Terminal.escaped(name))")
        }
    }

    struct Next: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Queue the outcomes of the next matches: match, nonmatch, cancel, fallback."
        )
        @Argument(help: ArgumentHelp("Outcomes, in order.", valueName: "match|nonmatch|cancel|fallback")) var outcomes:
            [String]
        @Option(name: .customLong("keychain"), help: "Keychain home directory.") var keychain: String?

        func run() throws {
            let parsed = try outcomes.map { name in
                guard
                    let outcome = SimulatedOutcome(rawValue: name.lowercased().replacingOccurrences(of: "-", with: ""))
                else {
                    throw ValidationError("unknown outcome \(name); use match, nonmatch, cancel or fallback")
                }
                return outcome
            }
            let device = try Session.open(home: keychain)
            try BiometryCommands.perform("biometry next") { try device.simulatedSensor.queue(parsed) }
            let queued = (try? device.simulatedSensor.queuedOutcomes()) ?? []
            Swift.print("queued: \(queued.map(\.rawValue).joined(separator: " "))")
        }
    }

    struct Clear: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Empty the queue of outcomes.")
        @Argument(help: "Keychain home directory (default: $KEYCHAIN_HOME).") var keychain: String?

        func run() throws {
            let device = try Session.open(home: keychain)
            try BiometryCommands.perform("biometry clear") { try device.simulatedSensor.clearQueue() }
            Swift.print("queue cleared")
        }
    }

    /// Prints the biometry lines of `security status`.
    static func print(_ status: BiometryStatus) {
        Swift.print("biometry: \(status.kind?.displayName ?? "none")")
        if status.source != .simulated {
            Swift.print(
                "sensor: \(status.source.rawValue) (\(status.readerName.map { "reader: \(Terminal.escaped($0))" } ?? "no fingerprint reader"))"
            )
        }
        if status.kind != nil {
            Swift.print(
                "enrolled: \(status.enrolled.isEmpty ? "none" : status.enrolled.map(Terminal.escaped).joined(separator: ", "))"
            )
        }
        Swift.print(
            "failed biometric matches: \(status.failedMatches)\(status.isLockedOut ? " (locked out until the passcode is entered)" : "")"
        )
        if !status.queuedOutcomes.isEmpty {
            Swift.print("queued outcomes: \(status.queuedOutcomes.map(\.rawValue).joined(separator: " "))")
        }
    }

    /// Runs `body`, printing `security: <context>: <message>` and exiting 1 on failure.
    static func perform<T>(_ context: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            Terminal.printError("security: \(context): \(Session.describe(error))")
            throw ExitCode(1)
        }
    }
}
