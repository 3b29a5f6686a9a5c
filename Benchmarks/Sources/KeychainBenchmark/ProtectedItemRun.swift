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
import KeychainDevice
import KeychainServices
import LocalAuth

/// A keychain with a passcode: the unlock cost, plain look-ups once unlocked, items protected by an
/// application password, and biometry-protected items read through one reused `LAContext`.
struct ProtectedItemRun {
    let count: Int
    let directory: URL
    let seed: UInt64
    let log: ResultLog

    static let subject = "swift-keychain (passcode set)"
    private static let passcode = "123456"

    func run() throws {
        let home = directory.appendingPathComponent("protected", isDirectory: true)
        try? FileManager.default.removeItem(at: home)
        let device = try Device(
            home: KeychainHome(url: home),
            configuration: DeviceConfiguration(passcodePrompt: .none)
        )

        let set = Sample.measure(1) { _ in (try? device.setPasscode(Self.passcode)) != nil }
        log.record(Self.subject, "set passcode", size: nil, set)
        let unlock = Sample.measure(5) { _ in (try? device.unlock(passcode: Self.passcode)) != nil }
        log.record(Self.subject, "unlock (passcode)", size: nil, unlock)
        let change = Sample.measure(2) { round in
            let (old, new) = round == 0 ? (Self.passcode, "654321") : ("654321", Self.passcode)
            return (try? device.changePasscode(from: old, to: new)) != nil
        }
        log.record(Self.subject, "change passcode", size: nil, change)

        try Device.withCurrent(device) {
            plainItems()
            applicationPasswordItems()
            try biometryItems(device)
        }
    }

    /// `WhenUnlocked` items in a keychain with a passcode, once unlocked.
    private func plainItems() {
        let operations = ItemOperations(workload: Workload(prefix: "kc-bench-pc", seed: seed))
        let store = Sample.measure(count) { operations.store($0) }
        log.record(Self.subject, "store", size: count, store)
        let lookup = Sample.measure(count) { operations.lookup($0) }
        log.record(Self.subject, "lookup", size: count, lookup)
    }

    /// Items sealed to an application password: the first read of a new context pays the
    /// password's key derivation, later reads through the same context do not.
    private func applicationPasswordItems() {
        let operations = ItemOperations(workload: Workload(prefix: "kc-bench-app", seed: seed))
        guard
            let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .applicationPassword, nil)
        else { return }
        let password = Data("correct horse battery staple".utf8)
        let context = LAContext()
        _ = context.setCredential(password, type: .applicationPassword)
        let store = Sample.measure(count) {
            operations.store(
                $0,
                extra: [kSecAttrAccessControl as String: access, kSecUseAuthenticationContext as String: context]
            )
        }
        log.record(Self.subject, "store (app password)", size: count, store)
        let fresh = Sample.measure(min(5, count)) { index in
            let newContext = LAContext()
            _ = newContext.setCredential(password, type: .applicationPassword)
            return operations.lookup(index, extra: [kSecUseAuthenticationContext as String: newContext])
        }
        log.record(Self.subject, "lookup (app password, new LAContext)", size: count, fresh)
        let reused = Sample.measure(count) {
            operations.lookup($0, extra: [kSecUseAuthenticationContext as String: context])
        }
        log.record(Self.subject, "lookup (app password, reused LAContext)", size: count, reused)
    }

    /// `biometryAny` items on the simulated sensor: one match, then every read through that context.
    private func biometryItems(_ device: Device) throws {
        try device.simulatedSensor.install(.touchID)
        try device.simulatedSensor.enroll("right thumb")
        let operations = ItemOperations(workload: Workload(prefix: "kc-bench-bio", seed: seed))
        guard let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, .biometryAny, nil)
        else { return }
        let store = Sample.measure(count) { operations.store($0, extra: [kSecAttrAccessControl as String: access]) }
        log.record(Self.subject, "store (biometryAny)", size: count, store)

        try device.simulatedSensor.queue([.match])
        let context = LAContext()
        let reused = Sample.measure(count) {
            operations.lookup(
                $0,
                extra: [kSecUseAuthenticationContext as String: context, kSecUseOperationPrompt as String: "Benchmark"]
            )
        }
        let prompts = 1 - (try device.simulatedSensor.queuedOutcomes().count)
        log.record(
            Self.subject,
            "lookup (biometryAny, reused LAContext)",
            size: count,
            reused,
            extra: ["sensor_matches_used": prompts]
        )
    }
}
