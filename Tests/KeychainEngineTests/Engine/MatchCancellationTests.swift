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
import KeychainDevice
import KeychainTesting
import Synchronization
import Testing

@testable import KeychainCore
@testable import KeychainEngine

/// A released or invalidated context ends its own biometric match and no other: a process that
/// goes away while the reader waits for its finger must not cancel the match another process waits for.
@Suite struct MatchCancellationTests {
    /// A sensor on which several matches wait at once, each until the test says how it ends or its
    /// cancellation ends it.
    final class WaitingSensor: BiometricSensor {
        private let waiting = Mutex<[(reason: String, cancellation: MatchCancellation, outcome: BiometricMatch?)]>([])

        func kind() throws(KeychainError) -> BiometryKind? { .touchID }
        func enrolled() throws(KeychainError) -> [String] { ["thumb"] }
        func enrolmentIdentity() throws(KeychainError) -> Data? { Data("thumb".utf8) }

        func match(
            reason: String,
            kind: BiometryKind,
            cancellation: MatchCancellation,
            prompt: PasscodePrompt
        ) throws(KeychainError) -> BiometricMatch {
            waiting.withLock { $0.append((reason, cancellation, nil)) }
            defer { waiting.withLock { $0.removeAll { $0.cancellation === cancellation } } }
            let deadline = ContinuousClock.now + .seconds(120)
            while ContinuousClock.now < deadline {
                if cancellation.isCancelled { return .cancelled }
                if let outcome = waiting.withLock({ $0.first { $0.cancellation === cancellation }?.outcome }) {
                    return outcome
                }
                Thread.sleep(forTimeInterval: 0.005)
            }
            return .cancelled
        }

        /// The reasons of the matches waiting now.
        var reasons: [String] { waiting.withLock { $0.map(\.reason) } }

        /// Ends the match waiting with `reason` with `outcome`.
        func answer(_ reason: String, _ outcome: BiometricMatch) {
            waiting.withLock { matches in
                for index in matches.indices where matches[index].reason == reason { matches[index].outcome = outcome }
            }
        }
    }

    @Test func releasingOneContextCancelsItsMatchAndNotAnotherContexts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-match-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let keychain = try Keychain(
            directory: directory,
            accessGroups: .standard,
            passcodeKDF: .testing,
            logger: EngineLog().makeLogger()
        )
        try keychain.keybagService.setPasscode("2468", current: nil)
        let sensor = WaitingSensor()
        let gate = AuthenticationGate(keybagService: keychain.keybagService, sensor: sensor, prompt: .none)
        let gone = try gate.makeContext()
        let waiting = try gate.makeContext()
        let invalidated = try gate.makeContext()

        let results = Mutex<[String: AuthenticationFailure.Code?]>([:])
        let group = DispatchGroup()
        for (name, context) in [("gone", gone), ("waiting", waiting), ("invalidated", invalidated)] {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                do throws(AuthenticationFailure) {
                    try gate.evaluate(.biometrics, for: context, reason: name, interactionAllowed: true)
                    results.withLock { $0[name] = .some(nil) }
                } catch {
                    results.withLock { $0[name] = .some(error.code) }
                }
            }
        }
        let deadline = Date().addingTimeInterval(60)
        while sensor.reasons.count < 3 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(Set(sensor.reasons) == ["gone", "waiting", "invalidated"])

        // The process of one context went away; another invalidated its context.
        gate.releaseContext(gone)
        gate.invalidate(invalidated)
        while sensor.reasons.count > 1 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(sensor.reasons == ["waiting"])

        // The match nobody cancelled goes on, and ends as the person decides.
        sensor.answer("waiting", .match)
        #expect(group.wait(timeout: .now() + 60) == .success)
        let outcomes = results.withLock { $0 }
        #expect(outcomes["waiting"] == .some(nil))
        #expect(outcomes["invalidated"] == .some(.appCancel))
        #expect(outcomes["gone"] != .some(nil))
        #expect(!gate.credentials(of: waiting).isEmpty)
    }
}
